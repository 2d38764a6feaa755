/**
 * SCIM tokens' lifecycle through HTTP: an expiry given at creation, enforced
 * by the authorizer and again by every SCIM route (on AWS the authorizer's
 * answer is cached for minutes); the last use recorded on a best-effort
 * basis; the token's id in the access log. Through a gateway of this file's
 * own, so that its access log and DynamoDB calls can be watched.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Context } from 'aws-lambda';
import type { Gateway } from '../../infra/local/gateway';
import { db } from '../../lib/db/client';
import type { HttpEvent } from '../../lib/http/response';
import { handler as listUsers } from '../../functions/scimListUsers';
import { handler as serviceProviderConfig } from '../../functions/scimServiceProviderConfig';
import { Api, READ_TOKEN, startTestGateway, WRITE_TOKEN } from '../support/api';
import { expectScimError } from '../support/scim';

let gateway: Gateway;
const api = new Api('');
const accessLog: string[] = [];
beforeAll(async () => {
  gateway = await startTestGateway({
    tokens: { write: WRITE_TOKEN, read: READ_TOKEN },
    accessLog: (line) => accessLog.push(line),
    // The SCIM authorizer's write of a token's last use fails through the SDK client (below): it runs in this process.
    inProcess: 'injects faults through the SDK client',
  });
  (api as { baseUrl: string }).baseUrl = gateway.url;
});
afterAll(async () => {
  await gateway?.close();
});

/** When set, the table refuses every UpdateItem (the call that records a token's last use). */
let failUpdates = false;
afterEach(() => {
  failUpdates = false;
});
(db() as unknown as { middlewareStack: { add: (...args: any[]) => void } }).middlewareStack.add(
  (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
    if (failUpdates && /^UpdateItem/.test(context.commandName ?? '')) {
      throw Object.assign(new Error('Internal server error'), { name: 'InternalServerError', $fault: 'server' });
    }
    return next(args);
  },
  { step: 'initialize', name: 'scim-tokens-test-faults' },
);

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function newToken(body: Record<string, unknown>) {
  const response = await api.post('/v2/scim/tokens', body);
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string; token: string; expires_at: string | null; last_used_at: null };
}
const listed = async (id: string) =>
  (await api.get('/v2/scim/tokens', { token: READ_TOKEN })).body.tokens.find((token: { id: string }) => token.id === id);
const useToken = (token: string) => api.get('/scim/v2/Users?count=1', { token });

describe('expiry', () => {
  it('is optional: a token without one shows expires_at null and keeps working', async () => {
    const made = await newToken({ description: 'no expiry' });
    expect(made.expires_at).toBeNull();
    expect((await listed(made.id)).expires_at).toBeNull();
    expect((await useToken(made.token)).status).toBe(200);
  });

  it('refuses an expiry that is not in the future, or not a time', async () => {
    for (const expires_at of [inMs(-1000), '2020-01-01T00:00:00.000Z', 'tomorrow', 42]) {
      const response = await api.post('/v2/scim/tokens', { description: 'bad expiry', expires_at });
      expect(response.status, String(expires_at)).toBe(400);
      expect(response.body.type).toBe('/problems/validation');
      expect(response.body.errors.map((error: { field: string }) => error.field)).toEqual(['expires_at']);
    }
  });

  it('returns it on creation and in the list; the token works until then, and answers a SCIM 401 after', async () => {
    const expiresAt = inMs(1500);
    const made = await newToken({ description: 'short-lived', expires_at: expiresAt });
    expect(made.expires_at).toBe(expiresAt);
    expect(await listed(made.id)).toMatchObject({ id: made.id, expires_at: expiresAt });
    expect((await useToken(made.token)).status).toBe(200);
    await sleep(Date.parse(expiresAt) - Date.now() + 50);
    expectScimError(await useToken(made.token), 401);
    expectScimError(await api.get('/scim/v2/ServiceProviderConfig', { token: made.token }), 401);
    // Still listed, so an administrator sees what expired.
    expect(await listed(made.id)).toMatchObject({ id: made.id, expires_at: expiresAt });
  });

  // On AWS the authorizer's answer is cached (5 minutes): a route must not trust a cached "live" past the expiry.
  it('is checked again by every SCIM route, whatever the authorizer handed on', async () => {
    const eventWith = (expiresAt: string) =>
      ({
        version: '2.0',
        routeKey: 'GET /scim/v2/Users',
        rawPath: '/scim/v2/Users',
        rawQueryString: '',
        headers: { host: 'api.example.com' },
        requestContext: { requestId: 'cached', authorizer: { lambda: { tokenId: 'cached-token', expiresAt } } },
        isBase64Encoded: false,
      }) as unknown as HttpEvent;
    const context = { awsRequestId: 'cached' } as Context;
    type Handler = (event: HttpEvent, context: Context) => Promise<{ statusCode: number; body?: string }>;
    const [list, config] = [listUsers, serviceProviderConfig] as unknown as Handler[];
    for (const handler of [list, config]) {
      const expired = await handler(eventWith(inMs(-1)), context);
      expect(expired.statusCode).toBe(401);
      expect(JSON.parse(expired.body ?? '{}')).toMatchObject({ status: '401' });
    }
    expect((await config(eventWith(inMs(60_000)), context)).statusCode).toBe(200);
    expect((await config(eventWith(''), context)).statusCode).toBe(200);
  });
});

describe('last use', () => {
  it('is best-effort: failing to record it does not fail the request', async () => {
    const made = await newToken({ description: 'touch fails' });
    failUpdates = true;
    const response = await useToken(made.token);
    failUpdates = false;
    expect(response.status, response.text).toBe(200);
    expect((await listed(made.id)).last_used_at).toBeNull();
    expect((await useToken(made.token)).status).toBe(200);
    expect((await listed(made.id)).last_used_at).toEqual(expect.any(String));
  });
});

describe('access log', () => {
  it('names the SCIM token (its id, never its secret) of each SCIM request', async () => {
    const made = await newToken({ description: 'logged' });
    accessLog.length = 0;
    expect((await useToken(made.token)).status).toBe(200);
    expect((await api.get('/v2/scim/tokens', { token: READ_TOKEN })).status).toBe(200);
    const scimLine = accessLog.find((line) => line.startsWith('GET /scim/v2/Users'));
    expect(scimLine).toMatch(new RegExp(` scim_token_id=${made.id}$`));
    expect(accessLog.join('\n')).not.toContain(made.token.split('.')[1]);
    expect(accessLog.find((line) => line.startsWith('GET /v2/scim/tokens'))).not.toContain('scim_token_id');
  });
});
