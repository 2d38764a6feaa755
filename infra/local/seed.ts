/**
 * `npm run seed`: fills a running local stack through its public API.
 *
 *   npm run seed -- --users 500 --departments 10 [--url http://127.0.0.1:3000] [--token T]
 *
 * The token defaults to ADMIN_API_TOKEN and the URL to http://127.0.0.1:$PORT.
 */
import { parseArgs } from 'node:util';

const ROLES = ['member', 'member', 'member', 'manager', 'admin', 'guest'];
const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Hamilton', 'Liskov', 'Knuth', 'Ritchie', 'Goldberg', 'Allen', 'Wing'];
const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Margaret', 'Barbara', 'Donald', 'Dennis', 'Adele', 'Frances', 'Jeannette'];
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
      url: { type: 'string', default: `http://127.0.0.1:${process.env.PORT ?? 3000}` },
      token: { type: 'string', default: process.env.ADMIN_API_TOKEN },
    },
  });
  const userCount = Number(values.users);
  const departmentCount = Number(values.departments);
  if (!Number.isSafeInteger(userCount) || userCount < 0 || !Number.isSafeInteger(departmentCount) || departmentCount < 0) {
    throw new Error('--users and --departments take non-negative integers');
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
  console.log(`Seeded ${departmentCount} departments and ${userCount} users (ids start with seed-${runId}-).`);
}

main().catch((error: Error) => {
  console.error(`\nseed failed: ${error.message}`);
  process.exit(1);
});
