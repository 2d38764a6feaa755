/**
 * The webhook routes through the local gateway, each function from its
 * bundle: registration (the secret shown once, the URL checked by the SSRF
 * guard, the 25 limit), reads without secrets, PATCH, rotation, deletion,
 * the test ping to a receiver on loopback (verified with `standardwebhooks`
 * as a receiver would), the delivery log by cursor, and the read token's 403.
 * The queue-driven delivery itself: test/integration/webhook-delivery.test.ts.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordHash } from '../../lib/http/idempotency';
import { idempotencyKey } from '../../lib/store/idempotency';
import { READ_TOKEN, useApi } from '../support/api';
import { scanTable } from '../support/invariants';

const api = useApi();

const PUBLIC_URL = 'https://203.0.113.10/directory-changes';

async function newWebhook(body: Record<string, unknown> = {}) {
  const response = await api.post('/v2/webhooks', { url: PUBLIC_URL, ...body });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string; secret: string; [field: string]: unknown };
}

/** The deployment setting of the local stack: `http` and loopback endpoints allowed. */
const allowLocal = (on: boolean) =>
  api.redeploy({
    adjust: (fn) => {
      const { WEBHOOKS_ALLOW_LOCAL: _setting, ...environment } = fn.environment;
      return { ...fn, environment: on ? { ...environment, WEBHOOKS_ALLOW_LOCAL: 'true' } : environment };
    },
  });

describe('registration', () => {
  it('answers 201 with the secret once; reads never show it; the audit entry does not hold it', async () => {
    const made = await newWebhook({
      description: 'HR system',
      resource_types: ['user'],
      operations: ['E2', 'createUser'],
      exclude_actors: ['hr-sync'],
    });
    expect(made).toMatchObject({
      url: PUBLIC_URL,
      description: 'HR system',
      resource_types: ['user'],
      operations: ['E2', 'createUser'],
      exclude_actors: ['hr-sync'],
      status: 'active',
      disabled_at: null,
    });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const got = await api.get(`/v2/webhooks/${made.id}`, { token: READ_TOKEN });
    expect(got.status).toBe(200);
    const { secret: _secret, ...shown } = made;
    expect(got.body).toEqual(shown);
    const listed = await api.get('/v2/webhooks', { token: READ_TOKEN });
    expect(listed.body.webhooks).toContainEqual(shown);
    expect(listed.text).not.toContain(made.secret);

    const audit = await api.get(`/v2/audit?query=resource_id:${made.id}`);
    expect(audit.body.entries).toHaveLength(1);
    expect(audit.body.entries[0]).toMatchObject({ operation: 'createWebhook', resource_type: 'webhook', resource_id: made.id });
    expect(audit.text).not.toContain(made.secret.slice(6));
  });

  it('refuses a URL that is not https, carries credentials, or reaches an internal address: 400 on url', async () => {
    for (const url of [
      'http://203.0.113.10/hook',
      'ftp://203.0.113.10/hook',
      'https://user:secret@203.0.113.10/hook',
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://10.0.0.1/hook',
      'https://172.16.5.4/hook',
      'https://192.168.1.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/hook',
      'https://0.0.0.0/hook',
      'https://[::1]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      'https://[fd00::1]/hook',
      'https://[fe80::1]/hook',
      'not a url',
    ]) {
      const response = await api.post('/v2/webhooks', { url });
      expect(response.status, url).toBe(400);
      expect(
        response.body.errors.map((error: { field: string }) => error.field),
        url,
      ).toEqual(['url']);
    }
  });

  it('refuses unknown filter values and fields: 400', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ resource_types: ['planet'] }, 'resource_types.0'],
      [{ operations: ['launchRocket'] }, 'operations'],
      [{ operations: ['listUsers'] }, 'operations'],
      [{ exclude_actors: [''] }, 'exclude_actors.0'],
      [{ secret: 'whsec_mine' }, ''],
    ];
    for (const [body, field] of cases) {
      const response = await api.post('/v2/webhooks', { url: PUBLIC_URL, ...body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      if (field) expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    }
  });
});

describe('changes', () => {
  it('PATCH changes the URL, description, filters and status, audited without secrets', async () => {
    const made = await newWebhook();
    const changed = await api.patch(`/v2/webhooks/${made.id}`, {
      url: 'https://203.0.113.11/other',
      description: 'Licences',
      resource_types: ['group'],
      operations: ['G4'],
      exclude_actors: ['me'],
      status: 'paused',
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({
      url: 'https://203.0.113.11/other',
      description: 'Licences',
      resource_types: ['group'],
      operations: ['G4'],
      exclude_actors: ['me'],
      status: 'paused',
    });
    expect(changed.body.updated_at > String(made.updated_at)).toBe(true);
    expect((await api.get(`/v2/webhooks/${made.id}`)).body).toEqual(changed.body);
    const unchanged = await api.patch(`/v2/webhooks/${made.id}`, { status: 'paused' });
    expect(unchanged.body).toEqual(changed.body);

    const audit = await api.get(`/v2/audit?query=resource_id:${made.id}`);
    expect(audit.body.entries.map((entry: { operation: string }) => entry.operation)).toEqual(['updateWebhook', 'createWebhook']);
    expect(audit.body.entries[0].changes).toMatchObject({
      status: { from: 'active', to: 'paused' },
      url: { to: 'https://203.0.113.11/other' },
    });

    expect((await api.patch(`/v2/webhooks/${made.id}`, { url: 'https://10.1.2.3/' })).status).toBe(400);
    expect((await api.patch(`/v2/webhooks/${made.id}`, { status: 'disabled' })).status).toBe(400);
  });

  it('rotates the secret: a new one, the old one signing for 24 hours more', async () => {
    const made = await newWebhook();
    const before = Date.now();
    const rotated = await api.post(`/v2/webhooks/${made.id}/secret`);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.id).toBe(made.id);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(made.secret);
    const expires = Date.parse(rotated.body.previous_secret_expires_at);
    expect(expires - before).toBeGreaterThanOrEqual(24 * 3600_000 - 1000);
    expect(expires - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    const audit = await api.get(`/v2/audit?query=resource_id:${made.id}`);
    expect(audit.text).not.toContain(rotated.body.secret.slice(6));
  });

  it('deletes: 204, then 404 everywhere', async () => {
    const made = await newWebhook();
    expect((await api.delete(`/v2/webhooks/${made.id}`)).status).toBe(204);
    expect((await api.delete(`/v2/webhooks/${made.id}`)).status).toBe(404);
  });

  it('answers 404 for an unknown webhook on every route', async () => {
    const id = 'no-such-webhook';
    const responses = await Promise.all([
      api.get(`/v2/webhooks/${id}`),
      api.patch(`/v2/webhooks/${id}`, { description: 'x' }),
      api.delete(`/v2/webhooks/${id}`),
      api.post(`/v2/webhooks/${id}/secret`),
      api.post(`/v2/webhooks/${id}/test`),
      api.get(`/v2/webhooks/${id}/deliveries`),
    ]);
    for (const response of responses) {
      expect(response.status, response.text).toBe(404);
      expect(response.body.type).toBe('/problems/not-found');
    }
  });

  it('releases the Idempotency-Key of a PATCH that fails, so that a retry runs again', async () => {
    const key = `patch-${Date.now()}`;
    const made = await newWebhook();
    expect((await api.delete(`/v2/webhooks/${made.id}`)).status).toBe(204);
    const failed = await api.patch(`/v2/webhooks/${made.id}`, { description: 'again' }, { headers: { 'idempotency-key': key } });
    expect(failed.status, failed.text).toBe(404);
    // The local gateway's write token is the caller `local-admin`.
    const record = idempotencyKey(recordHash('local-admin', key)).pk;
    expect((await scanTable()).filter((item) => item.pk === record)).toEqual([]);
  });

  it('refuses every change with a read-only token: 403', async () => {
    const made = await newWebhook();
    const token = { token: READ_TOKEN };
    const responses = await Promise.all([
      api.post('/v2/webhooks', { url: PUBLIC_URL }, token),
      api.patch(`/v2/webhooks/${made.id}`, { status: 'paused' }, token),
      api.delete(`/v2/webhooks/${made.id}`, undefined, token),
      api.post(`/v2/webhooks/${made.id}/secret`, undefined, token),
      api.post(`/v2/webhooks/${made.id}/test`, undefined, token),
    ]);
    expect(responses.map((response) => response.status)).toEqual([403, 403, 403, 403, 403]);
    expect((await api.get(`/v2/webhooks/${made.id}/deliveries`, token)).status).toBe(200);
  });
});

describe('the test ping', () => {
  let receiver: Server;
  let url: string;
  const received: Array<{ body: string; headers: IncomingHttpHeaders }> = [];
  beforeAll(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
        response.writeHead(request.url === '/moved' ? 302 : 204, request.url === '/moved' ? { location: 'http://10.0.0.1/' } : {}).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    await allowLocal(true);
  });
  afterAll(async () => {
    await allowLocal(false);
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('sends a signed ping now and answers the attempt; the log lists it, newest first, by cursor', async () => {
    // Filtered to what this file never changes: its log then holds the pings alone, not its own PATCH's change too.
    const made = await newWebhook({ url: `${url}/hook`, resource_types: ['report'] });
    const pinged = await api.post(`/v2/webhooks/${made.id}/test`);
    expect(pinged.status, pinged.text).toBe(200);
    expect(pinged.body).toMatchObject({ attempt: 1, status_code: 204, error: null, next_attempt_at: null });
    expect(pinged.body.duration_ms).toBeGreaterThanOrEqual(0);

    const delivery = received.at(-1)!;
    const event = new Webhook(made.secret).verify(delivery.body, delivery.headers as Record<string, string>) as Record<string, unknown>;
    expect(event).toMatchObject({ type: 'ping', data: { webhook_id: made.id } });
    expect(delivery.headers['webhook-id']).toBe(pinged.body.change_id);

    // A redirect is not followed: a failed attempt that says so.
    expect((await api.patch(`/v2/webhooks/${made.id}`, { url: `${url}/moved` })).status).toBe(200);
    const redirected = await api.post(`/v2/webhooks/${made.id}/test`);
    expect(redirected.body).toMatchObject({ status_code: 302, error: expect.stringContaining('redirects are not followed') });
    await api.post(`/v2/webhooks/${made.id}/test`);

    const first = await api.get(`/v2/webhooks/${made.id}/deliveries?count=2`);
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(2);
    expect(first.headers.get('link')).toContain('rel="next"');
    const second = await api.get(`/v2/webhooks/${made.id}/deliveries?count=2&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    const ids = [...first.body.deliveries, ...second.body.deliveries].map((delivery: { id: string }) => delivery.id);
    expect(new Set(ids).size).toBe(3);
    const times = [...first.body.deliveries, ...second.body.deliveries].map((delivery: { at: string }) => delivery.at);
    expect(times).toEqual([...times].sort().reverse());
    expect(second.body.deliveries.at(-1)).toEqual(pinged.body);

    const foreign = await api.get(
      `/v2/webhooks/${(await newWebhook()).id}/deliveries?cursor=${encodeURIComponent(first.body.next_cursor)}`,
    );
    expect(foreign.status).toBe(400);
  });
});

describe('the limit', () => {
  it('takes at most 25 webhooks: one more is 409 with the limit, and a deletion makes room', async () => {
    const existing = (await api.get('/v2/webhooks')).body.webhooks.length;
    const made = await Promise.all(Array.from({ length: 25 - existing }, () => newWebhook()));
    const over = await api.post('/v2/webhooks', { url: PUBLIC_URL });
    expect(over.status, over.text).toBe(409);
    expect(over.body).toMatchObject({ type: '/problems/conflict', limit: 25 });
    expect((await api.get('/v2/webhooks')).body.webhooks).toHaveLength(25);
    expect((await api.delete(`/v2/webhooks/${made[0].id}`)).status).toBe(204);
    await newWebhook();
  });
});
