/**
 * Hostile input through the local gateway (the contract's conventions: no request
 * ever gets a 5xx for bad input).
 *
 * A fast-check run sends arbitrary requests: route-table paths with mutated
 * segments (`.json`, %-escapes, malformed escapes, prototype names, very long
 * ids), arbitrary methods and query strings, Content-Type / Idempotency-Key /
 * If-Match / Authorization variants, and bodies with deep nesting, huge
 * arrays, prototype keys, NUL bytes, invalid UTF-8, out-of-range numbers and
 * more than 1 MiB. Every answer must be below 500, say nothing about the
 * implementation, be problem+json when it is an error and carry the security
 * headers; the invariant checker must find nothing afterwards.
 *
 * Requests go over node:http rather than test/support/api.ts: they must be
 * able to carry bytes fetch refuses, and most hit paths the OpenAPI document
 * rightly does not describe.
 *
 * A second part counts DynamoDB calls (a middleware on the service's own
 * client) while over-limit requests are sent: every limit a caller controls
 * is enforced before the first database call.
 */
import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../infra/local/gateway';
import { db } from '../../lib/db/client';
import { routes, isScimPath, servedPaths } from '../../lib/routes';
import { READ_TOKEN, startTestGateway, WRITE_TOKEN } from '../support/api';
import { invariantViolations } from '../support/invariants';

/** How long the property runs; the count of cases it reached is printed. */
const FUZZ_TIME_MS = 35_000;
const MIB = 1024 * 1024;

let gateway: Gateway;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}
interface Received {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function send({ method, path, headers, body }: Sent): Promise<Received> {
  return new Promise((resolve, reject) => {
    // node:http frames a GET or DELETE body only when told its length.
    const framed = body === undefined ? headers : { ...headers, 'content-length': String(body.length) };
    const request = httpRequest(`${gateway.url}${path}`, { method, headers: framed, agent, timeout: 30_000 }, (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(parts) }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer to ${method} ${path.slice(0, 200)}`)));
    request.on('error', reject);
    request.end(body);
  });
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');
const write = { authorization: `Bearer ${WRITE_TOKEN}` };

// --- seed data, so that many fuzzed requests reach real items ----------------

const DEPARTMENTS = ['fz-d0', 'fz-d1', 'fz-d2'];
const USERS = Array.from({ length: 8 }, (_, i) => `fz-u${i}`);
const GROUPS = ['fz-g0'];
const KNOWN_IDS = [...DEPARTMENTS, ...USERS, ...GROUPS];

async function seed() {
  const post = async (path: string, body: unknown) => {
    const response = await send({ method: 'POST', path, headers: { ...write, 'content-type': 'application/json' }, body: json(body) });
    expect(response.status, `${path} ${response.body}`).toBeLessThan(300);
  };
  for (const id of DEPARTMENTS) await post('/v2/departments', { id, name: `Fuzz ${id}` });
  for (const [i, id] of USERS.entries()) {
    await post('/v2/users', { id, email: `${id}@example.com`, last_name: `Fuzz${i}`, activated: i % 2 === 0 });
  }
  await post('/v2/departments/fz-d0/users', { user_ids: USERS.slice(0, 4) });
  const quota = await send({
    method: 'PUT',
    path: '/v2/departments/fz-d0/quotas',
    headers: { ...write, 'content-type': 'application/json' },
    body: json({ name: 'users', limit: 5 }),
  });
  expect(quota.status).toBe(200);
  await post('/v2/groups', { id: 'fz-g0', name: 'Fuzz group', user_ids: USERS.slice(2, 6) });
}

// --- the generators -----------------------------------------------------------

/** Percent-encodes anything outside printable ASCII (node:http refuses raw non-Latin-1 paths); lone surrogates too. */
function encodeLoosely(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code > 0x20 && code < 0x7f && char !== '?' && char !== '#') out += char;
    else if (code >= 0xd800 && code <= 0xdfff) out += '%ED%A0%80';
    else out += encodeURIComponent(char);
  }
  return out;
}

/** `arbitrary` with the given probability, else undefined. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, probability: number): fc.Arbitrary<T | undefined> =>
  fc.oneof(
    { weight: Math.round(probability * 100), arbitrary },
    { weight: Math.round((1 - probability) * 100), arbitrary: fc.constant(undefined) },
  );

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

const pathSegment = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...KNOWN_IDS) },
  { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      '.json',
      'fz-u0.json',
      'fz-d0.json.json',
      'fz-d0.JSON',
      '..',
      '.',
      '%00',
      'fz-u0%00',
      '%2F',
      '%2e%2e',
      '%E0%A4%A',
      '%FF',
      '%C3%28',
      '%',
      '%zz',
      'users',
      'exports',
      '%20fz-u0',
      'a%0Ab',
      "x'--",
      '%25',
      '%u0000',
      '%F0%9F%98%80',
      '-1',
      'NaN',
      ...PROTOTYPE_NAMES,
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 65, max: 3000 }).map((n) => 'a'.repeat(n)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }).map(encodeLoosely) },
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ minLength: 1, maxLength: 12 })
      .map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
  },
);

const MUTATIONS = [...Array<string>(21).fill('none'), 'suffix', 'trailing-slash', 'double-slash', 'upper', 'extra', 'drop-last', 'prefix'];

const routePath = fc
  .record({
    route: fc.constantFrom(...routes),
    which: fc.nat(),
    params: fc.array(pathSegment, { minLength: 3, maxLength: 3 }),
    mutation: fc.constantFrom(...MUTATIONS),
    extra: pathSegment,
  })
  .map(({ route, which, params, mutation, extra }) => {
    const paths = servedPaths(route);
    let i = 0;
    let path = paths[which % paths.length].replace(/\{\w+\}/g, () => params[i++]);
    if (mutation === 'suffix') path += '.json';
    else if (mutation === 'trailing-slash') path += '/';
    else if (mutation === 'double-slash') path = path.replace('/', '//');
    else if (mutation === 'upper') path = path.toUpperCase();
    else if (mutation === 'extra') path += `/${extra}`;
    else if (mutation === 'drop-last') path = path.slice(0, path.lastIndexOf('/')) || '/';
    else if (mutation === 'prefix') path = `/v1${path}`;
    return { route, path };
  });

const anyPath = fc.oneof(
  { weight: 9, arbitrary: routePath },
  {
    weight: 1,
    arbitrary: fc
      .oneof(fc.string({ unit: 'binary', maxLength: 60 }), fc.constantFrom('/', '//', '/v2', '/v2/', '/../../etc/passwd', '/%2e%2e/%2e%2e'))
      .map((text) => ({ route: undefined, path: `/${encodeLoosely(text).replace(/^\/+/, '')}` })),
  },
);

/** Methods node's HTTP parser accepts (it answers others itself, before any code of the service). */
const OTHER_METHODS = [
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'HEAD',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'PURGE',
  'REPORT',
  'SEARCH',
  'LOCK',
  'MOVE',
];

const queryKey = fc.oneof(
  fc.constantFrom('count', 'offset', 'sort', 'query', 'dry_run', 'email', 'since', 'before', 'activated', 'count[]', ...PROTOTYPE_NAMES),
  fc.stringMatching(/^[a-z_]{1,12}$/),
);
const queryValue = fc.oneof(
  fc.constantFrom(
    '0',
    '1',
    '-1',
    '1000',
    '1001',
    '1000001',
    '1e3',
    '99999999999',
    '9007199254740993',
    'NaN',
    'Infinity',
    '1.5',
    ' 1',
    '0x10',
    '',
    'true',
    'false',
    'asc',
    'desc',
    'last_name:desc',
    'name:sideways',
    'user_count',
    'account_role:admin',
    'account_role:admin,account_role:guest',
    'last_name:Fuzz',
    'last_login:never',
    'last_login:since:2026-01-01',
    'last_login:before:not-a-date',
    'department_id:fz-d0',
    'name:',
    'no-colon',
    ':',
    ',,,',
    'a@example.com',
    Array.from({ length: 11 }, (_, i) => `r${i}@example.com`).join(','),
    'a@example.com%0D%0ABcc:x@evil.example',
  ),
  fc.integer({ min: -(2 ** 53), max: 2 ** 53 }).map(String),
  fc.double().map(String),
  fc.integer({ min: 100, max: 2500 }).map((n) => 'x'.repeat(n)),
  fc.string({ unit: 'binary', maxLength: 30 }),
);
const queryString = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  {
    weight: 6,
    arbitrary: fc
      .array(fc.tuple(queryKey, queryValue), { minLength: 1, maxLength: 5 })
      .map((pairs) => `?${pairs.map(([key, value]) => `${encodeLoosely(key)}=${encodeLoosely(value).replaceAll('&', '%26')}`).join('&')}`),
  },
  { weight: 1, arbitrary: fc.constantFrom('?', '?%', '?%zz=1', '?&&&', '?=x', '?count', '?count=1&count=2', '?count=%FF', '?sort=%00') },
);

const authorization = fc.oneof(
  { weight: 14, arbitrary: fc.constantFrom(`Bearer ${WRITE_TOKEN}`, `bearer ${WRITE_TOKEN}`) },
  { weight: 3, arbitrary: fc.constant(`Bearer ${READ_TOKEN}`) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(undefined, 'Bearer wrong-token', `Basic ${WRITE_TOKEN}`, 'Bearer', `Bearer ${'a'.repeat(2000)}`),
  },
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  undefined,
  'APPLICATION/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/merge-patch+json',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '',
  'application/json; charset=latin1',
  'application/xml',
  ';;;',
  'application/json, text/plain',
);
const idempotencyKey = sometimes(
  fc.oneof(
    fc.uuid(),
    fc.constantFrom('', ' ', 'a b', 'k'.repeat(256), 'k'.repeat(255), 'fixed-key-1', 'fixed-key-2'),
    fc.stringMatching(/^[\x21-\x7e]{1,40}$/),
  ),
  0.3,
);
const ifMatch = sometimes(fc.constantFrom('*', '"abc"', 'W/"abc"', '"', '', 'x'.repeat(500), '"1", "2"'), 0.2);
const extraHeader = sometimes(
  fc.tuple(
    fc.constantFrom(
      'x-forwarded-for',
      'cookie',
      'accept',
      'x-amzn-trace-id',
      'origin',
      ...PROTOTYPE_NAMES.filter((name) => /^\w+$/.test(name)),
    ),
    fc.stringMatching(/^[\x20-\x7e]{0,60}$/),
  ),
  0.2,
);

const idLike = fc.oneof(fc.constantFrom(...KNOWN_IDS), fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), fc.string({ maxLength: 70 }));
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer({ min: 190, max: 2100 }).map((n) => 'n'.repeat(n)),
);
/** Objects shaped like the service's bodies, valid and not. */
const shapedBody = fc.record(
  {
    id: idLike,
    name: fc.oneof(text, fc.constantFrom('users', 'activated_users', 'admins', 'seats', 'USERS', '')),
    description: text,
    email: fc.oneof(fc.emailAddress(), text),
    first_name: text,
    last_name: text,
    account_role: fc.constantFrom('admin', 'manager', 'member', 'guest', 'root', '', null),
    activated: fc.oneof(fc.boolean(), fc.constantFrom('true', 1, null)),
    last_login: fc.oneof(
      fc.date({ min: new Date(-1e14), max: new Date(1e14), noInvalidDate: true }).map((date) => date.toISOString()),
      fc.constantFrom(null, 'yesterday', '2026-13-01T00:00:00Z', ''),
    ),
    department_id: idLike,
    user_ids: fc.oneof(fc.array(idLike, { maxLength: 30 }), fc.constantFrom([], null, 'fz-u0', [null], [1, 2])),
    group_ids: fc.oneof(fc.array(idLike, { maxLength: 30 }), fc.constantFrom([], null)),
    limit: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(null, -1, 0, 1_000_000_000, 1_000_000_001, 2 ** 53 + 2, '10')),
    extra: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: [] },
);

const RAW_BODIES = [
  '{"__proto__": {"admin": true, "limit": 0}, "name": "Proto"}',
  '{"constructor": {"prototype": {"polluted": true}}, "name": "Ctor"}',
  '{"user_ids": ["fz-u0"], "__proto__": {"user_ids": ["fz-u1"]}}',
  '{"name": "users", "limit": 1e999}',
  '{"name": "users", "limit": -1e999}',
  '{"name": "users", "limit": 9007199254740993}',
  '{"name": "users", "limit": 1.5}',
  '{"name": "users", "limit": -0}',
  '{"name": "users", "limit": 1e9}',
  '{"name": "users", "limit": 100000000000000000000000000000}',
  '{"name": "a\\u0000b", "last_name": "\\u0000", "email": "x\\u0000@example.com"}',
  '{"name": "\\ud800"}',
  '{"user_ids": ["fz-u0\\u0000"]}',
  '{"name": "dup", "name": "dup2"}',
  '{"name": "x"} trailing',
  '{"name": ',
  '[]',
  'null',
  '0',
  '"string"',
  '\ufeff{"name": "bom"}',
];

const body = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map(json) },
  { weight: 6, arbitrary: shapedBody.map(json) },
  { weight: 2, arbitrary: fc.constantFrom(...RAW_BODIES).map((raw) => Buffer.from(raw, 'utf8')) },
  { weight: 1, arbitrary: fc.integer({ min: 20, max: 20_000 }).map((n) => Buffer.from('['.repeat(n) + ']'.repeat(n))) },
  { weight: 1, arbitrary: fc.integer({ min: 20, max: 5_000 }).map((n) => Buffer.from(`${'{"a":'.repeat(n)}1${'}'.repeat(n)}`)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('user_ids', 'group_ids'), fc.constantFrom(101, 1001, 20_001, 300_000))
      .map(([key, n]) => json({ [key]: Array.from({ length: n }, (_, i) => `u${i}`) })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.uint8Array({ maxLength: 40 }), fc.constantFrom([0x00], [0xff], [0xc3, 0x28], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf5]))
      .map(([noise, bad]) => Buffer.concat([Buffer.from('{"name": "'), Buffer.from(noise), Buffer.from(bad), Buffer.from('"}')])),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: MIB - 64, max: MIB + 64 * 1024 }).map((n) => json({ name: 'x'.repeat(n) })),
  },
);

const hostileRequest = fc
  .record({
    target: anyPath,
    otherMethod: sometimes(fc.constantFrom(...OTHER_METHODS), 0.15),
    query: queryString,
    authorization,
    contentType,
    idempotencyKey,
    ifMatch,
    extraHeader,
    body,
  })
  .map(
    ({
      target,
      otherMethod,
      query,
      authorization,
      contentType,
      idempotencyKey,
      ifMatch,
      extraHeader,
      body,
    }): Sent & { route?: (typeof routes)[number] } => {
      const headers: Record<string, string> = {};
      if (authorization !== undefined) headers.authorization = authorization;
      if (contentType !== undefined) headers['content-type'] = contentType;
      if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
      if (ifMatch !== undefined) headers['if-match'] = ifMatch;
      if (extraHeader) headers[extraHeader[0]] = extraHeader[1];
      const method = otherMethod ?? target.route?.method ?? 'GET';
      return { method, path: `${target.path}${query}`, headers, body, route: target.route };
    },
  );

// --- the checks -------------------------------------------------------------

/** What a body must never reveal: stack frames, module paths, SDK and error class names. */
const LEAKS = [
  'at /',
  'at file:',
  'node_modules',
  `${process.cwd()}/`, // the checkout's own path
  'file://',
  '.ts:',
  'Error:',
  'TypeError',
  'RangeError',
  'ReferenceError',
  'SyntaxError',
  'DynamoDB',
  'dynamodb',
  'ValidationException',
  'ConditionalCheck',
  'TransactionCanceled',
  'Throttling',
  'ProvisionedThroughput',
  'aws-sdk',
  'middy',
];
/** Static public documents: they describe the API on purpose and may be cached. */
const PUBLIC_DOCUMENTS = new Set(routes.filter((route) => route.access === 'public' && route.name !== 'health').map((route) => route.name));

function checkAnswer(sent: Sent & { route?: (typeof routes)[number] }, received: Received): void {
  const label = `${sent.method} ${sent.path.slice(0, 300)} → ${received.status}: ${received.body.subarray(0, 300).toString('utf8')}`;
  expect(received.status, label).toBeGreaterThanOrEqual(200);
  expect(received.status, label).toBeLessThan(500);
  expect(received.headers['x-content-type-options'], label).toBe('nosniff');

  const publicDocument = received.status === 200 && sent.route && PUBLIC_DOCUMENTS.has(sent.route.name);
  if (publicDocument) return;
  expect(received.headers['cache-control'], label).toBe('no-store');

  const text = received.body.toString('utf8');
  const asked = `${sent.path} ${JSON.stringify(sent.headers)} ${sent.body?.toString('utf8') ?? ''}`;
  for (const leak of LEAKS) {
    // A body may echo what was asked (an unknown id in a 404): only what the caller did not send is a leak.
    if (!asked.includes(leak)) expect(text, `${label} contains ${leak}`).not.toContain(leak);
  }
  // Under SCIM's base path every error is a SCIM error, the fallback's 404 and 405 included.
  const rawPath = sent.path.split('?')[0];
  const underScim = isScimPath(rawPath);
  if (received.status >= 400 && sent.method !== 'HEAD' && underScim) {
    // SCIM routes answer SCIM errors (RFC 7644 §3.12), never problem+json.
    expect(received.headers['content-type'], label).toBe('application/scim+json');
    expect(JSON.parse(text), label).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: String(received.status),
      detail: expect.any(String),
    });
  } else if (received.status >= 400 && sent.method !== 'HEAD') {
    expect(received.headers['content-type'], label).toBe('application/problem+json');
    const problem = JSON.parse(text);
    expect(problem, label).toMatchObject({
      type: expect.stringMatching(/^\/problems\/[a-z-]+$/),
      title: expect.any(String),
      status: received.status,
    });
  }
}

beforeAll(async () => {
  gateway = await startTestGateway({ tokens: { write: WRITE_TOKEN, read: READ_TOKEN } });
  await seed();
});

afterAll(async () => {
  agent.destroy();
  await gateway?.close();
});

describe('hostile input', () => {
  it(
    'never gets a 5xx, an internal name or a non-problem error, and leaves every invariant intact',
    async () => {
      let cases = 0;
      let unrouted = 0;
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(hostileRequest, async (sent) => {
          cases++;
          const received = await send(sent);
          statuses.set(received.status, (statuses.get(received.status) ?? 0) + 1);
          if (received.status === 404 && received.body.includes('No route')) unrouted++;
          checkAnswer(sent, received);
        }),
        { numRuns: 100_000, interruptAfterTimeLimit: FUZZ_TIME_MS, markInterruptAsFailure: false },
      );
      const summary = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
      console.log(
        `hostile input: ${cases} requests in ${FUZZ_TIME_MS / 1000} s (${unrouted} matched no route); statuses ${summary.join(' ')}`,
      );
      expect(cases).toBeGreaterThan(200);
      // The run must reach handlers, not only the gateway's 401/404.
      expect([...statuses].filter(([status]) => status < 300 || status === 400).length).toBeGreaterThan(1);
      expect(await invariantViolations()).toEqual([]);
    },
    FUZZ_TIME_MS + 60_000,
  );
});

// --- limits before the database ----------------------------------------------

describe('limits on what a caller controls', () => {
  /** DynamoDB calls made by the service's client (no background jobs run in this file). */
  let databaseCalls = 0;
  let bundled: Gateway;
  beforeAll(async () => {
    // The counter sits on the SDK client of this process: these requests go to handlers that run here.
    bundled = gateway;
    gateway = await startTestGateway({
      tokens: { write: WRITE_TOKEN, read: READ_TOKEN },
      inProcess: 'counts calls through the SDK client',
    });
    db().middlewareStack.add(
      (next) => async (args) => {
        databaseCalls++;
        return next(args);
      },
      { step: 'initialize', name: 'countDatabaseCalls' },
    );
  });
  afterAll(async () => {
    db().middlewareStack.remove('countDatabaseCalls');
    await gateway.close();
    gateway = bundled;
  });

  const jsonHeaders = { ...write, 'content-type': 'application/json' };
  const nested = (depth: number) => Buffer.from(`{"user_ids": ${'['.repeat(depth)}${']'.repeat(depth)}}`);
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `u${i}`);
  const overLimit: Array<[string, Sent, number]> = [
    [
      'a body over 1 MiB',
      { method: 'POST', path: '/v2/departments/fz-d1/users', headers: jsonHeaders, body: json({ user_ids: ids(1), pad: 'x'.repeat(MIB) }) },
      413,
    ],
    [
      'JSON nested deeper than 32 levels',
      { method: 'POST', path: '/v2/departments/fz-d1/users', headers: jsonHeaders, body: nested(40) },
      400,
    ],
    [
      '1,001 user ids for E3',
      { method: 'POST', path: '/v2/departments/fz-d1/users', headers: jsonHeaders, body: json({ user_ids: ids(1001) }) },
      400,
    ],
    [
      '1,001 user ids for E5',
      { method: 'DELETE', path: '/v2/departments/fz-d1/users', headers: jsonHeaders, body: json({ user_ids: ids(1001) }) },
      400,
    ],
    ['101 group ids for G7', { method: 'DELETE', path: '/v2/groups', headers: jsonHeaders, body: json({ group_ids: ids(101) }) }, 400],
    [
      '20,001 user ids for G3',
      { method: 'POST', path: '/v2/groups', headers: jsonHeaders, body: json({ name: 'Big', user_ids: ids(20_001) }) },
      400,
    ],
    [
      'a 201-character department name',
      { method: 'POST', path: '/v2/departments', headers: jsonHeaders, body: json({ name: 'n'.repeat(201) }) },
      400,
    ],
    [
      'a 2,001-character group description',
      { method: 'POST', path: '/v2/groups', headers: jsonHeaders, body: json({ name: 'G', description: 'd'.repeat(2001) }) },
      400,
    ],
    [
      'a 255-character e-mail',
      { method: 'POST', path: '/v2/users', headers: jsonHeaders, body: json({ email: `${'e'.repeat(243)}@example.com`, last_name: 'L' }) },
      400,
    ],
    [
      'a 201-character last name',
      { method: 'PATCH', path: '/v2/users/fz-u0', headers: jsonHeaders, body: json({ last_name: 'l'.repeat(201) }) },
      400,
    ],
    [
      'a quota limit over 1,000,000,000',
      { method: 'PUT', path: '/v2/departments/fz-d1/quotas', headers: jsonHeaders, body: json({ name: 'users', limit: 1_000_000_001 }) },
      400,
    ],
    ['a 65-character id', { method: 'GET', path: `/v2/users/${'u'.repeat(65)}`, headers: write }, 400],
    ['count=1001', { method: 'GET', path: '/v2/users?count=1001', headers: write }, 400],
    ['count=0', { method: 'GET', path: '/v2/departments/users?count=0', headers: write }, 400],
    ['count=99999999999', { method: 'GET', path: '/v2/groups?count=99999999999', headers: write }, 400],
    ['offset over its limit', { method: 'GET', path: '/v2/audit?offset=1000001', headers: write }, 400],
    ['a 101-character sort', { method: 'GET', path: `/v2/users?sort=${'s'.repeat(101)}`, headers: write }, 400],
    ['a 2,001-character query', { method: 'GET', path: `/v2/users?query=last_name:${'q'.repeat(2001)}`, headers: write }, 400],
    [
      'eleven report recipients',
      {
        method: 'POST',
        path: `/v2/departments/exports?email=${ids(11)
          .map((id) => `${id}@example.com`)
          .join(',')}`,
        headers: write,
      },
      400,
    ],
    [
      'a 256-character Idempotency-Key',
      {
        method: 'POST',
        path: '/v2/departments',
        headers: { ...jsonHeaders, 'idempotency-key': 'k'.repeat(256) },
        body: json({ name: 'Idem' }),
      },
      400,
    ],
    [
      'an over-limit body with a valid Idempotency-Key',
      {
        method: 'POST',
        path: '/v2/departments/fz-d1/users',
        headers: { ...jsonHeaders, 'idempotency-key': 'limits-1' },
        body: json({ user_ids: ids(1001) }),
      },
      400,
    ],
  ];

  it.each(overLimit)('refuses %s without a database call', async (_, sent, status) => {
    const before = databaseCalls;
    const received = await send(sent);
    expect(received.status, received.body.toString('utf8').slice(0, 300)).toBe(status);
    expect(received.headers['content-type']).toBe('application/problem+json');
    expect(databaseCalls - before).toBe(0);
  });

  it('counts database calls (the counter is live)', async () => {
    const before = databaseCalls;
    // 200, or 404 if the fuzz run deleted the user: either way the handler read the table.
    expect([200, 404]).toContain((await send({ method: 'GET', path: '/v2/users/fz-u0', headers: write })).status);
    expect(databaseCalls - before).toBeGreaterThan(0);
  });
});
