/**
 * List scale: do the user lists, the audit list and the named lists cost the same at 10,000 and 100,000 users, about
 * what their own page costs, and answer in under 300 ms? For each size a table of its own holds the dataset of
 * support/list-dataset.ts, and a fresh process (this file with BENCH_LIST_CHILD=1: lib/config.ts reads TABLE_NAME once,
 * and no warm module state crosses sizes) loads it and calls each request through its route's handler, metering every
 * call (support/capacity.ts). Per request: RCU and calls (median of the runs), wall time (median of `runs`; a call over
 * 20 s runs once), status, and `min_rcu` (pageCost, prefixCost). The parent pairs the sizes (judge).
 * BENCH_LIST_ONLY=<regular expression> measures only the requests it matches.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { inTableOfItsOwn, type Doc } from './support/dataset';
import { itemSize, query as queryUnits } from './support/units';
import { median, progress, round, sleep, summarize } from './support/util';

export const LIST_GOALS = { ratio: 1.2, overMin: 2, ms: 300 } as const;
/** A call slower than SLOW_CALL_MS runs once; a handler is told it has Lambda's longest left, so that a slow list is
 * measured rather than answered 503 (the row notes a call over the route's deployed timeout, default 10 s). */
const [SLOW_CALL_MS, HANDLER_TIMEOUT_MS, DEPLOYED_TIMEOUT_S] = [20_000, 15 * 60_000, 10];
/** The cursor row: `next_cursor`s followed before the page measured (page 101: the depth of offset=10000). */
const CURSOR_DEPTH = 100;

export interface ListScaleSizes {
  /** User counts, smallest first; timed runs per request. */
  users: number[];
  departments: number;
  runs: number;
}

export interface ListScaleRow {
  /** `<operationId> <parameters>`, e.g. `E1 activated=true`. */
  request: string;
  operation: string;
  params: string;
  users: number;
  /** Of the last run; null when not applicable (the list has no `next_cursor`). */
  status: number | null;
  applicable: boolean;
  /** RCU as DynamoDB Local reports them, calls and wall time: medians of the runs; `commands` of one run. */
  rcu: number | null;
  calls: number | null;
  commands: string;
  scans: number;
  ms: number | null;
  runs: number;
  /** Reading its own page (or what a name prefix matches, the larger) plus `counter_rcu`, what it read of counters. */
  min_rcu: number | null;
  counter_rcu: number | null;
  /** Items an offset skipped; items on the page, and their bytes as stored. */
  skipped: number;
  page_items: number | null;
  page_bytes: number | null;
  rcu_over_min: number | null;
  /** At the larger size: RCU over min_rcu, over the same at the smaller size. */
  rcu_ratio: number | null;
  /** listDepartmentUsers: the department listed (the largest). */
  department?: { id: string; users: number };
  prefix_matches?: number;
  /** The cursor row: pages walked to reach the page measured, and what the walk cost. */
  walk?: { pages: number; rcu: number; ms: number };
  meets_goal: boolean;
  note?: string;
}

interface ParameterSet {
  label: string;
  query: Record<string, string>;
  /** A name prefix over departments or groups: the contract lets `total` and the order by `user_count` cost what the
   * prefix matches, never more; the minimum is the larger of the page and one read of every match. */
  prefixOver?: 'departments' | 'groups';
  /** Follow next_cursor this many times from the first page, then measure. */
  cursorDepth?: number;
}

/** The parameter sets of each user list (a page of 100: count's default). */
export const PARAMETER_SETS: ParameterSet[] = [
  { label: 'default', query: {} },
  { label: 'query=account_role:admin', query: { query: 'account_role:admin' } },
  { label: 'activated=true', query: { activated: 'true' } },
  { label: 'activated=false', query: { activated: 'false' } },
  { label: 'last_login=never', query: { last_login: 'never' } },
  { label: 'last_login=since:2026-05-01', query: { last_login: 'since:2026-05-01' } },
  { label: 'sort=last_login:desc', query: { sort: 'last_login:desc' } },
  { label: 'sort=account_role', query: { sort: 'account_role' } },
  { label: 'query=account_role:admin&activated=true', query: { query: 'account_role:admin', activated: 'true' } },
  { label: 'query=last_name:Sm', query: { query: 'last_name:Sm' } },
  { label: 'offset=10000', query: { offset: '10000' } },
  { label: `cursor, page ${CURSOR_DEPTH + 1}`, query: {}, cursorDepth: CURSOR_DEPTH },
];

const USER_LISTS = ['E1', 'listUsers', 'listDepartmentUsers'] as const;

/** The named lists by `user_count` and under a name prefix (one name in twenty: support/list-dataset.ts). */
const PREFIX = 'eng';
const byPrefix = (prefixOver: 'departments' | 'groups', sort?: string): ParameterSet => ({
  label: `${sort ? `sort=${sort}&` : ''}query=name:${PREFIX}`,
  query: { ...(sort ? { sort } : {}), query: `name:${PREFIX}` },
  prefixOver,
});
export const NAMED_REQUESTS: Array<{ operation: string; set: ParameterSet }> = [
  { operation: 'listDepartments', set: byPrefix('departments') },
  { operation: 'listDepartments', set: { label: 'sort=user_count:desc', query: { sort: 'user_count:desc' } } },
  { operation: 'listDepartments', set: byPrefix('departments', 'user_count:desc') },
  { operation: 'G2', set: byPrefix('groups') },
  { operation: 'G2', set: { label: 'sort=user_count', query: { sort: 'user_count' } } },
  { operation: 'G2', set: { label: 'sort=user_count:desc', query: { sort: 'user_count:desc' } } },
  { operation: 'G2', set: byPrefix('groups', 'user_count:desc') },
];

/** One eventually consistent Query of every department or group whose name starts with `prefix` (read unmetered). */
async function prefixCost(client: Doc, table: string, over: 'departments' | 'groups', prefix: string) {
  const [{ INDEXES }, { foldCase }, { groupList }, { departmentList }] = await Promise.all([
    import('../lib/db/table'),
    import('../lib/text'),
    import('../lib/store/groups'),
    import('../lib/store/departments'),
  ]);
  const partition = over === 'groups' ? groupList.byName().partition : departmentList.byName().partition;
  const sizes: number[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new QueryCommand({
        TableName: table,
        IndexName: INDEXES.byName.name,
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
        ExpressionAttributeNames: { '#pk': INDEXES.byName.partitionKey, '#sk': INDEXES.byName.sortKey },
        ExpressionAttributeValues: { ':pk': partition, ':prefix': foldCase(prefix) },
        ExclusiveStartKey: startKey,
      }),
    );
    sizes.push(...(page.Items ?? []).map((item) => itemSize(item)));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { items: sizes.length, rcu: queryUnits(sizes, false).rcu };
}

const projectRoot = join(import.meta.dirname, '..');

function runChild(env: Record<string, string>): Promise<number | null> {
  return new Promise((resolve, reject) => {
    // The child's stdout goes to our stderr: stdout holds only the tables.
    const child = spawn(process.execPath, ['--import', 'tsx', join('bench', 'list-scale.ts')], {
      cwd: projectRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 2, 2],
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
}

export async function measureListScale(env: Record<string, string>, sizes: ListScaleSizes): Promise<ListScaleRow[]> {
  const rows: ListScaleRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'bench-list-'));
  try {
    for (const users of sizes.users) {
      const out = join(dir, `${users}.json`);
      await inTableOfItsOwn(env, `${env.TABLE_NAME}-list-${users}`, async (table) => {
        progress(`list: ${users} users in ${sizes.departments} departments, in table ${table} (a fresh process)`);
        const code = await runChild({
          ...env,
          TABLE_NAME: table,
          BENCH_LIST_CHILD: '1',
          BENCH_LIST_USERS: String(users),
          BENCH_LIST_DEPARTMENTS: String(sizes.departments),
          BENCH_LIST_RUNS: String(sizes.runs),
          BENCH_LIST_OUT: out,
        });
        if (code !== 0) throw new Error(`list: the child for ${users} users failed (exit ${code})`);
      });
      rows.push(...(JSON.parse(readFileSync(out, 'utf8')) as ListScaleRow[]));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return judge(rows, sizes.users);
}

/** Ratios and goals, each larger size against the smallest. */
function judge(rows: ListScaleRow[], sizes: number[]): ListScaleRow[] {
  const smallest = Math.min(...sizes);
  const base = new Map(rows.filter((r) => r.users === smallest).map((r) => [r.request, r]));
  return rows.map((row) => {
    const reference = base.get(row.request);
    // Each size's cost over its own minimum, the larger over the smaller: what a larger dataset must not make dearer
    // is what a page costs beyond its own items (pages differ: a short page, larger items). An empty page at the
    // smaller size (an offset past its end) is no measure of a page: only the other goals apply.
    const comparable = reference?.page_items !== 0 || row.page_items === 0;
    const rcuRatio =
      row.users !== smallest && row.rcu !== null && reference?.rcu && comparable
        ? row.min_rcu && reference.min_rcu
          ? round(row.rcu / row.min_rcu / (reference.rcu / reference.min_rcu), 2)
          : round(row.rcu / reference.rcu, 2)
        : null;
    const overMin = row.rcu !== null && row.min_rcu ? round(row.rcu / row.min_rcu, 2) : null;
    const ok =
      row.applicable &&
      row.status === 200 &&
      overMin !== null &&
      overMin <= LIST_GOALS.overMin &&
      row.ms !== null &&
      row.ms < LIST_GOALS.ms &&
      (row.users === smallest || !comparable || (rcuRatio !== null && rcuRatio <= LIST_GOALS.ratio));
    return { ...row, rcu_ratio: rcuRatio, rcu_over_min: overMin, meets_goal: ok };
  });
}

/** One line per request, the sizes side by side (for run.ts's table). */
export function listScaleTable(rows: ListScaleRow[], sizes: number[]): { headers: string[]; lines: Array<Array<string | number>> } {
  const short = (n: number) => (n % 1000 === 0 ? `${n / 1000}k` : String(n));
  const largest = Math.max(...sizes);
  const smallest = Math.min(...sizes);
  const requests = [...new Set(rows.map((r) => r.request))];
  const cell = (value: number | null | undefined) => (value === null || value === undefined ? '-' : value);
  const headers = [
    'request',
    ...sizes.flatMap((s) => [`RCU ${short(s)}`, `calls ${short(s)}`, `ms ${short(s)}`]),
    `min RCU ${short(largest)}`,
    `× ${short(smallest)}`,
    '× min',
    'status',
    'goal',
  ];
  const lines = requests.map((request) => {
    const bySize = new Map(rows.filter((r) => r.request === request).map((r) => [r.users, r]));
    const big = bySize.get(largest);
    const all = [...bySize.values()];
    const applicable = all.every((r) => r.applicable);
    const statuses = [...new Set(all.map((r) => (r.applicable ? String(r.status) : 'n/a')))].join('/');
    return [
      request,
      ...sizes.flatMap((s) => {
        const r = bySize.get(s);
        return [cell(r?.rcu), cell(r?.calls), cell(r?.ms)];
      }),
      cell(big?.min_rcu),
      cell(big?.rcu_ratio),
      cell(big?.rcu_over_min),
      statuses,
      applicable ? (all.every((r) => r.meets_goal) ? 'yes' : 'NO') : 'n/a',
    ];
  });
  return { headers, lines };
}

interface Call {
  status: number;
  body: Record<string, unknown> | undefined;
  rcu: number;
  /** Of `rcu`, what reading counters (and a department item) cost. */
  counterRcu: number;
  calls: number;
  commands: string[];
  ms: number;
}

const paramsLabel = (query: Record<string, string>) =>
  Object.keys(query).length === 0
    ? 'default'
    : Object.entries(query)
        .map(([k, v]) => `${k}=${v}`)
        .join('&');

async function child(): Promise<void> {
  const users = Number(process.env.BENCH_LIST_USERS);
  const departments = Number(process.env.BENCH_LIST_DEPARTMENTS);
  const runs = Number(process.env.BENCH_LIST_RUNS);
  const out = process.env.BENCH_LIST_OUT!;
  const table = process.env.TABLE_NAME!;

  // lib/ modules only now (they read the environment on first use).
  const { rawClient } = await import('./support/dataset');
  const { DATASET_NOW, loadListDataset } = await import('./support/list-dataset');
  const { measure, meterCapacity } = await import('./support/capacity');
  const { lambdaContext, loadHandler, routeEvent, routeOf } = await import('./support/lambda');
  const { db } = await import('../lib/db/client');

  const client = rawClient();
  const size = users % 1000 === 0 ? `${users / 1000}k` : String(users);
  const started = performance.now();
  const data = await loadListDataset(client, table, { users, departments, prefix: `l${size}-` });
  progress(
    `list ${size}: loaded ${data.items} items in ${round((performance.now() - started) / 1000, 0)} s; ` +
      `largest department ${data.largest.id} (${data.largest.users} users)`,
  );

  meterCapacity();
  let log: string[] = [];
  let counterRcu = 0;
  // Calls in flight: a handler that answered while its reads go on (e.g. middy's early timeout, which does not stop
  // the work) would charge them to the next request, and slow it down.
  let inFlight = 0;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      log.push(context.commandName ?? 'unknown');
      inFlight++;
      try {
        const result = await next(args);
        // Lists read items from indexes only; what they read from the table itself is counters (and a department).
        if (!(args.input as { IndexName?: string }).IndexName) counterRcu += consumedUnits(result.output);
        return result;
      } finally {
        inFlight--;
      }
    },
    { step: 'initialize', name: 'listScaleCommandLog' },
  );
  const settle = async (request: string) => {
    if (inFlight === 0) return;
    progress(`list ${size}: ${request}: ${inFlight} DynamoDB call(s) still in flight after the answer; waiting for them`);
    while (inFlight > 0) await sleep(50);
  };

  const call = async (operationId: string, params: Record<string, string> | undefined, query: Record<string, string>): Promise<Call> => {
    const handler = await loadHandler(operationId);
    log = [];
    counterRcu = 0;
    const { result, capacity, ms } = await measure(async () => {
      try {
        const deadline = Date.now() + HANDLER_TIMEOUT_MS;
        const context = {
          ...lambdaContext(routeOf(operationId).name),
          getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
        };
        return await handler(routeEvent(operationId, { params, query }), context);
      } catch (error) {
        return { statusCode: 599, body: JSON.stringify({ thrown: String(error) }) };
      }
    });
    const body = ((): Record<string, unknown> | undefined => {
      try {
        return result.body ? JSON.parse(result.body) : undefined;
      } catch {
        return undefined;
      }
    })();
    await settle(`${operationId} ${paramsLabel(query)}`);
    return { status: result.statusCode, body, rcu: capacity.rcu, counterRcu, calls: log.length, commands: log, ms };
  };

  const departmentParams = { department_id: data.largest.id };
  const paramsOf = (operation: string) => (operation === 'listDepartmentUsers' ? departmentParams : undefined);

  // Warm-up: each handler loaded and the client connected, with a cheap request none of the rows makes (the audit
  // list's window bounded to its last day: a total over the whole trail would read all of it).
  for (const operation of [...USER_LISTS, 'listDepartments', 'G2']) await call(operation, paramsOf(operation), { count: '1' });
  await call('listAudit', undefined, { count: '1', since: new Date(Date.parse(DATASET_NOW) - 86_400_000).toISOString() });

  const rows: ListScaleRow[] = [];
  const only = process.env.BENCH_LIST_ONLY ? new RegExp(process.env.BENCH_LIST_ONLY) : undefined;
  const plan: Array<{ operation: string; set: ParameterSet }> = [
    ...USER_LISTS.flatMap((operation) => PARAMETER_SETS.map((set) => ({ operation, set }))),
    { operation: 'listAudit', set: { label: 'default', query: {} } },
    ...NAMED_REQUESTS,
  ].filter(({ operation, set }) => !only || only.test(`${operation} ${set.label}`));
  for (const [i, { operation, set }] of plan.entries()) {
    const request = `${operation} ${set.label}`;
    const params = paramsOf(operation);
    const row: ListScaleRow = {
      ...{ request, operation, users, status: null, applicable: true, rcu: null, calls: null, commands: '', scans: 0, ms: null, runs: 0 },
      ...{ min_rcu: null, counter_rcu: null, skipped: 0, page_items: null, page_bytes: null, rcu_over_min: null, rcu_ratio: null },
      params: set.cursorDepth ? `cursor (${set.cursorDepth} next_cursor followed)` : paramsLabel(set.query),
      ...(params ? { department: { id: data.largest.id, users: data.largest.users } } : {}),
      meets_goal: false,
    };
    let query = set.query;
    if (set.cursorDepth) {
      const walk = await walkCursor(call, operation, params, set.cursorDepth);
      if (walk.cursor === undefined) {
        rows.push({ ...row, applicable: false, status: walk.status, note: walk.note });
        progress(`list ${size}: [${i + 1}/${plan.length}] ${request}: not applicable (${walk.note})`);
        continue;
      }
      query = { cursor: walk.cursor };
      row.walk = { pages: walk.pages, rcu: round(walk.rcu, 1), ms: round(walk.ms, 0) };
      if (walk.note) row.note = walk.note;
    }
    const calls: Call[] = [];
    for (let run = 0; run < runs; run++) {
      const result = await call(operation, params, query);
      calls.push(result);
      if (result.ms > SLOW_CALL_MS) break;
    }
    const first = calls[0];
    row.status = calls.at(-1)!.status;
    row.runs = calls.length;
    row.rcu = round(median(calls.map((c) => c.rcu)), 1);
    row.calls = median(calls.map((c) => c.calls));
    row.commands = summarize(first.commands);
    row.scans = first.commands.filter((c) => c === 'ScanCommand').length;
    row.ms = round(median(calls.map((c) => c.ms)), 1);
    const timeout = (routeOf(operation).timeoutSeconds ?? DEPLOYED_TIMEOUT_S) * 1000;
    if (calls.some((c) => c.ms > timeout)) {
      row.note = `${row.note ? `${row.note}; ` : ''}over the deployed ${timeout / 1000} s Lambda timeout (a 503 in AWS)`;
    }
    if (first.status === 200 && first.body) {
      const page = await pageCost(client, table, first.body, data.keys);
      // The contract lets an offset read what it skips; the minimum does not: the page and the counters, as for a cursor.
      row.counter_rcu = round(median(calls.map((c) => c.counterRcu)), 1);
      row.skipped = Math.min(Number(set.query.offset ?? 0), Number(first.body.total ?? 0));
      const matched = set.prefixOver ? await prefixCost(client, table, set.prefixOver, PREFIX) : undefined;
      if (matched) row.prefix_matches = matched.items;
      row.min_rcu = round(Math.max(page.rcu, matched?.rcu ?? 0) + row.counter_rcu, 1);
      row.page_items = page.items;
      row.page_bytes = page.bytes;
      if (page.approximated > 0) row.note = `${row.note ? `${row.note}; ` : ''}${page.approximated} item sizes approximated from the JSON`;
    } else if (first.status !== 200) {
      row.note = `${row.note ? `${row.note}; ` : ''}answered ${first.status}: ${JSON.stringify(first.body ?? {}).slice(0, 200)}`;
    }
    rows.push(row);
    progress(
      `list ${size}: [${i + 1}/${plan.length}] ${request}: ${row.status}, ${row.rcu} RCU, ${row.calls} calls, ` +
        `${row.ms} ms (${row.runs > 1 ? `median of ${calls.map((c) => round(c.ms, 1)).join('/')}` : '1 run'}), min ${row.min_rcu ?? '-'}`,
    );
  }
  client.destroy();
  writeFileSync(out, JSON.stringify(rows));
}

function consumedUnits(output: unknown): number {
  const consumed = (output as { ConsumedCapacity?: { CapacityUnits?: number } | Array<{ CapacityUnits?: number }> }).ConsumedCapacity;
  return [consumed ?? []].flat().reduce((n, c) => n + (c.CapacityUnits ?? 0), 0);
}

type Caller = (operationId: string, params: Record<string, string> | undefined, query: Record<string, string>) => Promise<Call>;

/**
 * Follows next_cursor from the first page, `depth` times, and answers the cursor of the page to measure: the one
 * `depth` cursors deep, or the last page's when the list ends before. Undefined when the body has no next_cursor (the
 * list has no cursors) or the first page is the last.
 */
async function walkCursor(
  call: Caller,
  operation: string,
  params: Record<string, string> | undefined,
  depth: number,
): Promise<{ cursor?: string; pages: number; rcu: number; ms: number; status: number; note?: string }> {
  let page = await call(operation, params, {});
  let rcu = page.rcu;
  let ms = page.ms;
  if (page.status !== 200 || !page.body) return { pages: 1, rcu, ms, status: page.status, note: `first page answered ${page.status}` };
  if (!('next_cursor' in page.body)) return { pages: 1, rcu, ms, status: page.status, note: 'no next_cursor in the body' };
  let next = page.body.next_cursor;
  if (typeof next !== 'string') return { pages: 1, rcu, ms, status: page.status, note: 'the list fits one page' };
  let cursor = next;
  let pages = 1;
  while (pages < depth) {
    page = await call(operation, params, { cursor });
    rcu += page.rcu;
    ms += page.ms;
    pages++;
    if (page.status !== 200) return { pages, rcu, ms, status: page.status, note: `page ${pages} answered ${page.status}` };
    next = page.body?.next_cursor;
    if (typeof next !== 'string') {
      return { cursor, pages, rcu, ms, status: page.status, note: `the list ends at page ${pages}: its last page is measured` };
    }
    cursor = next;
  }
  // `cursor` is the depth-th next_cursor: the page measured is page depth + 1.
  return { cursor, pages: depth, rcu, ms, status: 200 };
}

/**
 * What reading the page itself costs: the returned items' sizes as stored (read back by key with the bench's own
 * client, not metered; an item not found is sized from its JSON), as one eventually consistent Query (0.5 RCU per 4 KB,
 * rounded up once).
 */
async function pageCost(
  client: Doc,
  table: string,
  body: Record<string, unknown>,
  keys: Map<string, { pk: string; sk: string }>,
): Promise<{ rcu: number; items: number; bytes: number; sizes: number[]; approximated: number }> {
  const list = Object.values(body).find(
    (value): value is Array<Record<string, unknown>> => Array.isArray(value) && value.every((v) => typeof v === 'object' && v !== null),
  );
  const returned = list ?? [];
  const stored = new Map<string, Record<string, unknown>>();
  const wanted = returned.map((item) => keys.get(String(item.id))).filter((key): key is { pk: string; sk: string } => key !== undefined);
  for (let i = 0; i < wanted.length; i += 100) {
    let pending: Array<{ pk: string; sk: string }> = wanted.slice(i, i + 100);
    while (pending.length > 0) {
      const result = await client.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending } } }));
      for (const item of result.Responses?.[table] ?? []) stored.set(`${String(item.pk)}|${String(item.sk)}`, item);
      pending = (result.UnprocessedKeys?.[table]?.Keys as Array<{ pk: string; sk: string }> | undefined) ?? [];
    }
  }
  let approximated = 0;
  const sizes = returned.map((item) => {
    const key = keys.get(String(item.id));
    const found = key && stored.get(`${key.pk}|${key.sk}`);
    if (found) return itemSize(found);
    approximated++;
    return Buffer.byteLength(JSON.stringify(item), 'utf8');
  });
  const bytes = sizes.reduce((a, b) => a + b, 0);
  return { rcu: queryUnits(sizes, false).rcu, items: returned.length, bytes, sizes, approximated };
}

if (process.env.BENCH_LIST_CHILD === '1') {
  child().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
