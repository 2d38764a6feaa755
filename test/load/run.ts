/**
 * `npm run load`: a load test of the whole local stack (DynamoDB Local,
 * s3rver, the SES stand-in, the gateway and the real handlers), on loopback
 * only, for a bounded time.
 *
 * Mixed traffic, as fast as this machine answers it (closed loop: each
 * connection sends its next request when the last one is answered):
 *   - E2 membership moves of random users between a few departments that
 *     have a `users` quota (some moves answer 409 quota-exceeded: expected);
 *   - E1 pages (`GET /v2/departments/users`, random offsets and sorts);
 *   - GET of a random user, E6 quotas of a random department.
 *
 * Then it checks: no 5xx, no connection errors or timeouts, the invariant
 * checker finds nothing, and no department holds more users than its quota
 * allows. It prints the rate, the p99 latency and the counts, and exits
 * non-zero when a check fails.
 *
 *   npm run load -- --duration 60 --connections 8 --users 300 --departments 4
 *
 * `--profile scim`: what an identity provider sends instead, through
 * the SCIM routes with a SCIM token made by the admin API — `userName eq`
 * look-ups (half), `active` PATCHes (a quarter, as Entra writes them:
 * `"Replace"`, `"False"`) and group member PATCHes (a quarter, one member
 * added or removed) over a few groups made by SCIM `POST /Groups`. Two
 * phases: a steady one at the rate Microsoft asks SCIM apps of Entra's
 * gallery to support per provisioning job, i.e. per tenant (`--rate`, 25
 * requests per second, open loop), then a burst as fast as the stack answers
 * (`--burst` seconds, closed loop, `--connections`): a custom non-gallery app
 * gets no rate limit from Entra at all.
 * Each phase prints its rate and latencies; the checks are the same (no 5xx,
 * no connection errors, invariants hold, no unexpected status).
 *
 *   npm run load -- --profile scim --duration 60 --rate 25 --burst 15 --connections 8
 *
 * Not part of `npm test` (it takes a minute and a machine of its own); the
 * file lies outside vitest's include globs.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startBackgroundJobs } from '../../infra/local/background';
import { resolveDeployment, resolveQueues } from '../../infra/local/deployment';
import { createQueues } from '../../infra/local/queues';
import { startFunctionHost, type FunctionHost } from '../../infra/local/functions';
import { startGateway } from '../../infra/local/gateway';
import { prepareStack } from '../../infra/local/prepare';
import { startLocalServices } from '../../infra/local/services';

const { values: options } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    connections: { type: 'string', default: '8' },
    users: { type: 'string', default: '300' },
    departments: { type: 'string', default: '4' },
    /** `mixed` (the admin API, above) or `scim` (an identity provider's requests). */
    profile: { type: 'string', default: 'mixed' },
    /** scim: the steady phase's requests per second (Entra: about 25 a tenant). */
    rate: { type: 'string', default: '25' },
    /** scim: the burst's seconds (closed loop, `--connections`). */
    burst: { type: 'string', default: '15' },
    /** scim: groups whose members are PATCHed. */
    groups: { type: 'string', default: '10' },
  },
});
if (options.profile !== 'mixed' && options.profile !== 'scim') throw new Error(`--profile is mixed or scim, got ${options.profile}`);
const positive = (name: keyof typeof options) => {
  const value = Number(options[name]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, got ${options[name]}`);
  return value;
};
const DURATION_S = positive('duration');
const CONNECTIONS = positive('connections');
const USERS = positive('users');
const DEPARTMENTS = positive('departments');
const SCIM_RATE = positive('rate');
const BURST_S = positive('burst');
const GROUPS = positive('groups');
/** Room for a fair share plus a tenth: moves into a full department answer 409, the rest go through. */
const QUOTA = Math.ceil((USERS / DEPARTMENTS) * 1.1);

const WRITE_TOKEN = 'load-write-token';
const READ_TOKEN = 'load-read-token';

/** Share of each kind of request, in percent. */
const MIX = { move: 30, page: 25, user: 35, quotas: 10 } as const;
type Kind = keyof typeof MIX;

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];

async function main(): Promise<number> {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

  console.log(`starting the local stack (DynamoDB Local in memory, s3rver, SES stand-in)...`);
  const services = await startLocalServices();
  // Before any service module reads its configuration: the seed and the checks run in this process.
  Object.assign(process.env, services.env);
  // The functions run from their bundles, as `npm start` runs them.
  const { deployment, bundlesDir, summary } = await prepareStack(projectRoot, { reportEmailDomains: '*' });
  console.log(`functions: ${summary}`);
  let functions: FunctionHost | undefined;
  const gateway = await startGateway({
    host: '127.0.0.1',
    port: 0,
    tokens: { write: WRITE_TOKEN, read: READ_TOKEN },
    loadHandler: async (route) => functions!.handler(route.name),
    scimAuthorizer: (event, context) => functions!.handler('scimAuthorizer')(event, context),
    fallbackFunction: (event, context) => functions!.handler('fallback')(event, context),
  });
  const local = {
    tableName: services.env.TABLE_NAME,
    reportsBucket: services.env.REPORTS_BUCKET,
    apiUrl: gateway.url,
    sqsEndpoint: services.endpoints.sqs,
  };
  await createQueues(services.endpoints.sqs, resolveQueues(deployment, local));
  functions = startFunctionHost({
    bundlesDir,
    functions: resolveDeployment(deployment, local),
    endpointsFor: async () => services.endpoints,
    // Errors only: every request's own log lines would bury the figures.
    output: (handler, line) => {
      if (/\bERROR\b|"level":"ERROR"/.test(line)) console.error(`[${handler}] ${line}`);
    },
  });
  const background = startBackgroundJobs(functions, {
    onError: (name, error) => console.error(`${name} failed in the background:`, error instanceof Error ? error.message : error),
  });

  try {
    const { departmentIds, userIds } = await seed();
    if (options.profile === 'scim') {
      console.log(`seeded ${userIds.length} users in ${departmentIds.length} departments; SCIM profile against ${gateway.url}`);
      const phases = await loadScim(gateway.url, userIds);
      // autocannon stops at its deadline with requests still in flight; the checker's Scan is no snapshot, so it
      // would see a transaction of theirs half-read. Let them finish first.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      return reportScim(phases, await checkState(departmentIds));
    }
    console.log(
      `seeded ${userIds.length} users in ${departmentIds.length} departments (users quota ${QUOTA} each); ` +
        `loading ${gateway.url} for ${DURATION_S} s with ${CONNECTIONS} connections...`,
    );
    await warmUp(gateway.url, departmentIds[0], userIds[0]);
    const { result, byKind } = await load(gateway.url, departmentIds, userIds);
    const violations = await checkState(departmentIds);
    return report(result, byKind, violations);
  } finally {
    await background.stop().catch(() => {});
    await gateway.close().catch(() => {});
    await functions.close().catch(() => {});
    await services.stop();
  }
}

/** Departments with a users quota, users spread over them (each under its quota). */
async function seed(): Promise<{ departmentIds: string[]; userIds: string[] }> {
  const { createDepartment } = await import('../../lib/departments/departments');
  const { createUser } = await import('../../lib/users/commands');
  const { addUsersToDepartment } = await import('../../lib/departments/bulk-membership');
  const { setQuotaLimit } = await import('../../lib/departments/quota-limits');
  const ctx = { actor: 'load-seed', operationId: 'seed', requestId: 'seed' };

  const departmentIds = Array.from({ length: DEPARTMENTS }, (_, i) => `load-d${i}`);
  for (const id of departmentIds) {
    await createDepartment(ctx, { id, name: `Load ${id}` });
    await setQuotaLimit(ctx, id, 'users', QUOTA);
  }
  const roles = ['member', 'member', 'member', 'admin', 'manager', 'guest'] as const;
  const userIds = Array.from({ length: USERS }, (_, i) => `load-u${String(i).padStart(5, '0')}`);
  for (let i = 0; i < userIds.length; i += 25) {
    await Promise.all(
      userIds.slice(i, i + 25).map((id, j) =>
        createUser(ctx, {
          id,
          email: `${id}@example.com`,
          first_name: 'Load',
          last_name: `Tester ${(i + j) % 97}`,
          account_role: roles[(i + j) % roles.length],
          activated: (i + j) % 3 !== 0,
          last_login: (i + j) % 4 === 0 ? null : new Date(Date.UTC(2026, 0, 1 + ((i + j) % 300))).toISOString(),
        }),
      ),
    );
  }
  // A fair share in each department, the rest in none.
  const share = Math.floor(USERS / DEPARTMENTS);
  for (const [d, department] of departmentIds.entries()) {
    const members = userIds.slice(d * share, (d + 1) * share);
    for (let i = 0; i < members.length; i += 500) await addUsersToDepartment(ctx, department, members.slice(i, i + 500));
  }
  return { departmentIds, userIds };
}

/** One request of each kind first, so that loading the handler modules is not measured. */
async function warmUp(url: string, departmentId: string, userId: string): Promise<void> {
  const headers = { authorization: `Bearer ${WRITE_TOKEN}` };
  for (const [method, path] of [
    ['GET', `/v2/users/${userId}`],
    ['GET', '/v2/departments/users?count=100'],
    ['GET', `/departments/${departmentId}/quotas`],
    ['POST', `/v2/departments/${departmentId}/users/${userId}`],
  ]) {
    const response = await fetch(`${url}${path}`, { method, headers });
    if (response.status >= 500) throw new Error(`warm-up ${method} ${path} answered ${response.status}`);
    await response.arrayBuffer();
  }
}

interface KindStats {
  count: number;
  statuses: Map<number, number>;
}

async function load(url: string, departmentIds: string[], userIds: string[]) {
  const byKind = new Map<Kind, KindStats>(
    (Object.keys(MIX) as Kind[]).map((kind) => [kind, { count: 0, statuses: new Map<number, number>() }]),
  );
  const kinds = (Object.entries(MIX) as Array<[Kind, number]>).flatMap(([kind, share]) => Array<Kind>(share).fill(kind));
  const sorts = ['last_name', 'last_name:desc', 'account_role', 'activated:desc', 'last_login'];
  const write = { authorization: `Bearer ${WRITE_TOKEN}` };
  const read = { authorization: `Bearer ${READ_TOKEN}` };

  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    timeout: 30,
    requests: [
      {
        setupRequest: (request, context: object) => {
          const kind = pick(kinds);
          (context as { kind?: Kind }).kind = kind;
          switch (kind) {
            case 'move':
              return { ...request, method: 'POST', path: `/v2/departments/${pick(departmentIds)}/users/${pick(userIds)}`, headers: write };
            case 'page': {
              const offset = Math.floor(Math.random() * USERS * 0.8);
              return {
                ...request,
                method: 'GET',
                path: `/v2/departments/users?count=100&offset=${offset}&sort=${pick(sorts)}`,
                headers: read,
              };
            }
            case 'user':
              return { ...request, method: 'GET', path: `/v2/users/${pick(userIds)}`, headers: pick([read, write]) };
            case 'quotas':
              return { ...request, method: 'GET', path: `/departments/${pick(departmentIds)}/quotas`, headers: read };
          }
        },
        onResponse: (status, _body, context: object) => {
          const stats = byKind.get((context as { kind: Kind }).kind)!;
          stats.count++;
          stats.statuses.set(status, (stats.statuses.get(status) ?? 0) + 1);
        },
      },
    ],
  });
  return { result, byKind };
}

/** The invariant checker, and no department over its users quota. */
async function checkState(departmentIds: string[]): Promise<string[]> {
  const { invariantViolations, scanTable } = await import('../support/invariants');
  const violations = await invariantViolations();
  const users = (await scanTable()).filter((item) => item.type === 'user');
  for (const id of departmentIds) {
    const members = users.filter((user) => user.department_id === id).length;
    if (members > QUOTA) violations.push(`department ${id} has ${members} users, over its quota of ${QUOTA}`);
  }
  return violations;
}

function report(result: autocannon.Result, byKind: Map<Kind, KindStats>, violations: string[]): number {
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([status, { count }]) => `${status}×${count ?? 0}`)
    .join(' ');
  const lines = [
    '',
    `duration      ${result.duration} s, ${result.connections} connections, loopback`,
    `requests      ${result.requests.total} answered (${result.requests.sent} sent)`,
    `rate          ${result.requests.average.toFixed(1)} req/s on average (min ${result.requests.min}, max ${result.requests.max} per second)`,
    `latency       p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
    `statuses      ${statuses}`,
    `errors        5xx ${result['5xx']}, connection errors ${result.errors}, timeouts ${result.timeouts}`,
  ];
  lines.push(...kindLines(byKind, '  ', '     '));
  lines.push(`invariants    ${violations.length === 0 ? 'hold' : `${violations.length} violation(s)`}`);
  console.log(lines.join('\n'));
  for (const violation of violations.slice(0, 20)) console.log(`  - ${violation}`);

  const failures: string[] = [];
  if (result['5xx'] > 0) failures.push(`${result['5xx']} answers were 5xx`);
  if (result.errors > 0 || result.timeouts > 0) failures.push(`${result.errors} connection errors, ${result.timeouts} timeouts`);
  if (violations.length > 0) failures.push('invariants broken');
  const unexpected = [...byKind].flatMap(([kind, stats]) =>
    [...stats.statuses.keys()]
      .filter((status) => status >= 400 && !(kind === 'move' && status === 409))
      .map((status) => `${kind} ${status}`),
  );
  if (unexpected.length > 0) failures.push(`unexpected answers: ${unexpected.join(', ')}`);
  console.log(failures.length === 0 ? '\nload test passed' : `\nload test FAILED: ${failures.join('; ')}`);
  return failures.length === 0 ? 0 : 1;
}

// --- SCIM profile -------------------------------------------------------------------------

/** Share of each kind of SCIM request, in percent. */
const SCIM_MIX = { lookup: 50, active: 25, member: 25 } as const;
type ScimKind = keyof typeof SCIM_MIX;
/** What each kind answers when all is well (a member PATCH: 204 without `attributes`, as Entra expects). */
const SCIM_EXPECTED: Record<ScimKind, number[]> = { lookup: [200], active: [200], member: [204] };
const SCIM_PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

interface ScimPhase {
  name: string;
  result: autocannon.Result;
  byKind: Map<ScimKind, KindStats>;
  target?: number;
}

/** A SCIM token made through the admin API, groups made through SCIM, then the two phases. */
async function loadScim(url: string, userIds: string[]): Promise<ScimPhase[]> {
  const made = await fetch(`${url}/v2/scim/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${WRITE_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ description: 'load test IdP' }),
  });
  if (made.status !== 201) throw new Error(`POST /v2/scim/tokens answered ${made.status}: ${await made.text()}`);
  const { token } = (await made.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}`, accept: 'application/scim+json', 'content-type': 'application/scim+json' };

  const groupIds: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    const response = await fetch(`${url}/scim/v2/Groups`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        displayName: `Load IdP group ${g}`,
        externalId: `load-ext-g${g}`,
      }),
    });
    if (response.status !== 201) throw new Error(`POST /scim/v2/Groups answered ${response.status}: ${await response.text()}`);
    groupIds.push(((await response.json()) as { id: string }).id);
  }

  const requestOf = (kind: ScimKind): { method: 'GET' | 'PATCH'; path: string; body?: string } => {
    const user = pick(userIds);
    switch (kind) {
      case 'lookup':
        // Entra and Okta look a user up by its userName (here its e-mail, upper-cased: compared case-insensitively).
        return { method: 'GET', path: `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${user.toUpperCase()}@EXAMPLE.COM"`)}` };
      case 'active':
        return {
          method: 'PATCH',
          path: `/scim/v2/Users/${user}`,
          body: JSON.stringify({
            schemas: [SCIM_PATCH_SCHEMA],
            Operations: [{ op: 'Replace', path: 'active', value: Math.random() < 0.5 ? 'False' : 'True' }],
          }),
        };
      case 'member':
        return {
          method: 'PATCH',
          path: `/scim/v2/Groups/${pick(groupIds)}`,
          body: JSON.stringify({
            schemas: [SCIM_PATCH_SCHEMA],
            Operations: [
              Math.random() < 0.6
                ? { op: 'Add', path: 'members', value: [{ value: user }] }
                : { op: 'Remove', path: 'members', value: [{ value: user }] },
            ],
          }),
        };
    }
  };

  // One request of each kind first, so that loading the handler modules is not measured.
  for (const kind of Object.keys(SCIM_MIX) as ScimKind[]) {
    const { method, path, body } = requestOf(kind);
    const response = await fetch(`${url}${path}`, { method, headers, body });
    if (!SCIM_EXPECTED[kind].includes(response.status))
      throw new Error(`warm-up ${method} ${path} answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  }

  const kinds = (Object.entries(SCIM_MIX) as Array<[ScimKind, number]>).flatMap(([kind, share]) => Array<ScimKind>(share).fill(kind));
  const phase = async (name: string, settings: Partial<autocannon.Options>, target?: number): Promise<ScimPhase> => {
    console.log(`SCIM ${name}...`);
    const byKind = new Map<ScimKind, KindStats>(
      (Object.keys(SCIM_MIX) as ScimKind[]).map((kind) => [kind, { count: 0, statuses: new Map<number, number>() }]),
    );
    const result = await autocannon({
      url,
      timeout: 30,
      ...settings,
      requests: [
        {
          setupRequest: (request, context: object) => {
            const kind = pick(kinds);
            (context as { kind?: ScimKind }).kind = kind;
            const next = requestOf(kind);
            // A fresh headers object each time: autocannon writes Content-Length into the one it is given, and a GET
            // that kept a PATCH's Content-Length would hang waiting for a body.
            const { 'content-type': contentType, ...rest } = headers;
            return { ...request, ...next, headers: next.body === undefined ? rest : { ...rest, 'content-type': contentType } };
          },
          onResponse: (status, _body, context: object) => {
            const stats = byKind.get((context as { kind: ScimKind }).kind)!;
            stats.count++;
            stats.statuses.set(status, (stats.statuses.get(status) ?? 0) + 1);
          },
        },
      ],
    });
    return { name, result, byKind, target };
  };
  return [
    // Open loop at the provider's rate: enough connections that a slow answer does not hold the next request back.
    await phase(
      `steady: ${SCIM_RATE} req/s for ${DURATION_S} s`,
      { connections: Math.max(4, Math.ceil(SCIM_RATE / 5)), overallRate: SCIM_RATE, duration: DURATION_S },
      SCIM_RATE,
    ),
    await phase(`burst: as fast as answered, ${CONNECTIONS} connections for ${BURST_S} s`, { connections: CONNECTIONS, duration: BURST_S }),
  ];
}

function reportScim(phases: ScimPhase[], violations: string[]): number {
  const lines: string[] = [''];
  const failures: string[] = [];
  for (const { name, result, byKind, target } of phases) {
    const statuses = Object.entries(result.statusCodeStats ?? {})
      .map(([status, { count }]) => `${status}×${count ?? 0}`)
      .join(' ');
    lines.push(
      `SCIM ${name}`,
      `  requests    ${result.requests.total} answered (${result.requests.sent} sent) in ${result.duration} s`,
      `  rate        ${result.requests.average.toFixed(1)} req/s on average (min ${result.requests.min}, max ${result.requests.max} per second)` +
        (target === undefined ? '' : `; target ${target}`),
      `  latency     p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
      `  statuses    ${statuses}`,
      `  errors      5xx ${result['5xx']}, connection errors ${result.errors}, timeouts ${result.timeouts}`,
    );
    lines.push(...kindLines(byKind, '    ', '   '));
    if (result['5xx'] > 0) failures.push(`${name}: ${result['5xx']} answers were 5xx`);
    if (result.errors > 0 || result.timeouts > 0) failures.push(`${name}: ${result.errors} connection errors, ${result.timeouts} timeouts`);
    const unexpected = [...byKind].flatMap(([kind, stats]) =>
      [...stats.statuses.keys()].filter((status) => !SCIM_EXPECTED[kind].includes(status)).map((status) => `${kind} ${status}`),
    );
    if (unexpected.length > 0) failures.push(`${name}: unexpected answers: ${unexpected.join(', ')}`);
  }
  lines.push(`invariants    ${violations.length === 0 ? 'hold' : `${violations.length} violation(s)`}`);
  console.log(lines.join('\n'));
  for (const violation of violations.slice(0, 20)) console.log(`  - ${violation}`);
  if (violations.length > 0) failures.push('invariants broken');
  console.log(failures.length === 0 ? '\nload test passed' : `\nload test FAILED: ${failures.join('; ')}`);
  return failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('load test failed to run:', error);
    process.exit(1);
  },
);

/** One line per kind of request: how many, and their statuses. */
function kindLines(byKind: Map<string, { count: number; statuses: Map<number, number> }>, indent: string, gap: string): string[] {
  return [...byKind].map(([kind, stats]) => {
    const detail = [...stats.statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    return `${indent}${kind.padEnd(7)}${gap}${stats.count} (${detail})`;
  });
}
