/**
 * Name prefixes longer than any name (`query=name:` of departments and
 * groups, `query=last_name:` of the user lists), through the local gateway,
 * in the test's own process: each answers 200 with an empty page and total 0
 * (a prefix no name can start with matches nothing; the `query` parameter's
 * own maximum length is the schema's), never a 5xx, and no promise of the
 * service rejects unhandled (one did: a list started its total, then its
 * page failed first, and the total's rejection ended every process of
 * `npm start`). The longest prefix a name can hold still finds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../lib/db/client';
import { READ_TOKEN, useApi } from '../support/api';

// In this process: the test watches it for unhandled rejections and counts the SDK client's calls in flight.
const api = useApi({ inProcess: { because: 'counts calls through the SDK client' } });

/** 200 characters (the API's longest name), each folding to two code units: 600 bytes, the longest folded name. */
const LONGEST_NAME = 'İ'.repeat(200);

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
let inFlight = 0;

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  db().middlewareStack.add(
    (next) => async (args) => {
      inFlight++;
      try {
        return await next(args);
      } finally {
        inFlight--;
      }
    },
    { step: 'initialize', name: 'countInFlightCalls' },
  );
  expect((await api.post('/v2/departments', { id: 'long', name: LONGEST_NAME })).status).toBe(201);
  expect((await api.post('/v2/departments', { id: 'short', name: 'İx' })).status).toBe(201);
  expect((await api.post('/v2/groups', { id: 'long', name: LONGEST_NAME })).status).toBe(201);
  const user = await api.post('/v2/users', { id: 'long', email: 'long@example.com', last_name: LONGEST_NAME });
  expect(user.status).toBe(201);
  expect((await api.post('/v2/departments/long/users/long')).status).toBe(200);
});

afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  db().middlewareStack.remove('countInFlightCalls');
});

/** Once every DynamoDB call the request started has ended, and a rejection left unhandled has been reported. */
async function settled(): Promise<void> {
  while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  await new Promise((resolve) => setTimeout(resolve, 50));
}

const get = async (path: string) => {
  const response = await api.get(path, { token: READ_TOKEN });
  await settled();
  return response;
};

const q = (attribute: string, value: string) => `query=${attribute}:${encodeURIComponent(value)}`;
const named = ['departments', 'groups'] as const;
const namedSorts = ['name', 'created_at', 'user_count', 'name:desc'];
const userLists = ['/v2/users', '/v2/departments/users', '/v2/departments/long/users'];
const userSorts = ['last_name', 'last_login', 'account_role', 'last_name:desc'];

describe('a prefix longer than any name', () => {
  // What a review sent (1,990 and 1,985 characters: the query parameter allows 2,000), and the bound of
  // lib/lists/prefixes.ts from both sides: a prefix whose key range just fits a sort key is asked of DynamoDB,
  // a byte more is not asked.
  const overlong: Record<string, string> = {
    '1,990 characters': 'a'.repeat(1990),
    '1,020 bytes': 'a'.repeat(1020),
    '1,021 bytes': 'a'.repeat(1021),
    '340 three-byte characters': '一'.repeat(340),
    '341 three-byte characters': '一'.repeat(341),
    'the longest name and one more letter': `${LONGEST_NAME}x`,
  };
  const cases = Object.keys(overlong);

  it.each(named.flatMap((kind) => namedSorts.flatMap((sort) => cases.map((label) => [kind, sort, label] as const))))(
    '/v2/%s sorted by %s, a prefix of %s: an empty page, no rejection left unhandled',
    async (kind, sort, label) => {
      const prefix = overlong[label];
      const response = await get(`/v2/${kind}?sort=${sort}&${q('name', prefix)}`);
      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject({ [kind]: [], total: 0, count: 0, next_cursor: null });
      expect(unhandled).toEqual([]);
    },
  );

  it.each(userLists.flatMap((path) => userSorts.flatMap((sort) => cases.map((label) => [path, sort, label] as const))))(
    '%s sorted by %s, a last_name prefix of %s: an empty page, no rejection left unhandled',
    async (path, sort, label) => {
      const prefix = overlong[label].slice(0, 1985);
      const response = await get(`${path}?sort=${sort}&${q('last_name', prefix)}`);
      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject({ users: [], total: 0, count: 0, next_cursor: null });
      expect(unhandled).toEqual([]);
    },
  );

  it('beside a prefix that matches, is ignored', async () => {
    const both = `${q('name', 'i')},${q('name', 'a'.repeat(1500)).slice('query='.length)}`;
    const response = await get(`/v2/departments?${both}`);
    expect(response.status, response.text).toBe(200);
    expect(response.body.departments.map((d: { id: string }) => d.id)).toEqual(['long', 'short']);
    expect(response.body.total).toBe(2);
  });

  it('still finds no department it is not given (404)', async () => {
    const response = await get(`/v2/departments/nowhere/users?${q('last_name', 'a'.repeat(1985))}`);
    expect(response.status, response.text).toBe(404);
  });

  it('still refuses a cursor of another list (400)', async () => {
    const first = await get(`/v2/departments?count=1`);
    const response = await get(`/v2/departments?cursor=${encodeURIComponent(first.body.next_cursor)}&${q('name', 'a'.repeat(1500))}`);
    expect(response.status, response.text).toBe(400);
  });
});

describe('the longest prefix a name can have', () => {
  it.each(named.flatMap((kind) => namedSorts.map((sort) => [kind, sort] as const)))(
    'finds it in /v2/%s sorted by %s',
    async (kind, sort) => {
      const response = await get(`/v2/${kind}?sort=${sort}&${q('name', LONGEST_NAME)}`);
      expect(response.status, response.text).toBe(200);
      expect(response.body[kind].map((item: { id: string }) => item.id)).toEqual(['long']);
      expect(response.body.total).toBe(1);
    },
  );

  it.each(userLists.flatMap((path) => userSorts.map((sort) => [path, sort] as const)))(
    'finds it in %s sorted by %s',
    async (path, sort) => {
      const response = await get(`${path}?sort=${sort}&${q('last_name', LONGEST_NAME)}`);
      expect(response.status, response.text).toBe(200);
      expect(response.body.users.map((user: { id: string }) => user.id)).toEqual(['long']);
      expect(response.body.total).toBe(1);
      expect(unhandled).toEqual([]);
    },
  );
});
