/**
 * Webhook delivery, write to arrival, under `npm start`'s local path (support/stack.ts), `npm run bench --
 * --only=webhooks`: what a run does, the goals and where the time goes (segments 1–9 below) are described in
 * docs/performance.md "Webhook delivery". A receiver on 127.0.0.1 verifies every delivery with `standardwebhooks`
 * (`new Webhook(secret).verify(body, headers)`), as a subscriber would; the second run's answers 500 to the first
 * attempt of every change, which then arrives at its second attempt (the first retry, lib/webhooks/schedule.ts).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SQSEvent } from 'aws-lambda';
import { Webhook } from 'standardwebhooks';
import { inTableOfItsOwn } from './support/tables';
import { startStack, type Stack } from './support/stack';
import { latencies, percentile, pool, progress, round, sleep } from './support/util';

/** The contract: a change is in the feed within 10 s of its answer and the first attempt follows; a retry within 10 s more. */
export const WEBHOOK_GOALS = { deliveredMs: 10_000, retryMs: 10_000 } as const;

export type WebhookSizes = { changes: number; retryChanges: number; writers: number };

/** How long after the last write a change may still arrive (else it is missing); then how long late duplicates count. */
const [WAIT_AFTER_WRITES_MS, GRACE_MS] = [60_000, 6_000];

type Entry = { id: string; at: string; operation: string; resource_id: string; changes: Record<string, unknown> };
type Delivery = { change_id: string; attempt: number; at: string };
type Arrival = { id: string; arrivedAt: number; status: number; verified: boolean; entry?: Entry };
/** A delivery message the mapping handed the function: what it carried, when SQS got it, when the function did. */
type Received = { kind: string; changeId: string; attempt: number; sentAt: number; receivedAt: number };

/** A receiver on loopback: each path has its webhook's secret; `failFirst` paths answer 500 to each change's first attempt. */
async function startReceiver() {
  const secrets = new Map<string, string>();
  const failFirst = new Set<string>();
  const arrivals = new Map<string, Arrival[]>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const [arrivedAt, path, id] = [Date.now(), request.url ?? '', String(request.headers['webhook-id'])];
      const to = arrivals.get(path) ?? [];
      arrivals.set(path, to);
      let entry: Entry | undefined;
      try {
        const headers = request.headers as IncomingHttpHeaders & Record<string, string>;
        entry = (new Webhook(secrets.get(path) ?? '').verify(Buffer.concat(chunks).toString('utf8'), headers) as { data: Entry }).data;
      } catch {}
      const status = failFirst.has(path) && !to.some((arrival) => arrival.id === id) ? 500 : 204;
      to.push({ id, arrivedAt, status, verified: entry?.id === id, entry });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    listen(path: string, secret: string, fails: boolean) {
      secrets.set(path, secret);
      if (fails) failFirst.add(path);
      arrivals.set(path, []);
      return () => arrivals.get(path)!;
    },
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

/** The write a change of the run is matched to: a move by the user it added, a PATCH by its user. */
const writeKeys = (entry: Entry): string[] =>
  entry.operation === 'E2'
    ? ((entry.changes.added_user_ids as string[] | undefined) ?? []).map((user) => `move:${user}`)
    : entry.operation === 'updateUser'
      ? [`patch:${entry.resource_id}`]
      : [];

type RunSpec = { run: string; changes: number; writers: number; failFirst: boolean };

async function measureRun(stack: Stack, received: Received[], receiver: Awaited<ReturnType<typeof startReceiver>>, spec: RunSpec) {
  const prefix = `wh-${spec.failFirst ? 'retry' : 'steady'}-`;
  const users = Array.from({ length: Math.ceil(spec.changes / 2) }, (_, i) => `${prefix}u${i}`);
  const [from, to] = [`${prefix}from`, `${prefix}to`];
  for (const id of [from, to]) await stack.call('POST', '/v2/departments', { id, name: `Webhook bench ${id}` });
  await pool(users, 8, async (id) => {
    await stack.call('POST', '/v2/users', { id, email: `${id}@example.com`, first_name: 'Bench', last_name: 'Start' });
  });
  await stack.call('POST', `/v2/departments/${from}/users`, { user_ids: users });
  // The setup's changes pass the feed before the webhook exists, so the run's deliveries are its writes' alone.
  await sleep(2000);
  const path = `/${spec.failFirst ? 'retry' : 'steady'}`;
  const hook = (await stack.call('POST', '/v2/webhooks', { url: `${receiver.base}${path}`, description: `bench ${spec.run}` })).body;
  const arrivals = receiver.listen(path, String(hook.secret), spec.failFirst);
  const since = new Date().toISOString();

  // Moves and PATCHes interleaved; a user's PATCH comes half the run after its move, so no two writes race on one user.
  const writes = Array.from({ length: spec.changes }, (_, i) => {
    const user = users[(Math.floor(i / 2) + (i % 2) * Math.floor(users.length / 2)) % users.length];
    return { key: `${i % 2 === 0 ? 'move' : 'patch'}:${user}`, user, move: i % 2 === 0 };
  });
  const answered = new Map<string, number>();
  const writesStarted = performance.now();
  progress(`webhooks ${spec.run}: ${writes.length} changes from ${spec.writers} writers`);
  await pool(writes, spec.writers, async ({ key, user, move }) => {
    const done = move
      ? await stack.call('POST', `/v2/departments/${to}/users/${user}`)
      : await stack.call('PATCH', `/v2/users/${user}`, { last_name: `Patched ${user}` });
    answered.set(key, done.answeredAt);
  });
  const writeSeconds = (performance.now() - writesStarted) / 1000;

  // Until every change has had a 2xx answer (or the wait is over), then a grace for late duplicates.
  const delivered = () =>
    new Set(arrivals().flatMap((a) => (a.status < 300 && a.entry ? writeKeys(a.entry).filter((key) => answered.has(key)) : [])));
  const lastAnswer = Math.max(...answered.values());
  while (Date.now() < lastAnswer + WAIT_AFTER_WRITES_MS && delivered().size < spec.changes) await sleep(200);
  await sleep(GRACE_MS);

  // The run's changes as the feed holds them (each one's id, its webhook-id, and `at`); when each attempt started.
  const changes = new Map<string, Entry>();
  const inRun = (entries: Entry[]) => {
    for (const entry of entries) for (const key of writeKeys(entry)) if (answered.has(key)) changes.set(key, entry);
    return changes.size === answered.size;
  };
  await stack.walk<Entry>('/v2/changes', `since=${encodeURIComponent(since)}`, 'changes', inRun);
  const attemptsAt = new Map<string, number>();
  for (const d of await stack.walk<Delivery>(`/v2/webhooks/${hook.id}/deliveries`, '', 'deliveries')) {
    const key = `${d.change_id}#${d.attempt}`;
    attemptsAt.set(key, Math.min(attemptsAt.get(key) ?? Infinity, Date.parse(d.at)));
  }
  await stack.call('DELETE', `/v2/webhooks/${hook.id}`);
  return judge(spec, { answered, changes, arrivals: arrivals(), attemptsAt, received, writeSeconds });
}

type Observed = {
  answered: Map<string, number>;
  changes: Map<string, Entry>;
  arrivals: Arrival[];
  attemptsAt: Map<string, number>;
  received: Received[];
  writeSeconds: number;
};

function judge(spec: RunSpec, o: Observed) {
  const ids = new Set([...o.changes.values()].map((entry) => entry.id));
  const byId = new Map<string, Arrival[]>();
  for (const arrival of o.arrivals) if (ids.has(arrival.id)) byId.set(arrival.id, [...(byId.get(arrival.id) ?? []), arrival]);
  const firstReceived = (id: string, attempt: number) =>
    o.received.filter((r) => r.changeId === id && r.attempt === attempt).sort((a, b) => a.receivedAt - b.receivedAt)[0];
  const queuedTwice = [...ids].filter((id) => o.received.filter((r) => r.changeId === id && r.kind === 'change').length > 1);
  const [arrivalMs, firstAttempts, gaps] = [[] as number[], [] as number[], [] as number[]];
  // Per change, from its answer: each segment of its path to its first attempt, and for a failed one on to its retry.
  const parts: number[][] = Array.from({ length: 9 }, () => []);
  const counts = { delivered: 0, exactly: 0, duplicates: 0, unverified: 0 };
  for (const [key, answeredAt] of o.answered) {
    const entry = o.changes.get(key);
    const arrivals = entry ? (byId.get(entry.id) ?? []) : [];
    counts.unverified += arrivals.filter((a) => !a.verified).length;
    const succeeded = arrivals.filter((a) => a.verified && a.status < 300);
    if (!entry || succeeded.length === 0) continue;
    counts.delivered++;
    counts.duplicates += Math.max(0, arrivals.length - (spec.failFirst ? 2 : 1));
    const wanted = spec.failFirst ? arrivals.length === 2 && arrivals[0].status === 500 && arrivals[0].verified : arrivals.length === 1;
    if (wanted && succeeded.length === 1) counts.exactly++;
    // A retry is told from a duplicate first attempt (same webhook-id) by the time the log gives its start.
    const retryAt = o.attemptsAt.get(`${entry.id}#2`);
    const arrival = spec.failFirst ? succeeded.find((a) => retryAt !== undefined && a.arrivedAt >= retryAt) : succeeded[0];
    if (arrival) arrivalMs.push(arrival.arrivedAt - answeredAt);
    const [first, queued, attemptAt] = [arrivals[0], firstReceived(entry.id, 1), o.attemptsAt.get(`${entry.id}#1`)];
    firstAttempts.push(first.arrivedAt - answeredAt);
    const at = Date.parse(entry.at);
    if (queued && attemptAt !== undefined) {
      const path = [at - answeredAt, queued.sentAt - at, queued.receivedAt - queued.sentAt, attemptAt - queued.receivedAt];
      [...path, first.arrivedAt - attemptAt].forEach((ms, i) => parts[i].push(ms));
    }
    const retry = firstReceived(entry.id, 2);
    if (spec.failFirst && arrival && retryAt !== undefined) {
      gaps.push(arrival.arrivedAt - first.arrivedAt);
      const path = retry && [retry.sentAt - first.arrivedAt, retry.receivedAt - retry.sentAt, retryAt - retry.receivedAt];
      if (path) [...path, arrival.arrivedAt - retryAt].forEach((ms, i) => parts[5 + i].push(ms));
    }
  }
  const [p99, gapP99] = [percentile(arrivalMs, 99), percentile(gaps, 99)];
  const boundMs = WEBHOOK_GOALS.deliveredMs + (spec.failFirst ? WEBHOOK_GOALS.retryMs : 0);
  const retriedInTime = !spec.failFirst || (gapP99 !== null && gapP99 <= WEBHOOK_GOALS.retryMs && gaps.length === spec.changes);
  const row = {
    ...{ run: spec.run, changes: spec.changes, writers: spec.writers, writes_per_second: round(spec.changes / o.writeSeconds, 1) },
    ...{ ...counts, missing: spec.changes - counts.delivered, queued_twice: queuedTwice.length },
    ...latencies(arrivalMs),
    ...{ first_attempt_p50_ms: percentile(firstAttempts, 50), retry_gap_p50_ms: percentile(gaps, 50), retry_gap_p99_ms: gapP99 },
    goal: spec.failFirst
      ? `all, verified, at attempt 2; retry gap p99 ≤ ${WEBHOOK_GOALS.retryMs / 1000} s; p99 ≤ ${boundMs / 1000} s`
      : `all, verified; p99 ≤ ${boundMs / 1000} s`,
    meets_goal: counts.delivered === spec.changes && counts.unverified === 0 && p99 !== null && p99 <= boundMs && retriedInTime,
    note: undefined as string | undefined,
  };
  // What each segment is: docs/performance.md "Webhook delivery", "Where the time goes".
  const names = 'at,feed and poll,queue,fan-out,attempt,failure → retry queued,retry delay,retry fan-out,retry attempt'.split(',');
  const segments = parts.flatMap((values, i) =>
    values.length ? [{ run: spec.run, segment: `${i + 1} ${names[i]}`, ...latencies(values) }] : [],
  );
  return { row, segments };
}

export async function measureWebhooks(env: Record<string, string>, sizes: WebhookSizes) {
  return inTableOfItsOwn(env, `${env.TABLE_NAME}-webhooks`, async (table) => {
    const { WEBHOOK_DELIVERY } = await import('../lib/background');
    // Each SQS event the mapping hands the delivery function: what it carried, and when.
    const received: Received[] = [];
    const stack = await startStack(env, table, {
      onInvoke(handler, event, options) {
        if (handler !== WEBHOOK_DELIVERY.handler || (options?.method ?? 'handler') !== 'handler') return;
        const receivedAt = Date.now();
        for (const record of (event as SQSEvent).Records) {
          const body = JSON.parse(record.body) as { kind: string; change?: { id: string }; attempt?: number };
          const sentAt = Number(record.attributes.SentTimestamp);
          received.push({ kind: body.kind, changeId: body.change?.id ?? '', attempt: body.attempt ?? 1, sentAt, receivedAt });
        }
      },
    });
    const receiver = await startReceiver();
    try {
      const results = [];
      for (const spec of [
        { run: 'every attempt answered 204', changes: sizes.changes, writers: sizes.writers, failFirst: false },
        { run: 'first attempt answered 500', changes: sizes.retryChanges, writers: sizes.writers, failFirst: true },
      ]) {
        const { row, segments } = await measureRun(stack, received, receiver, spec);
        results.push({ row, segments });
        progress(
          `webhooks ${spec.run}: ${row.delivered}/${row.changes} delivered (${row.exactly} exactly as expected, ${row.duplicates} ` +
            `duplicates, ${row.unverified} unverified); p50 ${row.p50_ms} ms, p99 ${row.p99_ms} ms, max ${row.max_ms} ms`,
        );
      }
      const sandboxes = stack.host.coldStarts().filter((start) => start.handler === WEBHOOK_DELIVERY.handler).length;
      const note = [`${sandboxes} delivery-function sandboxes`, stack.problemNote()].filter(Boolean);
      return { rows: results.map(({ row }) => ({ ...row, note: note.join('; ') })), segments: results.flatMap((r) => r.segments) };
    } finally {
      await receiver.close();
      await stack.close();
    }
  });
}
