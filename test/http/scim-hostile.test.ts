/**
 * Hostile input to the SCIM routes, sent with a valid SCIM token (the admin
 * API's fuzz, hostile-input.test.ts, stops at the SCIM authorizer): filters,
 * PATCH paths, bodies and ids in paths. No answer may be a 5xx, and every
 * error is a SCIM error (RFC 7644 §3.12).
 *
 * Then what a review found: a quote followed by newlines in a filter stalled
 * the function for seconds (the library read filters with a pattern that
 * backtracked), and an equality on a value too long for a DynamoDB key
 * answered 500.
 */
import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../infra/local/gateway';
import { MAX_FILTER_LENGTH } from '../../lib/scim/filter';
import { READ_TOKEN, startTestGateway, WRITE_TOKEN } from '../support/api';
import { invariantViolations } from '../support/invariants';
import { ENTERPRISE_SCHEMA, GROUP_SCHEMA, PATCH_SCHEMA, USER_SCHEMA } from '../support/scim';

/** How long the property runs; the count of cases it reached is printed. */
const FUZZ_TIME_MS = 20_000;

let gateway: Gateway;
let scimToken = '';
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

interface Sent {
  method: string;
  path: string;
  body?: Buffer;
  headers?: Record<string, string>;
}
interface Received {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function send({ method, path, body, headers = {} }: Sent, token = scimToken): Promise<Received> {
  return new Promise((resolve, reject) => {
    const sentHeaders: Record<string, string> = {
      authorization: `Bearer ${token}`,
      accept: 'application/scim+json',
      ...(body === undefined ? {} : { 'content-type': 'application/scim+json', 'content-length': String(body.length) }),
      ...headers,
    };
    const request = httpRequest(`${gateway.url}${path}`, { method, headers: sentHeaders, agent, timeout: 30_000 }, (response) => {
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
const parsed = (received: Received) => JSON.parse(received.body.toString('utf8'));

// --- seed data, so that many fuzzed requests reach real resources -------------

const USERS: string[] = [];
const GROUPS: string[] = [];

async function seed() {
  const made = await send(
    { method: 'POST', path: '/v2/scim/tokens', body: json({ description: 'SCIM fuzz' }), headers: { 'content-type': 'application/json' } },
    WRITE_TOKEN,
  );
  expect(made.status, made.body.toString()).toBe(201);
  scimToken = parsed(made).token;
  for (let i = 0; i < 4; i++) {
    const user = await send({
      method: 'POST',
      path: '/scim/v2/Users',
      body: json({
        schemas: [USER_SCHEMA, ENTERPRISE_SCHEMA],
        userName: `sf-${i}@example.com`,
        externalId: `sf-ext-${i}`,
        name: { givenName: 'Fuzz', familyName: `Scim${i}` },
        emails: [{ value: `sf-${i}@example.com`, type: 'work', primary: true }],
        active: i % 2 === 0,
        [ENTERPRISE_SCHEMA]: { department: 'Fuzzing' },
      }),
    });
    expect(user.status, user.body.toString()).toBe(201);
    USERS.push(parsed(user).id);
  }
  const group = await send({
    method: 'POST',
    path: '/scim/v2/Groups',
    body: json({
      schemas: [GROUP_SCHEMA],
      displayName: 'SCIM fuzz',
      externalId: 'sf-g',
      members: USERS.slice(0, 2).map((value) => ({ value })),
    }),
  });
  expect(group.status, group.body.toString()).toBe(201);
  GROUPS.push(parsed(group).id);
}

// --- the generators -----------------------------------------------------------

/** Percent-encodes anything outside printable ASCII, and what a query or path would split on; lone surrogates as bad UTF-8. */
function encodeLoosely(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code > 0x20 && code < 0x7f && !'?#&=%+'.includes(char)) out += char;
    else if (code >= 0xd800 && code <= 0xdfff) out += '%ED%A0%80';
    else out += encodeURIComponent(char);
  }
  return out;
}

const ATTRIBUTES = [
  'userName',
  'USERNAME',
  'id',
  'externalId',
  'displayName',
  'active',
  'name.familyName',
  'name.givenName',
  'name.formatted',
  'emails',
  'emails.value',
  'emails.type',
  'roles',
  'roles.value',
  'members',
  'members.value',
  'members.display',
  'meta.created',
  'meta.lastModified',
  'title',
  'shoeSize',
  `${ENTERPRISE_SCHEMA}:department`,
  `${ENTERPRISE_SCHEMA}:manager.value`,
  `${USER_SCHEMA}:userName`,
  'urn:x:custom:2.0:User:costCode',
  '__proto__',
  'constructor',
];
const OPERATORS = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le', 'EQ', 'pr', 'is', ''];

const value = fc.oneof(
  fc.constantFrom('"x"', '""', 'true', 'false', 'null', '1', '-2.5e3', '"True"', '"2026-01-01T00:00:00Z"', '"\\u0000"', '"\\ud800"'),
  fc.constant('"sf-user"'), // a seeded user's id, put in by realized()
  fc.string({ maxLength: 30 }).map((text) => JSON.stringify(text)),
  fc.string({ unit: 'binary', maxLength: 30 }).map((text) => `"${text}"`),
  fc.integer({ min: 60, max: 3000 }).map((n) => `"${'v'.repeat(n)}"`),
  fc.integer({ min: 20, max: 1000 }).map((n) => `"${'\n'.repeat(n)}`),
  fc.integer({ min: 100, max: 900 }).map((n) => `"${'€'.repeat(n)}"`),
);
const comparison = fc
  .tuple(fc.constantFrom(...ATTRIBUTES), fc.constantFrom(...OPERATORS), value)
  .map(([attribute, op, compared]) => (op === 'pr' ? `${attribute} pr` : `${attribute} ${op} ${compared}`));
const filterText: fc.Arbitrary<string> = fc.letrec<{ filter: string }>((tie) => ({
  filter: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    comparison,
    fc.tuple(tie('filter'), fc.constantFrom(' and ', ' or ', ' AND ', ' Or '), tie('filter')).map(([a, op, b]) => `${a}${op}${b}`),
    tie('filter').map((inner) => `not (${inner})`),
    tie('filter').map((inner) => `(${inner})`),
    fc
      .tuple(fc.constantFrom('emails', 'members', 'roles', 'name', 'userName'), tie('filter'))
      .map(([attribute, inner]) => `${attribute}[${inner}]`),
    fc
      .tuple(fc.constantFrom('emails', 'members'), tie('filter'), value)
      .map(([attribute, inner, v]) => `${attribute}[${inner}].value eq ${v}`),
  ),
})).filter;

const FILTER_TOKENS = [
  '"',
  '\\',
  '\n',
  '\r',
  '\t',
  ' ',
  '[',
  ']',
  '(',
  ')',
  '.',
  ':',
  ' eq ',
  ' pr',
  ' and ',
  ' or ',
  'not ',
  'userName',
  'emails',
  '"x"',
];
const anyFilter = fc.oneof(
  { weight: 6, arbitrary: filterText },
  { weight: 2, arbitrary: fc.array(fc.constantFrom(...FILTER_TOKENS), { maxLength: 200 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: MAX_FILTER_LENGTH - 5, max: MAX_FILTER_LENGTH + 500 }).map((n) => `userName eq "${'a'.repeat(n)}"`),
  },
);

const listQuery = fc
  .record(
    {
      filter: anyFilter,
      startIndex: fc.oneof(
        fc.integer({ min: -5, max: 20_000 }).map(String),
        fc.constantFrom('0', '1', 'x', '', '1e3', '99999999999999999999'),
      ),
      count: fc.oneof(fc.integer({ min: -5, max: 2000 }).map(String), fc.constantFrom('0', 'x', '', '1.5')),
      attributes: fc.constantFrom('userName', 'emails.value,name', 'members', '__proto__', '', ','),
      excludedAttributes: fc.constantFrom('members', 'emails', 'x'.repeat(3000), ''),
    },
    { requiredKeys: [] },
  )
  .map((query) => {
    const pairs = Object.entries(query).map(([key, text]) => `${key}=${encodeLoosely(text)}`);
    return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
  });

const idInPath = fc.oneof(
  { weight: 6, arbitrary: fc.constant('seeded') },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('%00', '%FF', '%E0%A4%A', '..', '.json', '__proto__', 'constructor', '%20', 'a%0Ab', '%2F', 'x'.repeat(65)),
  },
  { weight: 1, arbitrary: fc.integer({ min: 65, max: 3000 }).map((n) => 'a'.repeat(n)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map(encodeLoosely) },
);

const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer({ min: 190, max: 3000 }).map((n) => 'n'.repeat(n)),
  fc.constantFrom('', ' ', 'a\u0000b', 'line\nbreak', '\ud800', 'İstanbul', '__proto__'),
);
const email = fc.record(
  {
    value: fc.oneof(fc.emailAddress(), text),
    type: fc.constantFrom('work', 'home', 'other', '', 1),
    primary: fc.constantFrom(true, false, 'True', null),
  },
  { requiredKeys: [] },
);
const member = fc.oneof(
  fc.record(
    { value: fc.oneof(fc.constant('seeded'), fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), text), display: text },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 1 }),
);
/** Bodies shaped like a User or a Group, valid and not. */
const resourceBody = fc.record(
  {
    schemas: fc.oneof(fc.constantFrom([USER_SCHEMA], [GROUP_SCHEMA], [USER_SCHEMA, ENTERPRISE_SCHEMA], [], 'x', null)),
    userName: fc.oneof(fc.emailAddress(), text, fc.constant(null)),
    externalId: fc.oneof(text, fc.constant(null)),
    displayName: text,
    name: fc.oneof(fc.record({ givenName: text, familyName: text }, { requiredKeys: [] }), fc.constantFrom(null, 'x', [])),
    emails: fc.oneof(fc.array(email, { maxLength: 4 }), fc.constantFrom(null, 'x', {})),
    active: fc.constantFrom(true, false, 'True', 'False', 'yes', 0, null),
    roles: fc.oneof(
      fc.array(fc.record({ value: fc.oneof(fc.constantFrom('admin', 'guest', 'root'), text), primary: fc.boolean() }), { maxLength: 3 }),
      fc.constant('admin'),
    ),
    members: fc.oneof(fc.array(member, { maxLength: 5 }), fc.constantFrom(null, 'x')),
    [ENTERPRISE_SCHEMA]: fc.oneof(
      fc.record({ department: fc.oneof(text, fc.constantFrom('Fuzzing', null, 5)) }, { requiredKeys: [] }),
      fc.constant('x'),
    ),
    extra: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: [] },
);

const patchPath = fc.oneof(
  fc.constantFrom(...ATTRIBUTES),
  fc.constantFrom('members', 'emails[type eq "work"].value', 'members[value eq "u1"]', 'name.givenName', `${ENTERPRISE_SCHEMA}:department`),
  filterText.map((inner) => `emails[${inner}].value`),
  filterText.map((inner) => `members[${inner}]`),
  fc.array(fc.constantFrom(...FILTER_TOKENS), { maxLength: 60 }).map((parts) => `emails[${parts.join('')}`),
  fc.integer({ min: 20, max: 600 }).map((n) => `emails[type eq "${'\n'.repeat(n)}"].value`),
  fc.integer({ min: 490, max: 3000 }).map((n) => `emails[value eq "${'a'.repeat(n)}"]`),
  text,
);
const operation = fc.record(
  {
    op: fc.constantFrom('add', 'Add', 'replace', 'Replace', 'remove', 'Remove', 'move', '', 5),
    path: fc.oneof(patchPath, fc.constantFrom(null, 5, '')),
    value: fc.oneof(
      text,
      member,
      fc.array(member, { maxLength: 3 }),
      resourceBody,
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom('False', true),
    ),
  },
  { requiredKeys: [] },
);
const patchBody = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.array(operation, { minLength: 1, maxLength: 4 }).map((Operations) => ({ schemas: [PATCH_SCHEMA], Operations })),
  },
  { weight: 1, arbitrary: fc.constantFrom({}, { Operations: [] }, { Operations: 'x' }, { operations: [null] }, [], null) },
);

const RAW_BODIES = [
  '{"userName": ',
  '[]',
  'null',
  '"x"',
  '{"__proto__": {"admin": true}, "userName": "p@example.com"}',
  '\ufeff{}',
  '{"a": 1} trailing',
];
const anyBody = (shaped: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 8, arbitrary: shaped.map(json) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES).map((raw) => Buffer.from(raw)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 100 }).map((bytes) => Buffer.from(bytes)) },
  );

const KINDS = ['Users', 'Groups'] as const;
const scimRequest = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(fc.constantFrom(...KINDS), listQuery)
      .map(([kind, query]) => ({ method: 'GET', kind, id: undefined, query, body: undefined })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...KINDS), anyBody(resourceBody))
      .map(([kind, body]) => ({ method: 'POST', kind, id: undefined, query: '', body })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...KINDS), idInPath, anyBody(resourceBody))
      .map(([kind, id, body]) => ({ method: 'PUT', kind, id, query: '', body })),
  },
  {
    weight: 5,
    arbitrary: fc
      .tuple(fc.constantFrom(...KINDS), idInPath, anyBody(patchBody))
      .map(([kind, id, body]) => ({ method: 'PATCH', kind, id, query: '', body })),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.constantFrom(...KINDS), idInPath).map(([kind, id]) => ({ method: 'GET', kind, id, query: '', body: undefined })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...KINDS), idInPath)
      .map(([kind, id]) => ({ method: 'DELETE', kind, id, query: '', body: undefined })),
  },
);

/** Puts the seeded ids in for `seeded` (of the kind) and `sf-user`: the arbitraries are made before the seed runs. */
function realized(
  request: { method: string; kind: (typeof KINDS)[number]; id?: string; query: string; body?: Buffer },
  pick: number,
): Sent {
  const seeded = request.kind === 'Users' ? USERS : GROUPS;
  const real = (text: string) => text.replaceAll('seeded', seeded[pick % seeded.length]).replaceAll('sf-user', USERS[pick % USERS.length]);
  // DELETE and PUT of a seeded resource would empty the seed: they go to a copy of its id that does not exist.
  const id = request.id === undefined ? '' : `/${request.method === 'DELETE' ? request.id : real(request.id)}`;
  const body = request.body && Buffer.from(real(request.body.toString('latin1')), 'latin1');
  return { method: request.method, path: `/scim/v2/${request.kind}${id}${real(request.query)}`, body };
}

// --- the checks -------------------------------------------------------------

function checkAnswer(sent: Sent, received: Received): void {
  // Node's HTTP server (the local gateway) refuses a request head over 16 KB itself, before any code of the service runs.
  if (received.status === 431 && received.body.length === 0) return;
  const label = `${sent.method} ${sent.path.slice(0, 300)} ${sent.body?.toString('utf8').slice(0, 300) ?? ''} → ${received.status}: ${received.body.subarray(0, 300).toString('utf8')}`;
  expect(received.status, label).toBeGreaterThanOrEqual(200);
  expect(received.status, label).toBeLessThan(500);
  if (received.status < 400) return;
  expect(received.headers['content-type'], label).toBe('application/scim+json');
  expect(JSON.parse(received.body.toString('utf8')), label).toMatchObject({
    schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
    status: String(received.status),
    detail: expect.any(String),
  });
}

beforeAll(async () => {
  gateway = await startTestGateway({ tokens: { write: WRITE_TOKEN, read: READ_TOKEN } });
  await seed();
});

afterAll(async () => {
  agent.destroy();
  await gateway?.close();
});

describe('SCIM routes under hostile input, with a valid token', () => {
  it(
    'never answer a 5xx, and every error is a SCIM error',
    async () => {
      let cases = 0;
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(scimRequest, fc.nat(), async (request, pick) => {
          cases++;
          const sent = realized(request, pick);
          const received = await send(sent);
          statuses.set(received.status, (statuses.get(received.status) ?? 0) + 1);
          checkAnswer(sent, received);
        }),
        { numRuns: 100_000, interruptAfterTimeLimit: FUZZ_TIME_MS, markInterruptAsFailure: false },
      );
      const summary = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
      console.log(`SCIM hostile input: ${cases} requests in ${FUZZ_TIME_MS / 1000} s; statuses ${summary.join(' ')}`);
      expect(cases).toBeGreaterThan(100);
      // The run must reach the handlers' successes, not only their refusals.
      expect(statuses.get(200) ?? 0).toBeGreaterThan(10);
      expect(await invariantViolations()).toEqual([]);
    },
    FUZZ_TIME_MS + 60_000,
  );
});

describe('what the review found', () => {
  const EUROS = '€'.repeat(700);
  const list = (kind: string, filter: string) => send({ method: 'GET', path: `/scim/v2/${kind}?filter=${encodeURIComponent(filter)}` });

  it('a quote followed by 40 newlines is 400 invalidFilter within 50 ms', async () => {
    expect((await list('Users', 'userName eq "x"')).status).toBe(200); // the handler loaded
    const stalled = `userName eq "${'\n'.repeat(40)}`;
    const timed = async () => {
      const started = performance.now();
      const received = await list('Users', stalled);
      const ms = performance.now() - started;
      expect(received.status).toBe(400);
      expect(parsed(received)).toMatchObject({ scimType: 'invalidFilter', status: '400' });
      return ms;
    };
    // The quickest of three: a filter slow to parse is slow every time, the machine's other work is not.
    const ms = Math.min(await timed(), await timed(), await timed());
    console.log(`userName eq " and 40 newlines: ${ms.toFixed(1)} ms`);
    expect(ms).toBeLessThan(50);
  });

  it.each([
    // 700 € are 2,100 bytes in UTF-8: more than a DynamoDB partition key holds (2,048), within the filter's 2,000 characters.
    ['Users', 'userName eq', `userName eq "${EUROS}"`],
    ['Users', 'id eq', `id eq "${EUROS}"`],
    ['Users', 'externalId eq', `externalId eq "${EUROS}"`],
    ['Users', 'emails.value eq', `emails.value eq "${EUROS}"`],
    ['Users', "Entra's emails value path", `emails[type eq "work"].value eq "${EUROS}"`],
    ['Users', 'userName eq and id eq', `userName eq "x" and id eq "${EUROS}"`],
    ['Users', 'name.familyName sw', `name.familyName sw "${EUROS}"`],
    ['Groups', 'displayName eq', `displayName eq "${EUROS}"`],
    ['Groups', 'externalId eq', `externalId eq "${EUROS}"`],
    ['Groups', 'id eq', `id eq "${EUROS}"`],
    ['Groups', 'id eq … and members eq', `id eq "g1" and members eq "${EUROS}"`],
  ])('%s, %s on a value too long for any key: an empty list, not a DynamoDB error', async (kind, _, filter) => {
    const received = await list(kind, filter);
    expect(received.status, received.body.toString()).toBe(200);
    expect(parsed(received)).toMatchObject({ totalResults: 0, Resources: [] });
  });

  it.each(['GET', 'PUT', 'PATCH', 'DELETE'])(
    '%s of a user or group whose id is 3,000 characters is 404, not a DynamoDB error',
    async (method) => {
      for (const kind of ['Users', 'Groups']) {
        const body =
          method === 'PUT' || method === 'PATCH'
            ? json({ schemas: [PATCH_SCHEMA], Operations: [{ op: 'remove', path: 'externalId' }] })
            : undefined;
        const received = await send({ method, path: `/scim/v2/${kind}/${'a'.repeat(3000)}`, body });
        expect(received.status, received.body.toString()).toBe(404);
        expect(parsed(received)).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '404' });
      }
    },
  );

  it(`a filter over ${MAX_FILTER_LENGTH} characters is 400 invalidFilter`, async () => {
    const received = await list('Users', `userName eq "${'u'.repeat(MAX_FILTER_LENGTH)}"`);
    expect(received.status).toBe(400);
    expect(parsed(received)).toMatchObject({ scimType: 'invalidFilter' });
  });

  it('a PATCH path over 500 characters, or with a newline, is 400 invalidPath', async () => {
    for (const path of [`emails[value eq "${'a'.repeat(500)}"].type`, 'emails[type eq "work"\n].value']) {
      const received = await send({
        method: 'PATCH',
        path: `/scim/v2/Users/${USERS[0]}`,
        body: json({ schemas: [PATCH_SCHEMA], Operations: [{ op: 'replace', path, value: 'x' }] }),
      });
      expect(received.status, received.body.toString()).toBe(400);
      expect(parsed(received)).toMatchObject({ scimType: 'invalidPath' });
    }
  });
});
