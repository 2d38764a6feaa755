/**
 * Webhook delivery, write to arrival (docs/performance.md "Webhook delivery"), `npm run bench -- --only=webhooks`.
 *
 * The service runs as `npm start` runs it (infra/local/start.ts): every function from its bundle in sandboxes of its
 * own, each AWS call checked against its role, behind the local gateway, with the background jobs — the delivery
 * function's `pollLocally` walking the change feed onto the local SQS stand-in every 250 ms, and the local event
 * source mapping invoking the delivery function from that queue. A receiver on 127.0.0.1 verifies every delivery
 * with `standardwebhooks` (`new Webhook(secret).verify(body, headers)`), as a subscriber would.
 *
 * A run: users made in one department (their changes left to pass the feed before the webhook exists), a webhook
 * registered, then `writers` concurrent writers make the run's changes through the API — half moves to another
 * department (E2), half PATCHes of a user's last name, each user moved once and patched once — and the time of each
 * answer is kept. After the last arrival the change feed is walked from the run's start: it gives each change's id
 * (the `webhook-id` of its deliveries) and `at`, matched to its write by resource (a move by the user it added, a
 * PATCH by its user). What a change waits for, from its answer:
 *
 * 1. at: the entry's `at`, against its answer (negative: the request's own tail; the feed waits for no settling);
 * 2. feed and poll: the StreamRouter's local poller appends the entry to the feed (every 200 ms), and the delivery
 *    function's `pollLocally`, every 250 ms, sends the feed's new entries to the queue (the message's SentTimestamp);
 * 3. queue: the mapping receives it (it waits 200 ms after an empty receive) and invokes the function (the invocation,
 *    seen through the host this bench hands the background jobs);
 * 4. fan-out: the function reads the webhooks and their health, after the earlier messages of its batch (the
 *    attempt's `at` in the delivery log);
 * 5. attempt: the address check, signing and the POST, until the receiver has the whole body.
 *
 * The second, smaller run's receiver answers 500 to the first attempt of every change: each arrives again at its
 * second attempt, Standard Webhooks' first retry (5 s after the failure, lib/webhooks/schedule.ts).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SQSEvent } from 'aws-lambda';
import { Webhook } from 'standardwebhooks';
import type { FunctionHost } from '../infra/local/functions';
import { inTableOfItsOwn } from './support/dataset';
import { median, pool, progress, projectRoot, round, sleep } from './support/util';

/**
 * The contract: a change is in the feed within 10 s of its answer, and the first attempt follows at once, so every
 * change arrives within those 10 s; a failed first attempt is retried within 10 s, so it arrives within 20 s.
 */
export const WEBHOOK_GOALS = { deliveredMs: 10_000, retryMs: 10_000 } as const;

export type WebhookSizes = { changes: number; retryChanges: number; writers: number };

/** The admin API's write token of the stack startStack starts. */
export const WRITE_TOKEN = 'bench-webhooks-write-token';
/** How long after the last write a change may still arrive before the run stops waiting (a missing one). */
const WAIT_AFTER_WRITES_MS = 60_000;
/** After the last expected arrival, how long the receiver keeps counting (late duplicates). */
const GRACE_MS = 6_000;

interface AuditEntryLike {
  id: string;
  at: string;
  operation: string;
  resource_type: string;
  resource_id: string;
  changes: Record<string, unknown>;
}

interface Arrival {
  id: string;
  arrivedAt: number;
  status: number;
  verified: boolean;
  entry?: AuditEntryLike;
}

/** A delivery message the mapping handed the function: what it carried, when it was sent, when it was received. */
interface Received {
  kind: string;
  changeId: string;
  attempt: number;
  sentAt: number;
  receivedAt: number;
}

export interface WebhookRow {
  run: string;
  changes: number;
  writers: number;
  writes_per_second: number;
  delivered: number;
  exactly: number;
  duplicates: number;
  missing: number;
  unverified: number;
  queued_twice: number;
  p50_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
  first_attempt_p50_ms: number | null;
  retry_gap_p50_ms: number | null;
  retry_gap_p99_ms: number | null;
  goal: string;
  meets_goal: boolean;
  note?: string;
}

export interface WebhookSegment {
  run: string;
  segment: string;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  what: string;
}

/** The value at or below which `p`% of `values` lie (nearest rank). */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A receiver on loopback: each path has its webhook's secret; `failFirst` paths answer 500 to each change's first attempt. */
async function startReceiver() {
  const secrets = new Map<string, string>();
  const failFirst = new Set<string>();
  const arrivals = new Map<string, Arrival[]>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const arrivedAt = Date.now();
      const path = request.url ?? '';
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(request.headers['webhook-id']);
      const to = arrivals.get(path) ?? [];
      arrivals.set(path, to);
      let entry: AuditEntryLike | undefined;
      try {
        const event = new Webhook(secrets.get(path) ?? '').verify(body, request.headers as IncomingHttpHeaders & Record<string, string>);
        entry = (event as { data: AuditEntryLike }).data;
      } catch {
        entry = undefined;
      }
      const status = failFirst.has(path) && !to.some((arrival) => arrival.id === id) ? 500 : 204;
      to.push({ id, arrivedAt, status, verified: entry !== undefined && entry.id === id, entry });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    listen(path: string, secret: string, options: { failFirst: boolean }) {
      secrets.set(path, secret);
      if (options.failFirst) failFirst.add(path);
      arrivals.set(path, []);
      return () => arrivals.get(path)!;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The service as `npm start` runs it, on `table`; the delivery function's queue invocations recorded on the way. */
export async function startStack(env: Record<string, string>, table: string) {
  const { prepareStack } = await import('../infra/local/prepare');
  const { resolveDeployment, resolveQueues } = await import('../infra/local/deployment');
  const { createQueues } = await import('../infra/local/queues');
  const { awsCallChecker } = await import('../infra/local/aws-calls');
  const { startFunctionHost } = await import('../infra/local/functions');
  const { startGateway } = await import('../infra/local/gateway');
  const { startBackgroundJobs } = await import('../infra/local/background');
  const { WEBHOOK_DELIVERY } = await import('../lib/background');
  const { FALLBACK_FUNCTION } = await import('../lib/routes');

  const prepared = await prepareStack(projectRoot, { reportEmailDomains: '*' });
  progress(`webhooks: functions ${prepared.summary}`);
  const endpoints = { dynamodb: env.DYNAMODB_ENDPOINT, s3: env.S3_ENDPOINT, ses: env.SES_ENDPOINT, sqs: env.SQS_ENDPOINT };
  const denied: string[] = [];
  const failures: string[] = [];
  let functions: FunctionHost | undefined;
  const gateway = await startGateway({
    tokens: { write: WRITE_TOKEN },
    loadHandler: async (route) => functions!.handler(route.name),
    scimAuthorizer: (event, context) => functions!.handler('scimAuthorizer')(event, context),
    fallbackFunction: (event, context) => functions!.handler(FALLBACK_FUNCTION.handler)(event, context),
  });
  // As infra/local/start.ts: the local-only settings (a webhook may point at http on loopback).
  const local = {
    tableName: table,
    reportsBucket: env.REPORTS_BUCKET,
    apiUrl: gateway.url,
    sqsEndpoint: endpoints.sqs,
    localOnlySettings: true,
  };
  const deployed = resolveDeployment(prepared.deployment, local);
  await createQueues(endpoints.sqs, resolveQueues(prepared.deployment, local));
  const checker = awsCallChecker({
    functions: deployed,
    targets: endpoints,
    onDenied: (call) => denied.push(`${call.handler}: ${call.action} on ${call.resource}`),
  });
  functions = startFunctionHost({
    bundlesDir: prepared.bundlesDir,
    functions: deployed,
    endpointsFor: (fn) => checker.endpointsFor(fn),
    output: (handler, line) => /ERROR|Task timed out|Runtime\./.test(line) && failures.push(`${handler}: ${line.slice(0, 300)}`),
  });
  const host = functions;
  // The background jobs get the host with its invoke watched: each SQS event the mapping hands the delivery function.
  const received: Received[] = [];
  const watched: FunctionHost = {
    ...host,
    invoke(handler, event, options) {
      if (handler === WEBHOOK_DELIVERY.handler && (options?.method ?? 'handler') === 'handler') {
        const receivedAt = Date.now();
        for (const record of (event as SQSEvent).Records) {
          const body = JSON.parse(record.body) as { kind: string; change?: { id: string }; attempt?: number };
          received.push({
            kind: body.kind,
            changeId: body.change?.id ?? '',
            attempt: body.attempt ?? 1,
            sentAt: Number(record.attributes.SentTimestamp),
            receivedAt,
          });
        }
      }
      return host.invoke(handler, event, options);
    },
  };
  const jobErrors: string[] = [];
  const background = startBackgroundJobs(watched, { onError: (name, error) => jobErrors.push(`${name}: ${String(error)}`) });
  return {
    url: gateway.url,
    received,
    localPollMs: WEBHOOK_DELIVERY.trigger.localPollMs,
    deliverySandboxes: () => host.coldStarts().filter((start) => start.handler === WEBHOOK_DELIVERY.handler).length,
    problems: () => [...denied.map((d) => `refused by its role: ${d}`), ...failures, ...jobErrors],
    async close() {
      await background.stop();
      await gateway.close();
      await host.close();
      await checker.close();
    },
  };
}

type Stack = Awaited<ReturnType<typeof startStack>>;
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A call through the local gateway; a status other than `expected` fails the bench (its setup or writes are wrong). */
async function call(base: string, method: string, path: string, body?: unknown, expected = [200, 201, 204]) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${WRITE_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!expected.includes(response.status))
    throw new Error(`webhooks: ${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, answeredAt: Date.now() };
}

/** The write a change of the run is matched to: a move by the user it added, a PATCH by its user. */
function writeKeys(entry: AuditEntryLike): string[] {
  if (entry.operation === 'E2') return ((entry.changes.added_user_ids as string[] | undefined) ?? []).map((user) => `move:${user}`);
  if (entry.operation === 'updateUser') return [`patch:${entry.resource_id}`];
  return [];
}

interface RunSpec {
  run: string;
  changes: number;
  writers: number;
  failFirst: boolean;
}

async function measureRun(stack: Stack, receiver: Receiver, spec: RunSpec, settleMs: number) {
  const { url } = stack;
  const prefix = `wh-${spec.failFirst ? 'retry' : 'steady'}-`;
  const users = Array.from({ length: Math.ceil(spec.changes / 2) }, (_, i) => `${prefix}u${i}`);
  const [from, to] = [`${prefix}from`, `${prefix}to`];
  await call(url, 'POST', '/v2/departments', { id: from, name: `Webhook bench ${from}` });
  await call(url, 'POST', '/v2/departments', { id: to, name: `Webhook bench ${to}` });
  await pool(users, 8, async (id) => {
    await call(url, 'POST', '/v2/users', { id, email: `${id}@example.com`, first_name: 'Bench', last_name: 'Start' });
  });
  await call(url, 'POST', `/v2/departments/${from}/users`, { user_ids: users });
  // The setup's changes pass the feed before the webhook exists, so the run's deliveries are its writes' alone.
  await sleep(settleMs + 2000);
  const path = `/${spec.failFirst ? 'retry' : 'steady'}`;
  const hook = await call(url, 'POST', '/v2/webhooks', { url: `${receiver.base}${path}`, description: `bench ${spec.run}` });
  const arrivals = receiver.listen(path, String(hook.body.secret), { failFirst: spec.failFirst });
  const webhookId = String(hook.body.id);
  const since = new Date().toISOString();

  // Moves and PATCHes interleaved; a user's PATCH comes half the run after its move, so no two writes race on one user.
  const half = users.length;
  const writes = Array.from({ length: spec.changes }, (_, i) => {
    const user = users[(Math.floor(i / 2) + (i % 2) * Math.floor(half / 2)) % half];
    return i % 2 === 0 ? { key: `move:${user}`, user, move: true } : { key: `patch:${user}`, user, move: false };
  });
  const answered = new Map<string, number>();
  const writesStarted = performance.now();
  progress(`webhooks ${spec.run}: ${writes.length} changes from ${spec.writers} writers`);
  await pool(writes, spec.writers, async (write) => {
    const { answeredAt } = write.move
      ? await call(url, 'POST', `/v2/departments/${to}/users/${write.user}`)
      : await call(url, 'PATCH', `/v2/users/${write.user}`, { last_name: `Patched ${write.user}` });
    answered.set(write.key, answeredAt);
  });
  const writeSeconds = (performance.now() - writesStarted) / 1000;
  const lastAnswer = Math.max(...answered.values());

  // Until every change has had a 2xx answer (or the wait is over), then a grace for late duplicates.
  const deliveredWrites = () =>
    new Set(
      arrivals()
        .filter((a) => a.status < 300 && a.entry)
        .flatMap((a) => writeKeys(a.entry!).filter((key) => answered.has(key))),
    );
  while (Date.now() < lastAnswer + WAIT_AFTER_WRITES_MS && deliveredWrites().size < spec.changes) await sleep(200);
  await sleep(GRACE_MS);

  // The run's changes as the feed holds them: each one's id (its webhook-id) and `at`.
  const changes = new Map<string, AuditEntryLike>();
  for (let cursor: string | undefined; ;) {
    const query = cursor ? `cursor=${encodeURIComponent(cursor)}` : `since=${encodeURIComponent(since)}`;
    const page = await call(url, 'GET', `/v2/changes?count=1000&${query}`);
    const entries = page.body.changes as AuditEntryLike[];
    for (const entry of entries) for (const key of writeKeys(entry)) if (answered.has(key)) changes.set(key, entry);
    cursor = String(page.body.next_cursor);
    if (entries.length === 0 || changes.size === answered.size) break;
  }
  // The delivery log: when each attempt started.
  const attemptsAt = new Map<string, number>();
  for (let cursor: string | undefined; ;) {
    const page = await call(
      url,
      'GET',
      `/v2/webhooks/${webhookId}/deliveries?count=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    const deliveries = page.body.deliveries as Array<{ change_id: string; attempt: number; at: string }>;
    for (const d of deliveries) {
      const key = `${d.change_id}#${d.attempt}`;
      attemptsAt.set(key, Math.min(attemptsAt.get(key) ?? Infinity, Date.parse(d.at)));
    }
    if (deliveries.length === 0 || !page.body.next_cursor) break;
    cursor = String(page.body.next_cursor);
  }
  await call(url, 'DELETE', `/v2/webhooks/${webhookId}`);
  const observed = { answered, changes, arrivals: arrivals(), attemptsAt, received: stack.received, writeSeconds, settleMs };
  return judge(spec, { ...observed, localPollMs: stack.localPollMs });
}

interface Observed {
  answered: Map<string, number>;
  changes: Map<string, AuditEntryLike>;
  arrivals: Arrival[];
  attemptsAt: Map<string, number>;
  received: Received[];
  writeSeconds: number;
  settleMs: number;
  localPollMs: number;
}

function judge(spec: RunSpec, o: Observed): { row: WebhookRow; segments: WebhookSegment[] } {
  const ids = new Map([...o.changes].map(([key, entry]) => [entry.id, key]));
  const byId = new Map<string, Arrival[]>();
  for (const arrival of o.arrivals) if (ids.has(arrival.id)) byId.set(arrival.id, [...(byId.get(arrival.id) ?? []), arrival]);
  const firstReceived = (id: string, attempt: number) =>
    o.received.filter((r) => r.changeId === id && r.attempt === attempt).sort((a, b) => a.receivedAt - b.receivedAt)[0];
  const queuedTwice = [...ids.keys()].filter((id) => o.received.filter((r) => r.changeId === id && r.kind === 'change').length > 1);
  // Per change: its answer, its successful arrival, and the path there.
  const attemptsPerChange = spec.failFirst ? 2 : 1;
  const latencies: number[] = [];
  const firstAttempts: number[] = [];
  const gaps: number[] = [];
  const parts = { settle: [] as number[], poll: [] as number[], queue: [] as number[], fanout: [] as number[], attempt: [] as number[] };
  const retryParts = { failure: [] as number[], delay: [] as number[], fanout: [] as number[], attempt: [] as number[] };
  let delivered = 0;
  let exactly = 0;
  let duplicates = 0;
  let unverified = 0;
  for (const [key, answeredAt] of o.answered) {
    const entry = o.changes.get(key);
    const arrivals = entry ? (byId.get(entry.id) ?? []) : [];
    unverified += arrivals.filter((a) => !a.verified).length;
    const succeeded = arrivals.filter((a) => a.verified && a.status < 300);
    if (!entry || succeeded.length === 0) continue;
    delivered++;
    duplicates += Math.max(0, arrivals.length - attemptsPerChange);
    const wanted = spec.failFirst ? arrivals.length === 2 && arrivals[0].status === 500 && arrivals[0].verified : arrivals.length === 1;
    if (wanted && succeeded.length === 1) exactly++;
    // A retry is told from a duplicate first attempt (same webhook-id) by the time the log gives its start.
    const retryAt = o.attemptsAt.get(`${entry.id}#2`);
    const arrival = spec.failFirst ? succeeded.find((a) => retryAt !== undefined && a.arrivedAt >= retryAt) : succeeded[0];
    if (arrival) latencies.push(arrival.arrivedAt - answeredAt);
    const settledAt = Date.parse(entry.at) + o.settleMs;
    const first = arrivals[0];
    const queued = firstReceived(entry.id, 1);
    const attemptAt = o.attemptsAt.get(`${entry.id}#1`);
    firstAttempts.push(first.arrivedAt - answeredAt);
    if (queued && attemptAt !== undefined) {
      parts.settle.push(settledAt - answeredAt);
      parts.poll.push(queued.sentAt - settledAt);
      parts.queue.push(queued.receivedAt - queued.sentAt);
      parts.fanout.push(attemptAt - queued.receivedAt);
      parts.attempt.push(first.arrivedAt - attemptAt);
    }
    if (spec.failFirst && arrival && retryAt !== undefined) {
      gaps.push(arrival.arrivedAt - first.arrivedAt);
      const retry = firstReceived(entry.id, 2);
      if (retry) {
        retryParts.failure.push(retry.sentAt - first.arrivedAt);
        retryParts.delay.push(retry.receivedAt - retry.sentAt);
        retryParts.fanout.push(retryAt - retry.receivedAt);
        retryParts.attempt.push(arrival.arrivedAt - retryAt);
      }
    }
  }
  const missing = spec.changes - delivered;
  const stat = (values: number[], p: number) => (values.length ? Math.round(percentile(values, p)) : null);
  const p99 = stat(latencies, 99);
  const gapP99 = stat(gaps, 99);
  const boundMs = WEBHOOK_GOALS.deliveredMs + (spec.failFirst ? WEBHOOK_GOALS.retryMs : 0);
  const everyOne = missing === 0 && unverified === 0;
  const row: WebhookRow = {
    ...{ run: spec.run, changes: spec.changes, writers: spec.writers, writes_per_second: round(spec.changes / o.writeSeconds, 1) },
    ...{ delivered, exactly, duplicates, missing, unverified, queued_twice: queuedTwice.length },
    ...{ p50_ms: stat(latencies, 50), p99_ms: p99, max_ms: latencies.length ? Math.max(...latencies) : null },
    first_attempt_p50_ms: stat(firstAttempts, 50),
    ...{ retry_gap_p50_ms: stat(gaps, 50), retry_gap_p99_ms: gapP99 },
    goal: spec.failFirst
      ? `all, verified, at attempt 2; retry gap p99 ≤ ${WEBHOOK_GOALS.retryMs / 1000} s; p99 ≤ ${boundMs / 1000} s`
      : `all, verified; p99 ≤ ${boundMs / 1000} s`,
    meets_goal:
      everyOne &&
      p99 !== null &&
      p99 <= boundMs &&
      (!spec.failFirst || (gapP99 !== null && gapP99 <= WEBHOOK_GOALS.retryMs && gaps.length === spec.changes)),
  };
  const segment = (segmentName: string, values: number[], what: string): WebhookSegment => ({
    ...{ run: spec.run, segment: segmentName, p50_ms: Math.round(median(values)), p99_ms: Math.round(percentile(values, 99)) },
    ...{ max_ms: Math.max(...values), what },
  });
  const segments: WebhookSegment[] = [];
  if (parts.settle.length > 0)
    segments.push(
      segment('1 at', parts.settle, "the entry's at against its answer (the request's own tail: the feed waits for no settling)"),
      segment(
        '2 feed and poll',
        parts.poll,
        `the entry appended to the feed, then pollLocally, every ${o.localPollMs} ms: its wait and its feed read, until SQS has the change`,
      ),
      segment('3 queue', parts.queue, "the mapping's receive (200 ms after an empty one, ~40 ms each) until it invokes the function"),
      segment('4 fan-out', parts.fanout, "a free sandbox, the webhooks' and health reads, the batch's earlier messages"),
      segment('5 attempt', parts.attempt, 'the address check, signing, the POST until the receiver has the body'),
    );
  if (retryParts.delay.length > 0)
    segments.push(
      segment('6 failure → retry queued', retryParts.failure, 'the 500 read, the failure noted, the retry sent with its delay'),
      segment('7 retry delay', retryParts.delay, "SQS's DelaySeconds (5 s, whole seconds) and the mapping's receive"),
      segment('8 retry fan-out', retryParts.fanout, 'a free sandbox, the webhook and health reads'),
      segment('9 retry attempt', retryParts.attempt, 'the second POST until the receiver has the body'),
    );
  return { row, segments };
}

export async function measureWebhooks(
  env: Record<string, string>,
  sizes: WebhookSizes,
): Promise<{ rows: WebhookRow[]; segments: WebhookSegment[] }> {
  // The feed gives an entry once it is appended, not some time after its `at` (lib/changes/feed.ts).
  const FEED_SETTLE_MS = 0;
  return inTableOfItsOwn(env, `${env.TABLE_NAME}-webhooks`, async (table) => {
    const stack = await startStack(env, table);
    const receiver = await startReceiver();
    try {
      const rows: WebhookRow[] = [];
      const segments: WebhookSegment[] = [];
      for (const spec of [
        { run: 'every attempt answered 204', changes: sizes.changes, writers: sizes.writers, failFirst: false },
        { run: 'first attempt answered 500', changes: sizes.retryChanges, writers: sizes.writers, failFirst: true },
      ]) {
        const result = await measureRun(stack, receiver, spec, FEED_SETTLE_MS);
        rows.push(result.row);
        segments.push(...result.segments);
        const { row } = result;
        progress(
          `webhooks ${spec.run}: ${row.delivered}/${row.changes} delivered (${row.exactly} exactly as expected, ${row.duplicates} ` +
            `duplicates, ${row.unverified} unverified); p50 ${row.p50_ms} ms, p99 ${row.p99_ms} ms, max ${row.max_ms} ms`,
        );
      }
      const problems = stack.problems();
      const note = [
        `${stack.deliverySandboxes()} delivery-function sandboxes`,
        problems.length > 0 && `${problems.length} function errors: ${problems.slice(0, 3).join(' | ')}`,
      ]
        .filter((part): part is string => typeof part === 'string')
        .join('; ');
      for (const row of rows) row.note = note;
      return { rows, segments };
    } finally {
      await receiver.close();
      await stack.close();
    }
  });
}
