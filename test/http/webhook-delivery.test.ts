/**
 * Webhook delivery end to end, as `npm start` runs it: a change made through
 * the API reaches a receiver on loopback through the change feed (the
 * delivery function's pollLocally), the local SQS stand-in and the local
 * event source mapping, each function from its bundle under its role. The
 * receiver verifies every delivery with `standardwebhooks`, as one would.
 * Real time, so only the first retry (5 s) is waited for; the schedule's
 * later steps and the 24-hour rules are tested on an injected clock
 * (test/integration/webhook-delivery.test.ts).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { unique } from '../support/fixtures';

const api = useApi();

interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

let receiver: Server;
let base: string;
const deliveries: Delivery[] = [];
/** Paths whose first attempt of each change answers 500. */
const failFirst = new Set<string>();

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      const id = String(request.headers['webhook-id']);
      const seen = deliveries.some((d) => d.path === path && d.headers['webhook-id'] === id);
      const status = failFirst.has(path) && !seen ? 500 : 204;
      deliveries.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), answered: status });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // The local deployment's setting that lets a webhook point at http and loopback (off on AWS).
  await api.redeploy({ adjust: (fn) => ({ ...fn, environment: { ...fn.environment, WEBHOOKS_ALLOW_LOCAL: 'true' } }) });
});

afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
});

async function register(path: string, filters: Record<string, unknown> = {}) {
  const made = await api.post('/v2/webhooks', { url: `${base}${path}`, ...filters });
  expect(made.status, made.text).toBe(201);
  return made.body as { id: string; secret: string };
}

/** Waits until `done` holds of the deliveries to `path`, or fails after `ms`. */
async function until(path: string, done: (to: Delivery[]) => boolean, ms: number): Promise<Delivery[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const to = deliveries.filter((d) => d.path === path);
    if (done(to)) return to;
    if (Date.now() > deadline) throw new Error(`${path}: ${to.length} deliveries after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const verified = (secret: string, delivery: Delivery) =>
  new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>) as {
    type: string;
    data: { id: string; resource_id: string; operation: string };
  };

describe('delivery through the local stack', () => {
  it('gets a change to a receiver that fails its first attempt: signed, the same webhook-id on the retry, 5 s later', async () => {
    const path = `/flaky-${unique('h')}`;
    failFirst.add(path);
    const hook = await register(path, { resource_types: ['department'] });
    const department = unique('whd');
    expect((await api.post('/v2/departments', { id: department, name: `Hooked ${department}` })).status).toBe(201);
    // A user change does not match the filter: it never arrives.
    expect((await api.post('/v2/users', { id: unique('whu'), email: `${unique('whu')}@example.com`, last_name: 'Hook' })).status).toBe(201);

    const [first, retry] = await until(path, (to) => to.some((d) => d.answered === 204), 60_000);
    expect(first.answered).toBe(500);
    expect(retry.answered).toBe(204);
    expect(retry.headers['webhook-id']).toBe(first.headers['webhook-id']);
    for (const delivery of [first, retry]) {
      const event = verified(hook.secret, delivery);
      expect(event).toMatchObject({ type: 'change.recorded', data: { resource_id: department, operation: 'createDepartment' } });
      expect(delivery.headers['webhook-id']).toBe(event.data.id);
    }
    const log = await api.get(`/v2/webhooks/${hook.id}/deliveries`);
    expect(log.body.deliveries.map((d: { attempt: number; status_code: number }) => [d.attempt, d.status_code])).toEqual([
      [2, 204],
      [1, 500],
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(deliveries.filter((d) => d.path === path)).toHaveLength(2);
  }, 120_000);

  it('delivers each of many changes exactly once to a receiver that answers at once', async () => {
    const path = `/once-${unique('h')}`;
    const hook = await register(path, { resource_types: ['department'] });
    const made = [];
    for (let i = 0; i < 6; i++) {
      const department = unique('who');
      expect((await api.post('/v2/departments', { id: department, name: `Once ${department}` })).status).toBe(201);
      made.push(department);
    }
    await until(path, (to) => to.length >= made.length, 60_000);
    // Longer than the local poll and the queue's, so a change fed twice would have arrived twice by now.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const arrived = deliveries.filter((d) => d.path === path).map((d) => verified(hook.secret, d).data.resource_id);
    expect(arrived.sort()).toEqual([...made].sort());
  }, 120_000);

  it('delivers, after a resume, what changed while the webhook was paused, and nothing while paused', async () => {
    const path = `/paused-${unique('h')}`;
    const hook = await register(path, { resource_types: ['department'] });
    expect((await api.patch(`/v2/webhooks/${hook.id}`, { status: 'paused' })).status).toBe(200);
    const department = unique('whp');
    expect((await api.post('/v2/departments', { id: department, name: `Paused ${department}` })).status).toBe(201);
    // Past the feed's settle time and the local poll: on an active webhook it would have arrived by now.
    await new Promise((resolve) => setTimeout(resolve, 8000));
    expect(deliveries.filter((d) => d.path === path)).toEqual([]);

    const resumed = await api.patch(`/v2/webhooks/${hook.id}`, { status: 'active' });
    expect(resumed.status, resumed.text).toBe(200);
    const [delivery] = await until(path, (to) => to.length > 0, 60_000);
    expect(verified(hook.secret, delivery).data).toMatchObject({ resource_id: department, operation: 'createDepartment' });
  }, 120_000);
});
