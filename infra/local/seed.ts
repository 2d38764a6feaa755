/**
 * `npm run seed`: fills a running local stack through its public API.
 *
 *   npm run seed -- --users 500 --departments 10 --groups 4 [--url http://127.0.0.1:3000] [--token T]
 *
 * The token defaults to ADMIN_API_TOKEN and the URL to http://127.0.0.1:$PORT.
 */
import { parseArgs } from 'node:util';

const ROLES = ['member', 'member', 'member', 'manager', 'admin', 'guest'];
const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Hamilton', 'Liskov', 'Knuth', 'Ritchie', 'Goldberg', 'Allen', 'Wing'];
const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Margaret', 'Barbara', 'Donald', 'Dennis', 'Adele', 'Frances', 'Jeannette'];
const GROUP_NAMES = ['Designers', 'On-call', 'Mentors', 'Book club', 'Security champions', 'Release managers'];
const DEPARTMENT_NAMES = ['Engineering', 'Sales', 'Support', 'Finance', 'Legal', 'Design', 'Research', 'Marketing', 'People', 'Operations'];
const CONCURRENCY = 8;

function progressBar(label: string, total: number) {
  let done = 0;
  const draw = () => {
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    process.stderr.write(`\r${label.padEnd(12)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
  };
  draw();
  return {
    tick() {
      done++;
      draw();
    },
    finish: () => process.stderr.write('\n'),
  };
}

/** Runs `task` for 0..count-1, `CONCURRENCY` at a time. */
async function inParallel(count: number, task: (index: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count) }, worker));
}

async function main() {
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: '100' },
      departments: { type: 'string', default: '5' },
      groups: { type: 'string', default: '3' },
      url: { type: 'string', default: `http://127.0.0.1:${process.env.PORT ?? 3000}` },
      token: { type: 'string', default: process.env.ADMIN_API_TOKEN },
    },
  });
  const userCount = Number(values.users);
  const departmentCount = Number(values.departments);
  const groupCount = Number(values.groups);
  if ([userCount, departmentCount, groupCount].some((n) => !Number.isSafeInteger(n) || n < 0)) {
    throw new Error('--users, --departments and --groups take non-negative integers');
  }
  if (!values.token) throw new Error('pass --token or set ADMIN_API_TOKEN (npm start prints it)');
  const runId = Date.now().toString(36);

  const call = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${values.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${values.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return response.json() as Promise<{ id: string }>;
  };

  const departmentBar = progressBar('departments', departmentCount);
  await inParallel(departmentCount, async (i) => {
    const name = `${DEPARTMENT_NAMES[i % DEPARTMENT_NAMES.length]} ${Math.floor(i / DEPARTMENT_NAMES.length) + 1}`;
    await call('POST', '/v2/departments', { id: `seed-${runId}-d${i}`, name });
    departmentBar.tick();
  });
  departmentBar.finish();

  const userBar = progressBar('users', userCount);
  await inParallel(userCount, async (i) => {
    const id = `seed-${runId}-u${i}`;
    await call('POST', '/v2/users', {
      id,
      email: `${id}@example.com`,
      first_name: FIRST_NAMES[i % FIRST_NAMES.length],
      last_name: LAST_NAMES[(i * 7) % LAST_NAMES.length],
      account_role: ROLES[i % ROLES.length],
      activated: i % 4 !== 0,
      last_login: i % 5 === 0 ? null : new Date(Date.now() - i * 3_600_000).toISOString(),
    });
    userBar.tick();
  });
  userBar.finish();

  // Nine users in ten join a department (round robin) through E3, 1,000 at a time; the tenth stay outside,
  // so E1 and the all-users list differ.
  const members = new Map<number, string[]>();
  for (let i = 0; i < userCount && departmentCount > 0; i++) {
    if (i % 10 === 9) continue;
    const department = i % departmentCount;
    members.set(department, [...(members.get(department) ?? []), `seed-${runId}-u${i}`]);
  }
  const batches = [...members];
  const memberBar = progressBar('memberships', batches.length);
  await inParallel(batches.length, async (b) => {
    const [department, ids] = batches[b];
    for (let start = 0; start < ids.length; start += 1000) {
      await call('POST', `/v2/departments/seed-${runId}-d${department}/users`, { user_ids: ids.slice(start, start + 1000) });
    }
    memberBar.tick();
  });
  memberBar.finish();

  // Group i gets every user whose number is a multiple of i + 2, so groups overlap and differ in size;
  // then one user more through G4. Names carry the run id: group names are unique.
  const groupBar = progressBar('groups', groupCount);
  await inParallel(groupCount, async (i) => {
    const id = `seed-${runId}-g${i}`;
    const userIds = Array.from({ length: userCount }, (_, u) => u)
      .filter((u) => u % (i + 2) === 0)
      .map((u) => `seed-${runId}-u${u}`);
    const name = `${GROUP_NAMES[i % GROUP_NAMES.length]} ${Math.floor(i / GROUP_NAMES.length) + 1} (${runId})`;
    await call('POST', '/v2/groups', { id, name, description: `Seeded group ${i + 1}`, user_ids: userIds });
    if (userCount > 1) await call('POST', `/v2/groups/${id}/users/seed-${runId}-u1`, undefined);
    groupBar.tick();
  });
  groupBar.finish();
  console.log(`Seeded ${departmentCount} departments, ${userCount} users and ${groupCount} groups (ids start with seed-${runId}-).`);
}

main().catch((error: Error) => {
  console.error(`\nseed failed: ${error.message}`);
  process.exit(1);
});
