/**
 * Idempotency-Key (docs/safety.md): replays, reuse with another request, races of the same key, keys that
 * belong to their caller, answers that hold a secret, and answers too large for one DynamoDB item.
 *
 * A second caller is a second gateway of this file whose handlers see another token subject, as a second
 * client's JWT would show them (the local gateway knows one writer only).
 */
import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../infra/local/gateway';
import { db, tableName } from '../../lib/db/client';
import { recordHash, requestHash } from '../../lib/http/idempotency';
import { idempotencyKey } from '../../lib/store/idempotency';
import { createUser } from '../../lib/users/commands';
import { Api, startTestGateway, useApi, WRITE_TOKEN } from '../support/api';
import { scanTable } from '../support/invariants';
import { createDepartment, unique } from '../support/fixtures';
import { scimClient, USER_SCHEMA } from '../support/scim';

const api = useApi();
const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });
/** The subject of the write token of the local gateway. */
const FIRST_CALLER = 'local-admin';
const SECOND_CALLER = 'second-admin';

/** The same service, called by another caller. */
const other = new Api('');
let otherGateway: Gateway | undefined;
beforeAll(async () => {
  // The same deployed functions as the first gateway's.
  const functions = api.functions!;
  otherGateway = await startGateway({
    tokens: { write: WRITE_TOKEN },
    scimAuthorizer: functions.scimAuthorizer,
    fallbackFunction: functions.fallbackFunction,
    loadHandler: async (route) => {
      const handler = await functions.loadHandler(route);
      return (event, context) => {
        const jwt = event.requestContext.authorizer?.jwt;
        if (jwt) jwt.claims = { ...jwt.claims, sub: SECOND_CALLER };
        return handler(event, context);
      };
    },
  });
  (other as { baseUrl: string }).baseUrl = otherGateway.url;
});
afterAll(async () => {
  await otherGateway?.close();
});

/** The items of one caller's key: its record and the parts of its answer, if any. */
const recordItems = async (caller: string, key: string) =>
  (await scanTable()).filter((item) => item.pk === idempotencyKey(recordHash(caller, key)).pk);

/** An item as text, its binary attributes (gzipped answers) unzipped: what it holds, however it is encoded. */
const readable = (item: Record<string, unknown>) =>
  JSON.stringify(item, (_, value) => {
    if (!(value instanceof Uint8Array)) return value;
    try {
      return gunzipSync(value).toString('utf8');
    } catch {
      return Buffer.from(value).toString('latin1');
    }
  });

describe('Idempotency-Key', () => {
  it('replays the first answer of a repeated create without creating again', async () => {
    const key = unique('key-');
    const body = { name: unique('Dept ') };
    const first = await api.post('/v2/departments', body, withKey(key));
    expect(first.status, first.text).toBe(201);
    const again = await api.post('/v2/departments', body, withKey(key));
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    const departments = (await scanTable()).filter((item) => item.type === 'department' && item.name === body.name);
    expect(departments).toHaveLength(1);
  });

  it('replays a report job instead of starting a second one', async () => {
    const key = unique('key-');
    const reports = async () => (await scanTable()).filter((item) => item.type === 'report').length;
    const before = await reports();
    const first = await api.post('/v2/departments/exports', undefined, withKey(key));
    const again = await api.post('/v2/departments/exports', undefined, withKey(key));
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(await reports()).toBe(before + 1);
  });

  it('answers 422 idempotency-key-reused for the same key with another body or path', async () => {
    const key = unique('key-');
    expect((await api.post('/v2/departments', { name: unique('A ') }, withKey(key))).status).toBe(201);
    const otherBody = await api.post('/v2/departments', { name: unique('B ') }, withKey(key));
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.type).toBe('/problems/idempotency-key-reused');
    const otherRoute = await api.post('/v2/users', { email: `${unique('e')}@example.com`, last_name: 'X' }, withKey(key));
    expect(otherRoute.status).toBe(422);
  });

  it('runs one of many parallel requests with the same key; the others replay it or get 409', async () => {
    const key = unique('key-');
    const body = { name: unique('Race ') };
    const answers = await Promise.all(Array.from({ length: 8 }, () => api.post('/v2/departments', body, withKey(key))));
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.every((s) => s === 201 || s === 409),
      statuses.join(),
    ).toBe(true);
    expect(new Set(answers.filter((a) => a.status === 201).map((a) => a.body.id)).size).toBe(1);
    for (const answer of answers.filter((a) => a.status === 409)) expect(answer.body.type).toBe('/problems/conflict');
    expect((await scanTable()).filter((item) => item.type === 'department' && item.name === body.name)).toHaveLength(1);
  });

  it('stores nothing for a failed request, so a retry runs again', async () => {
    const key = unique('key-');
    const missing = await api.post('/v2/departments/nope/users/nobody', undefined, withKey(key));
    expect(missing.status).toBe(404);
    const again = await api.post('/v2/departments/nope/users/nobody', undefined, withKey(key));
    expect(again.status).toBe(404);
  });

  it('takes over a record left in progress by a request that died, once its time has run out', async () => {
    const key = unique('key-');
    const body = { name: unique('Orphan ') };
    const record = {
      ...idempotencyKey(recordHash(FIRST_CALLER, key)),
      status: 'in_progress',
      payload_hash: requestHash({ method: 'POST', path: '/v2/departments', rawQueryString: '', body: JSON.stringify(body) }),
      expires_at: Math.floor(Date.now() / 1000) + 3600,
    };
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...record, in_progress_until: Date.now() + 60_000 } }));
    expect((await api.post('/v2/departments', body, withKey(key))).status).toBe(409); // still within its time
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...record, in_progress_until: Date.now() - 1 } }));
    expect((await api.post('/v2/departments', body, withKey(key))).status).toBe(201);
  });

  it('rejects a malformed key with 400 and ignores the header on reads', async () => {
    const bad = await api.post('/v2/departments', { name: 'X' }, withKey('has space'));
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('Idempotency-Key');
    expect((await api.post('/v2/departments', { name: 'Y' }, withKey('k'.repeat(256)))).status).toBe(400);
    expect((await api.get('/v2/departments', withKey('any'))).status).toBe(200);
  });
});

describe('Idempotency-Key: keys belong to their caller', () => {
  it("answers another caller's repeat of the same key and request as a new request", async () => {
    const key = unique('key-');
    const first = await api.post('/v2/departments/exports', undefined, withKey(key));
    expect(first.status, first.text).toBe(202);
    const theirs = await other.post('/v2/departments/exports', undefined, withKey(key));
    expect(theirs.status, theirs.text).toBe(202);
    expect(theirs.body.id).not.toBe(first.body.id);
    // Each caller's repeat still replays its own first answer.
    expect((await api.post('/v2/departments/exports', undefined, withKey(key))).body.id).toBe(first.body.id);
    expect((await other.post('/v2/departments/exports', undefined, withKey(key))).body.id).toBe(theirs.body.id);
  });

  it("never hands another caller the SCIM token the key's first caller got", async () => {
    const key = unique('key-');
    const body = { description: unique('IdP ') };
    const first = await api.post('/v2/scim/tokens', body, withKey(key));
    expect(first.status, first.text).toBe(201);
    const theirs = await other.post('/v2/scim/tokens', body, withKey(key));
    expect(theirs.status, theirs.text).toBe(201);
    expect(theirs.body.token).not.toBe(first.body.token);
    expect(theirs.body.id).not.toBe(first.body.id);
  });
});

describe("Idempotency-Key on SCIM's routes: a key is its token's own", () => {
  it('replays a SCIM create for its token, and runs it anew for another token', async () => {
    const userName = `${unique('scim')}@example.com`;
    const body = { schemas: [USER_SCHEMA], userName, name: { familyName: 'Key' }, emails: [{ value: userName, primary: true }] };
    const key = { 'idempotency-key': unique('key-') };
    const idp = scimClient(api);
    const first = await idp.request('POST', '/Users', body, key);
    expect(first.status, first.text).toBe(201);
    const again = await idp.request('POST', '/Users', body, key);
    expect(again.status, again.text).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    // Another token's same key is a new request: this one runs, and finds the userName taken.
    const otherIdp = await scimClient(api).request('POST', '/Users', body, key);
    expect(otherIdp.status, otherIdp.text).toBe(409);
    expect(otherIdp.body.scimType).toBe('uniqueness');
  });
});

describe('Idempotency-Key: answers that hold a secret are never stored', () => {
  it('answers a repeat of createScimToken 409, and keeps the token nowhere in the table', async () => {
    const key = unique('key-');
    const body = { description: unique('IdP ') };
    const first = await api.post('/v2/scim/tokens', body, withKey(key));
    expect(first.status, first.text).toBe(201);
    const secret: string = first.body.token;
    expect(secret.length).toBeGreaterThan(20);

    const again = await api.post('/v2/scim/tokens', body, withKey(key));
    expect(again.status, again.text).toBe(409);
    expect(again.body.type).toBe('/problems/conflict');
    expect(again.body.detail).toMatch(/shown only once/);
    expect(again.text).not.toContain(secret);

    const [record, ...parts] = await recordItems(FIRST_CALLER, key);
    expect(record).toMatchObject({ status: 'secret_shown' });
    expect(record.response).toBeUndefined();
    expect(parts).toEqual([]);
    for (const item of await scanTable()) expect(readable(item)).not.toContain(secret);
    // Another request under the same key is still refused as one.
    expect((await api.post('/v2/scim/tokens', { description: unique('Other ') }, withKey(key))).status).toBe(422);
  });
});

describe('Idempotency-Key: the query is part of the request', () => {
  it('refuses a key of a dry run for the real change (422), which changes nothing', async () => {
    const from = await createDepartment(api);
    const to = await createDepartment(api);
    const user = unique('u');
    expect((await api.post('/v2/users', { id: user, email: `${user}@example.com`, last_name: 'Dry' })).status).toBe(201);
    expect((await api.post(`/v2/departments/${from}/users/${user}`)).status).toBe(200);
    const key = unique('key-');
    const dryRun = await api.post(`/v2/departments/${to}/users/${user}?dry_run=true`, undefined, withKey(key));
    expect(dryRun.status, dryRun.text).toBe(200);
    expect(dryRun.body.department_id).toBe(to);

    const real = await api.post(`/v2/departments/${to}/users/${user}`, undefined, withKey(key));
    expect(real.status, real.text).toBe(422);
    expect(real.body.type).toBe('/problems/idempotency-key-reused');
    expect((await api.get(`/v2/users/${user}`)).body.department_id).toBe(from);
    // The dry run itself still replays.
    expect((await api.post(`/v2/departments/${to}/users/${user}?dry_run=true`, undefined, withKey(key))).status).toBe(200);
  });

  it('refuses the key of a report for another recipient (422) and starts no second report', async () => {
    const key = unique('key-');
    const reports = async () => (await scanTable()).filter((item) => item.type === 'report').length;
    const alice = await api.post('/v2/departments/exports?email=alice@example.com', undefined, withKey(key));
    expect(alice.status, alice.text).toBe(202);
    const before = await reports();
    const bob = await api.post('/v2/departments/exports?email=bob@example.com', undefined, withKey(key));
    expect(bob.status, bob.text).toBe(422);
    expect(bob.body.type).toBe('/problems/idempotency-key-reused');
    expect(await reports()).toBe(before);
  });

  it('counts the `.json` form of a path and an escaped query as the same request', async () => {
    const key = unique('key-');
    const body = { name: unique('Suffix ') };
    const first = await api.post('/v2/departments.json', body, withKey(key));
    expect(first.status, first.text).toBe(201);
    const again = await api.post('/v2/departments', body, withKey(key));
    expect(again.status, again.text).toBe(201);
    expect(again.body).toEqual(first.body);

    const reportKey = unique('key-');
    const report = await api.post('/v2/departments/exports?email=carol%40example.com', undefined, withKey(reportKey));
    expect(report.status, report.text).toBe(202);
    const repeated = await api.post('/v2/departments/exports?email=carol@example.com', undefined, withKey(reportKey));
    expect(repeated.body.id).toBe(report.body.id);
  });
});

describe('Idempotency-Key: large answers', () => {
  const setup = { actor: 'test', operationId: 'setup', requestId: 'test' };
  /** Characters that gzip cannot shrink much, as real names and ids are. */
  const noise = (length: number) => {
    let text = '';
    while (text.length < length) text += Math.random().toString(36).slice(2);
    return text.slice(0, length);
  };

  async function createUsers(count: number, fields: () => Record<string, string>): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 50) {
      const batch = Array.from({ length: Math.min(50, count - i) }, async () => {
        const id = unique('big');
        await createUser(setup, { id, email: `${id}@example.com`, last_name: 'Large', ...fields() });
        return id;
      });
      ids.push(...(await Promise.all(batch)));
    }
    return ids;
  }

  async function expectReplayedGroup(userIds: string[]) {
    const key = unique('key-');
    const body = { id: unique('g'), name: unique('Large '), user_ids: userIds };
    let first = await api.post('/v2/groups', body, withKey(key));
    // On a loaded machine the create may outlast its request and answer 202 (lib/slow-changes.ts): its repeat then
    // answers the final result once it is there.
    for (let tries = 0; first.status === 202 && tries < 120; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      first = await api.post('/v2/groups', body, withKey(key));
    }
    expect(first.status, first.text.slice(0, 500)).toBe(201);
    expect(first.body.users).toHaveLength(userIds.length);
    const again = await api.post('/v2/groups', body, withKey(key));
    expect(again.status, again.text.slice(0, 500)).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    return { answerBytes: first.text.length, items: await recordItems(FIRST_CALLER, key) };
  }

  it('replays G3 of 1,000 users (an answer over 400 KB) instead of answering 500', async () => {
    const userIds = await createUsers(1000, () => ({ first_name: noise(60), last_name: noise(60), external_id: randomUUID() }));
    const { answerBytes, items } = await expectReplayedGroup(userIds);
    expect(answerBytes).toBeGreaterThan(400 * 1024);
    expect(items).toHaveLength(1); // gzipped, it fits the record itself
  }, 120_000);

  it('replays G3 of 1,000 users with the longest fields, its answer split over several items', async () => {
    const userIds = await createUsers(1000, () => ({
      first_name: noise(200),
      last_name: noise(200),
      user_name: noise(255),
      external_id: noise(255),
    }));
    const { answerBytes, items } = await expectReplayedGroup(userIds);
    expect(answerBytes).toBeGreaterThan(1024 * 1024);
    const [record, ...parts] = items;
    expect(record.response_parts).toBeGreaterThanOrEqual(2);
    expect(parts).toHaveLength(record.response_parts);
  }, 180_000);
});

describe('Idempotency-Key: an answer that cannot be kept', () => {
  let failAnswers = false;
  // Its handlers run in this process, where the fault below is injected.
  const inProcess = new Api('');
  let inProcessGateway: Awaited<ReturnType<typeof startTestGateway>> | undefined;
  beforeAll(async () => {
    inProcessGateway = await startTestGateway({ tokens: { write: WRITE_TOKEN }, inProcess: 'injects faults through the SDK client' });
    (inProcess as { baseUrl: string }).baseUrl = inProcessGateway.url;
    // Fails the write that stores an answer, as DynamoDB refusing it would.
    (db() as unknown as { middlewareStack: { add: (...args: unknown[]) => void } }).middlewareStack.add(
      (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) =>
        async (args: { input?: { ExpressionAttributeValues?: object } }) => {
          const storesAnswer =
            context.commandName === 'UpdateItemCommand' && Object.values(args.input?.ExpressionAttributeValues ?? {}).includes('completed');
          if (failAnswers && storesAnswer)
            throw Object.assign(new Error('Item size has exceeded the maximum allowed size'), { name: 'ValidationException' });
          return next(args);
        },
      { step: 'initialize', name: 'idempotency-test-fail-answers' },
    );
  });
  afterEach(() => {
    failAnswers = false;
  });
  afterAll(async () => {
    await inProcessGateway?.close();
  });

  it('still answers the committed change, and its repeat is 409 rather than a second change', async () => {
    const key = unique('key-');
    const body = { name: unique('Unkept ') };
    failAnswers = true;
    const first = await inProcess.post('/v2/departments', body, withKey(key));
    expect(first.status, first.text).toBe(201);
    failAnswers = false;
    const again = await inProcess.post('/v2/departments', body, withKey(key));
    expect(again.status, again.text).toBe(409);
    expect(again.body.detail).toMatch(/could not be kept/);
    expect((await scanTable()).filter((item) => item.type === 'department' && item.name === body.name)).toHaveLength(1);
    const [record] = await recordItems(FIRST_CALLER, key);
    expect(record.status).toBe('answer_lost');
  });
});
