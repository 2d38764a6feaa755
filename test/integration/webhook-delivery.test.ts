/**
 * Webhook delivery against DynamoDB Local, on an injected clock: the delivery
 * core (lib/webhooks/delivery.ts) takes the queue's messages from an
 * in-memory queue that honours their delays, reads a change feed stand-in
 * that keeps the feed's contract (oldest first, since/cursor, only settled
 * changes), and posts to a receiver on loopback that answers 500, times out
 * or drops the connection for its first attempts. Every delivery is verified
 * with `standardwebhooks` as a receiver would, at the time it was signed.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Context, SQSEvent } from 'aws-lambda';
import { handler as deliveryHandler } from '../../functions/webhookDelivery';
import { listAudit } from '../../lib/audit/list';
import { readChanges } from '../../lib/changes/feed';
import { sequencePending } from '../../lib/changes/sequencer';
import { db } from '../../lib/db/client';
import type { AuditEntry } from '../../lib/schemas/responses';
import type { ResourceType } from '../../lib/schemas/enums';
import { findWebhookHealth } from '../../lib/store/webhooks';
import type { Resolver } from '../../lib/webhooks/address-guard';
import { webhookDeliveries } from '../../lib/webhooks/deliveries';
import { handleMessage, type DeliveryDeps } from '../../lib/webhooks/delivery';
import { parseMessage, type WebhookMessage } from '../../lib/webhooks/messages';
import type { ChangeFeed } from '../../lib/webhooks/replay';
import { updateWebhook } from '../../lib/webhooks/update';
import { createWebhook, deleteWebhook, webhook as getWebhook, webhooks } from '../../lib/webhooks/webhooks';
import type { Problem } from '../../lib/problems';

const ctx = { actor: 'admin', operationId: 'createWebhook', requestId: 'test' };
const SECOND = 1000;
const HOUR = 3600 * SECOND;

// --- the clock, the queue, the feed ----------------------------------------------------------------------

let clock = 0;
const now = () => new Date(clock);
const iso = () => now().toISOString();

/** The queue: each message visible from its delay on, taken in that order. */
let queue: Array<{ body: string; visibleAt: number }> = [];
const enqueue: DeliveryDeps['enqueue'] = async (messages) => {
  for (const { body, delaySeconds } of messages) {
    expect(delaySeconds).toBeLessThanOrEqual(900);
    queue.push({ body: JSON.stringify(body), visibleAt: clock + delaySeconds * SECOND });
  }
};

/** The feed's contract: in the order changes reached it, from `since` or after a cursor, every one once. */
let trail: AuditEntry[] = [];
const feed: ChangeFeed = {
  async readChanges(request) {
    const start = request.cursor !== undefined ? Number(request.cursor) : trail.findIndex((change) => change.at >= (request.since ?? ''));
    const from = start < 0 ? trail.length : start;
    const changes = trail.slice(from, from + request.count);
    return { changes, count: changes.length, next_cursor: String(from + changes.length) };
  },
};

let changeCount = 0;
/**
 * A change made now: in the trail (the feed, which appends), and, unless held back, a `change` message on the queue
 * as the bus sends it; `inFeed: false` holds it out of the feed too (a commit still to come: `reachFeed` later).
 */
function makeChange(fields: Partial<AuditEntry> = {}, { sendNow = true, inFeed = true } = {}): AuditEntry {
  const change: AuditEntry = {
    id: `chg${++changeCount}x${Math.random().toString(36).slice(2, 8)}`,
    at: iso(),
    actor: 'alice',
    operation: 'createUser',
    resource_type: 'user',
    resource_id: `u${changeCount}`,
    changes: { created: { id: `u${changeCount}` } },
    ...fields,
  };
  if (inFeed) trail.push(change);
  if (sendNow && inFeed) queue.push({ body: JSON.stringify({ kind: 'change', change }), visibleAt: clock });
  return change;
}

const loopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
const deps = (overrides: Partial<DeliveryDeps> = {}): DeliveryDeps => ({
  now,
  resolver: loopback,
  allowLocal: true,
  timeoutMs: 300,
  enqueue,
  feed,
  ...overrides,
});

/** Handles every message due by `until`, moving the clock to each as it comes due (none later than `until`). */
async function drain(until: number, options: Partial<DeliveryDeps> = {}): Promise<void> {
  for (;;) {
    queue.sort((a, b) => a.visibleAt - b.visibleAt);
    const next = queue[0];
    if (!next || next.visibleAt > until) break;
    queue.shift();
    clock = Math.max(clock, next.visibleAt);
    await handleMessage(parseMessage(next.body), deps(options));
  }
  clock = Math.max(clock, until);
}

// --- the receiver -------------------------------------------------------------------------------------------

type Answer = 'ok' | '500' | 'timeout' | 'drop';
interface Received {
  path: string;
  body: string;
  headers: IncomingHttpHeaders;
}
let receiver: Server;
let base: string;
const received: Received[] = [];
/** How the receiver answers the n-th request (1-based) of a path. */
let answers: (path: string, n: number) => Answer = () => 'ok';
const seen = new Map<string, number>();

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const n = (seen.get(path) ?? 0) + 1;
      seen.set(path, n);
      received.push({ path, body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
      const answer = answers(path, n);
      if (answer === 'ok') response.writeHead(200).end('thanks');
      else if (answer === '500') response.writeHead(500).end('broken');
      else if (answer === 'drop') request.socket.destroy();
      // 'timeout': never answers; the attempt gives up (deps.timeoutMs).
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

afterEach(async () => {
  // Each test's webhooks only: a change fans out to every webhook of the table.
  for (const { id } of await webhooks()) await deleteWebhook(ctx, id);
});

beforeEach(() => {
  clock = Date.parse('2026-11-28T08:00:00.000Z') + Math.floor(Math.random() * 1000) * HOUR;
  queue = [];
  trail = [];
  answers = () => 'ok';
});

let pathCount = 0;
async function newWebhook(body: Record<string, unknown> = {}) {
  const path = `/hook${++pathCount}`;
  const made = await createWebhook(ctx, { url: `${base}${path}`, ...body }, { allowLocal: true, resolver: loopback }, now());
  return { ...made, path };
}

/** What a path received, each verified with the secret at the time it was signed; the events in order. */
function verifiedEvents(path: string, secret: string): Array<{ id: string; event: { type: string; data: AuditEntry } }> {
  return received
    .filter((delivery) => delivery.path === path)
    .map((delivery) => {
      vi.useFakeTimers({ toFake: ['Date'], now: Number(delivery.headers['webhook-timestamp']) * SECOND });
      try {
        const event = new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>) as {
          type: string;
          data: AuditEntry;
        };
        return { id: String(delivery.headers['webhook-id']), event };
      } finally {
        vi.useRealTimers();
      }
    });
}

const allDeliveries = async (id: string) => (await webhookDeliveries(id, { count: 1000 })).deliveries;

// --- the tests ----------------------------------------------------------------------------------------------

describe('at least once', () => {
  it('gets a change through a receiver that answers 500, times out, then drops the connection: same webhook-id, signed, on schedule', async () => {
    const hook = await newWebhook();
    answers = (_path, n) => (['500', 'timeout', 'drop'] as const)[n - 1] ?? 'ok';
    const start = clock;
    const change = makeChange();
    await drain(start + 2 * HOUR);

    const events = verifiedEvents(hook.path, hook.secret);
    expect(events).toHaveLength(4);
    expect(events.map((event) => event.id)).toEqual([change.id, change.id, change.id, change.id]);
    for (const { event } of events) expect(event).toEqual({ type: 'change.recorded', timestamp: change.at, data: change });
    const timestamps = received
      .filter((delivery) => delivery.path === hook.path)
      .map((delivery) => Number(delivery.headers['webhook-timestamp']) * SECOND);
    // At once, 5 s later, 5 min after that, 30 min after that.
    expect(timestamps.map((time) => Math.round((time - start) / SECOND))).toEqual([0, 5, 305, 2105]);

    const log = await allDeliveries(hook.id);
    expect(log.map((attempt) => [attempt.attempt, attempt.status_code, attempt.error === null])).toEqual([
      [4, 200, true],
      [3, null, false],
      [2, null, false],
      [1, 500, false],
    ]);
    expect(log[2].error).toMatch(/no answer within/);
    expect(log[1].error).toMatch(/connection failed/);
    expect(log.every((attempt) => attempt.change_id === change.id)).toBe(true);
    expect(log[3].next_attempt_at).toBe(new Date(start + 5 * SECOND).toISOString());
    expect(log[0].next_attempt_at).toBeNull();
    expect(await findWebhookHealth(hook.id)).toEqual({ failing_since: null, disabled_at: null, replayed_until: null });
    expect(queue).toEqual([]);
  });

  it('delivers every matching change, to each webhook by its filters; exclude_actors keeps a client its own changes', async () => {
    const users = await newWebhook({ resource_types: ['user'] });
    const moves = await newWebhook({ operations: ['E2', 'E4'] });
    const notMine = await newWebhook({ exclude_actors: ['hr-sync'] });
    const kinds: Array<[ResourceType, string, string]> = [
      ['user', 'createUser', 'alice'],
      ['user', 'updateUser', 'hr-sync'],
      ['department', 'E2', 'hr-sync'],
      ['department', 'E4', 'alice'],
      ['group', 'G3', 'bob'],
    ];
    const changes = kinds.map(([resource_type, operation, actor]) => makeChange({ resource_type, operation, actor }));
    answers = (_path, n) => (n % 3 === 1 ? '500' : 'ok');
    await drain(clock + HOUR);

    const got = (hook: { path: string; secret: string }) =>
      [...new Set(verifiedEvents(hook.path, hook.secret).map((event) => event.id))].sort();
    const ids = (indexes: number[]) => indexes.map((i) => changes[i].id).sort();
    expect(got(users)).toEqual(ids([0, 1]));
    expect(got(moves)).toEqual(ids([2, 3]));
    expect(got(notMine)).toEqual(ids([0, 3, 4]));
    // Each change's events are the change itself, whatever attempt carried them.
    for (const { event, id } of verifiedEvents(notMine.path, notMine.secret)) expect(event.data.id).toBe(id);
  });

  it('drops the retries of a deleted webhook', async () => {
    const hook = await newWebhook();
    answers = () => '500';
    makeChange();
    await drain(clock + SECOND);
    expect(queue).toHaveLength(1);
    await deleteWebhook(ctx, hook.id);
    await drain(clock + HOUR);
    expect(received.filter((delivery) => delivery.path === hook.path)).toHaveLength(1);
    expect(queue).toEqual([]);
  });
});

describe('24 hours of failures', () => {
  it('disable the webhook (audited, actor system); nothing more is sent until PATCH status active', async () => {
    const hook = await newWebhook();
    answers = () => '500';
    const start = clock;
    makeChange();
    await drain(start + 23 * HOUR);
    expect((await getWebhook(hook.id)).status).toBe('active');
    expect((await findWebhookHealth(hook.id)).failing_since).toBe(new Date(start).toISOString());
    await drain(start + 30 * HOUR);

    const disabled = await getWebhook(hook.id);
    expect(disabled.status).toBe('disabled');
    expect(Date.parse(disabled.disabled_at!) - start).toBeGreaterThanOrEqual(24 * HOUR);
    const log = await allDeliveries(hook.id);
    expect(log).toHaveLength(8);
    expect(log[0]).toMatchObject({ attempt: 8, next_attempt_at: null });
    const audit = await listAudit({ count: 10, filters: { resource_id: [hook.id] } });
    expect(audit.entries[0]).toMatchObject({
      actor: 'system',
      operation: 'disableWebhook',
      resource_type: 'webhook',
      changes: { status: { from: 'active', to: 'disabled' } },
    });
    expect(JSON.stringify(audit.entries)).not.toContain(hook.secret.slice(6));

    const before = received.length;
    makeChange();
    await drain(clock + HOUR);
    expect(received.length).toBe(before);

    answers = () => 'ok';
    const enabled = await updateWebhook(
      ctx,
      hook.id,
      { status: 'active' },
      { enqueue, now, policy: { allowLocal: true, resolver: loopback } },
    );
    expect(enabled).toMatchObject({ status: 'active', disabled_at: null });
    const after = makeChange();
    await drain(clock + HOUR);
    expect(verifiedEvents(hook.path, hook.secret).at(-1)!.id).toBe(after.id);
  });

  it('are 24 hours of nothing but failures: a success in between starts them again', async () => {
    const hook = await newWebhook();
    const start = clock;
    answers = () => '500';
    makeChange();
    await drain(start + 20 * HOUR);
    answers = () => 'ok';
    makeChange();
    await drain(clock + SECOND);
    expect((await findWebhookHealth(hook.id)).failing_since).toBeNull();
    answers = () => '500';
    await drain(start + 40 * HOUR);
    expect((await getWebhook(hook.id)).status).toBe('active');
  });
});

describe('pause and resume', () => {
  it('delivers, after the resume, what changed while paused; nothing is lost, nothing sent while paused', async () => {
    const hook = await newWebhook();
    const update = (status: 'active' | 'paused') =>
      updateWebhook(ctx, hook.id, { status }, { enqueue, now, policy: { allowLocal: true, resolver: loopback } });
    const before = makeChange();
    await drain(clock + SECOND);
    // Made before the pause, but reaching the queue after it: still delivered (it is not new).
    const late = makeChange({}, { sendNow: false });
    clock += SECOND;
    expect((await update('paused')).status).toBe('paused');
    queue.push({ body: JSON.stringify({ kind: 'change', change: late }), visibleAt: clock });
    clock += SECOND;
    const whilePaused = [makeChange(), makeChange({ resource_type: 'group', operation: 'G3' })];
    await drain(clock + 10 * SECOND);
    expect(verifiedEvents(hook.path, hook.secret).map((event) => event.id)).toEqual([before.id, late.id]);

    clock += 30 * SECOND;
    await update('active');
    expect(queue.map((message) => parseMessage(message.body).kind)).toEqual(['replay']);
    const afterResume = makeChange();
    await drain(clock + 5 * 60 * SECOND);

    const ids = verifiedEvents(hook.path, hook.secret).map((event) => event.id);
    expect(ids.slice(0, 3)).toEqual([before.id, late.id, afterResume.id]);
    expect(ids.slice(3).sort()).toEqual(whilePaused.map((change) => change.id).sort());
    expect(queue).toEqual([]);
  });

  it("hands the window over at the feed's end: a change of the window that reaches the feed after the replay is the fan-out's", async () => {
    const hook = await newWebhook();
    const update = (status: 'active' | 'paused') =>
      updateWebhook(ctx, hook.id, { status }, { enqueue, now, policy: { allowLocal: true, resolver: loopback } });
    await update('paused');
    clock += SECOND;
    const early = makeChange();
    // Stamped in the window, its transaction still in flight when the replay walks the feed.
    const slow = makeChange({}, { inFeed: false });
    clock += SECOND;
    await update('active');
    await drain(clock + 60 * SECOND);
    expect(verifiedEvents(hook.path, hook.secret).map((event) => event.id)).toEqual([early.id]);
    // It commits now: the feed gets it, and the bus's message reaches the fan-out, which the replay has handed over to.
    trail.push(slow);
    queue.push({ body: JSON.stringify({ kind: 'change', change: slow }), visibleAt: clock });
    await drain(clock + 10 * SECOND);
    expect(verifiedEvents(hook.path, hook.secret).map((event) => event.id)).toEqual([early.id, slow.id]);
    expect(queue).toEqual([]);
  });

  it('a replay whose resume did not commit delivers nothing', async () => {
    const hook = await newWebhook();
    await updateWebhook(ctx, hook.id, { status: 'paused' }, { enqueue, now, policy: { allowLocal: true, resolver: loopback } });
    clock += SECOND;
    makeChange();
    const phantom: WebhookMessage = { kind: 'replay', webhook_id: hook.id, since: new Date(clock - HOUR).toISOString(), until: iso() };
    queue.push({ body: JSON.stringify(phantom), visibleAt: clock });
    await drain(clock + 10 * 60 * SECOND);
    expect(received.filter((delivery) => delivery.path === hook.path)).toEqual([]);
    expect(queue).toEqual([]);
  });
});

describe('SSRF', () => {
  const answering =
    (address: string): Resolver =>
    async () => [{ address, family: address.includes(':') ? 6 : 4 }];

  it.each(['10.0.0.1', '169.254.169.254', '::1'])('refuses a host resolving to %s at registration', async (address) => {
    const refused = createWebhook(
      ctx,
      { url: 'https://hooks.example.test/in' },
      { allowLocal: false, resolver: answering(address) },
      now(),
    );
    await expect(refused).rejects.toMatchObject({ slug: 'validation' } satisfies Partial<Problem>);
    await expect(refused).rejects.toMatchObject({ extra: { errors: [{ field: 'url', message: expect.stringContaining(address) }] } });
  });

  it.each(['10.0.0.1', '169.254.169.254', '::1'])('refuses it at delivery when the name resolves to %s by then', async (address) => {
    const hook = await createWebhook(
      ctx,
      { url: 'https://hooks.example.test/in' },
      { allowLocal: false, resolver: answering('93.184.216.34') },
      now(),
    );
    makeChange();
    await drain(clock + SECOND, { allowLocal: false, resolver: answering(address) });
    const [attempt] = await allDeliveries(hook.id);
    expect(attempt).toMatchObject({ attempt: 1, status_code: null, error: expect.stringContaining(`resolves to ${address}`) });
    expect(attempt.next_attempt_at).not.toBeNull();
  });

  it('connects to the address it checked, not to what a second lookup would say', async () => {
    // `rebind.invalid` resolves nowhere but through this resolver: the delivery can only arrive through the pinned address.
    const hook = await createWebhook(
      ctx,
      { url: `http://rebind.invalid:${new URL(base).port}/pinned` },
      { allowLocal: true, resolver: loopback },
      now(),
    );
    makeChange();
    await drain(clock + SECOND);
    expect(received.filter((delivery) => delivery.path === '/pinned')).toHaveLength(1);
    expect((await allDeliveries(hook.id))[0]).toMatchObject({ status_code: 200 });
  });
});

describe('the replay on the change feed itself', () => {
  it('delivers the audit entries of the paused window, as lib/changes/feed.ts returns them', async () => {
    // The feed's entries are stamped by the real clock: this test's clock starts at it.
    clock = Date.now();
    const hook = await newWebhook({ resource_types: ['webhook'] });
    const realFeed: ChangeFeed = { readChanges };
    const policy = { allowLocal: true, resolver: loopback };
    await updateWebhook(ctx, hook.id, { status: 'paused' }, { enqueue, now, policy });
    // Changes made while paused: another webhook registered and deleted (each audited, so in the feed).
    const other = await createWebhook(ctx, { url: `${base}/other` }, policy, now());
    await deleteWebhook(ctx, other.id);
    clock = Date.now();
    await updateWebhook(ctx, hook.id, { status: 'active' }, { enqueue, now, policy });
    // As the StreamRouter would (no background runs here).
    await sequencePending();
    await drain(clock + 60 * SECOND, { feed: realFeed });

    const events = verifiedEvents(hook.path, hook.secret).map(({ event }) => event.data);
    expect(events.filter((entry) => entry.resource_id === other.id).map((entry) => entry.operation)).toEqual([
      'createWebhook',
      'createWebhook',
    ]);
    expect(events.filter((entry) => entry.resource_id === other.id).map((entry) => Object.keys(entry.changes))).toEqual([
      ['created'],
      ['deleted'],
    ]);
  });
});

describe('the delivery function', () => {
  it('reports the messages that failed, alone; drops one that is none of ours', async () => {
    const hook = await newWebhook();
    let failReads = false;
    const middleware = (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
      if (failReads && /^GetItem/.test(context.commandName ?? ''))
        throw Object.assign(new Error('injected'), { name: 'InternalServerError', $fault: 'server' });
      return next(args);
    };
    (db() as unknown as { middlewareStack: { add: (...args: unknown[]) => void } }).middlewareStack.add(middleware, {
      step: 'initialize',
      name: 'webhook-delivery-test-faults',
    });
    const change = makeChange({}, { sendNow: false });
    const attempt = { kind: 'attempt', webhook_id: hook.id, change, attempt: 2, due_at: new Date(Date.now() - 1000).toISOString() };
    const records = [
      { messageId: 'not-ours', body: '{"hello":"world"}' },
      { messageId: 'fails', body: JSON.stringify(attempt) },
    ];
    // The deployment's settings, as the function reads them: this one's receiver is on loopback.
    process.env.WEBHOOKS_ALLOW_LOCAL = 'true';
    failReads = true;
    try {
      const answer = await deliveryHandler({ Records: records } as unknown as SQSEvent, {} as Context);
      expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'fails' }] });
    } finally {
      failReads = false;
    }
    try {
      const answer = await deliveryHandler({ Records: records.slice(1) } as unknown as SQSEvent, {} as Context);
      expect(answer).toEqual({ batchItemFailures: [] });
    } finally {
      delete process.env.WEBHOOKS_ALLOW_LOCAL;
    }
    expect(verifiedEvents(hook.path, hook.secret).map((event) => event.id)).toEqual([change.id]);
  });
});
