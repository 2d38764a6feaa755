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
 * Not part of `npm test` (it takes a minute and a machine of its own); the
 * file lies outside vitest's include globs.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startBackgroundJobs } from '../../infra/local/background';
import { startGateway } from '../../infra/local/gateway';
import { startLocalServices } from '../../infra/local/services';

const { values: options } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    connections: { type: 'string', default: '8' },
    users: { type: 'string', default: '300' },
    departments: { type: 'string', default: '4' },
  },
});
const positive = (name: keyof typeof options) => {
  const value = Number(options[name]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, got ${options[name]}`);
  return value;
};
const DURATION_S = positive('duration');
const CONNECTIONS = positive('connections');
const USERS = positive('users');
const DEPARTMENTS = positive('departments');
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
  // Before any service module reads its configuration.
  Object.assign(process.env, services.env);
  const { resetConfig } = await import('../../lib/config');
  resetConfig();
  const gateway = await startGateway({ host: '127.0.0.1', port: 0, tokens: { write: WRITE_TOKEN, read: READ_TOKEN } });
  const background = startBackgroundJobs(projectRoot, {
    onError: (name, error) => console.error(`${name} failed in the background:`, error instanceof Error ? error.message : error),
  });

  try {
    const { departmentIds, userIds } = await seed();
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
  for (const [kind, stats] of byKind) {
    const detail = [...stats.statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    lines.push(`  ${kind.padEnd(7)}     ${stats.count} (${detail})`);
  }
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

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('load test failed to run:', error);
    process.exit(1);
  },
);
