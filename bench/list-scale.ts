/**
 * List scale (docs/performance.md "Lists"): each list request at each size, a page of 100 through its handler, metered.
 * Each size loads support/list-dataset.ts into a table of its own from a fresh process (this file with BENCH_LIST_CHILD
 * set: support/tables.ts childPerSize); the parent pairs the sizes (judge).
 */
import { type Doc } from '../test/support/measure/dataset';
import { childPerSize, pageCost, queryAll, type ChildSizes, type ChildSpec } from './support/tables';
import { itemSize, query as queryUnits } from '../test/support/measure/item-units';
import { exitOnError, median, progress, round, sizeLabel } from './support/util';

export const LIST_GOALS = { ratio: 1.2, overMin: 2, ms: 300 } as const;
/** A call slower than SLOW_CALL_MS runs once; handlers are told they have Lambda's longest left, so a slow list is
 * measured rather than answered 503 (the row notes a call over the route's deployed timeout). */
const [SLOW_CALL_MS, HANDLER_TIMEOUT_MS, DEPLOYED_TIMEOUT_S] = [20_000, 15 * 60_000, 10];
/** The cursor row: `next_cursor`s followed before the page measured (page 101: the depth of offset=10000). */
const CURSOR_DEPTH = 100;

/**
 * A request at one size. RCU, calls and ms are medians of the runs, `commands` of the first, `status` of the last (null
 * when not applicable: no `next_cursor`). `min_rcu`: reading its own page (or what a name prefix matches, the larger)
 * plus `counter_rcu`; `rcu_ratio` (at the larger size): RCU over min_rcu, over the same at the smallest size.
 */
function newRow(request: string, operation: string, users: number, params: string) {
  return {
    ...{ request, operation, users, status: null as number | null, applicable: true, rcu: null as number | null },
    ...{ calls: null as number | null, commands: '', scans: 0, ms: null as number | null, runs: 0, min_rcu: null as number | null },
    ...{ counter_rcu: null as number | null, skipped: 0, page_items: null as number | null, page_bytes: null as number | null },
    ...{ rcu_over_min: null as number | null, rcu_ratio: null as number | null, params },
    /** listDepartmentUsers: the department listed (the largest). */
    department: undefined as { id: string; users: number } | undefined,
    prefix_matches: undefined as number | undefined,
    /** The cursor row: pages walked to reach the page measured, and what the walk cost. */
    walk: undefined as { pages: number; rcu: number; ms: number } | undefined,
    meets_goal: false,
    note: undefined as string | undefined,
  };
}
export type ListScaleRow = ReturnType<typeof newRow>;

/**
 * `prefixOver`: a name prefix over departments or groups, whose minimum is the larger of the page and one read of
 * every match; `cursorDepth`: follow next_cursor this many times from the first page, then measure.
 */
type ParameterSet = { label: string; query: Record<string, string>; prefixOver?: 'departments' | 'groups'; cursorDepth?: number };

/** A parameter set labelled by its query string. */
const parameters = (label: string): ParameterSet => ({
  label,
  query: label === 'default' ? {} : Object.fromEntries(new URLSearchParams(label)),
});
/** The parameter sets of each user list (a page of 100: count's default). */
export const PARAMETER_SETS: ParameterSet[] = [
  ...[
    'default',
    'query=account_role:admin',
    'activated=true',
    'activated=false',
    'last_login=never',
    'last_login=since:2026-05-01',
    'sort=last_login:desc',
    'sort=account_role',
    'query=account_role:admin&activated=true',
    'query=last_name:Sm',
    'offset=10000',
  ].map(parameters),
  { label: `cursor, page ${CURSOR_DEPTH + 1}`, query: {}, cursorDepth: CURSOR_DEPTH },
];

const USER_LISTS = ['E1', 'listUsers', 'listDepartmentUsers'] as const;

/** The named lists by `user_count` and under a name prefix (one name in twenty: support/list-dataset.ts). */
const PREFIX = 'eng';
const named = (operation: 'listDepartments' | 'G2', labels: string[]): Array<{ operation: string; set: ParameterSet }> =>
  labels.map((label) => {
    const prefixOver = label.includes(`name:${PREFIX}`) ? (operation === 'G2' ? 'groups' : 'departments') : undefined;
    return { operation, set: { ...parameters(label), prefixOver } };
  });
const BY_PREFIX = `query=name:${PREFIX}`;
export const NAMED_REQUESTS = [
  ...named('listDepartments', [BY_PREFIX, 'sort=user_count:desc', `sort=user_count:desc&${BY_PREFIX}`]),
  ...named('G2', [BY_PREFIX, 'sort=user_count', 'sort=user_count:desc', `sort=user_count:desc&${BY_PREFIX}`]),
];

/** One eventually consistent Query of every department or group whose name starts with `prefix` (read unmetered). */
async function prefixCost(client: Doc, table: string, over: 'departments' | 'groups', prefix: string) {
  const { INDEXES } = await import('../lib/db/table');
  const { foldCase } = await import('../lib/text');
  const list =
    over === 'groups' ? (await import('../lib/store/groups')).groupList : (await import('../lib/store/departments')).departmentList;
  const matches = await queryAll(client, {
    ...{ TableName: table, IndexName: INDEXES.byName.name, KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)' },
    ExpressionAttributeNames: { '#pk': INDEXES.byName.partitionKey, '#sk': INDEXES.byName.sortKey },
    ExpressionAttributeValues: { ':pk': list.byName().partition, ':prefix': foldCase(prefix) },
  });
  const sizes = matches.map((item) => itemSize(item));
  return { items: sizes.length, rcu: queryUnits(sizes, false).rcu };
}

export async function measureListScale(env: Record<string, string>, sizes: ChildSizes): Promise<ListScaleRow[]> {
  return judge(await childPerSize<ListScaleRow>(env, 'list', 'list-scale.ts', sizes), sizes.users);
}

/** Ratios and goals, each larger size against the smallest. */
function judge(rows: ListScaleRow[], sizes: number[]): ListScaleRow[] {
  const smallest = Math.min(...sizes);
  const base = new Map(rows.filter((r) => r.users === smallest).map((r) => [r.request, r]));
  return rows.map((row) => {
    const reference = base.get(row.request);
    // Each size's cost over its own minimum (pages differ: a short page, larger items); an empty page at the smaller
    // size (an offset past its end) is no measure of a page: only the other goals apply.
    const comparable = reference?.page_items !== 0 || row.page_items === 0;
    const rcuRatio =
      row.users !== smallest && row.rcu !== null && reference?.rcu && comparable
        ? row.min_rcu && reference.min_rcu
          ? round(row.rcu / row.min_rcu / (reference.rcu / reference.min_rcu), 2)
          : round(row.rcu / reference.rcu, 2)
        : null;
    const overMin = row.rcu !== null && row.min_rcu ? round(row.rcu / row.min_rcu, 2) : null;
    const cheapAndFast = overMin !== null && overMin <= LIST_GOALS.overMin && row.ms !== null && row.ms < LIST_GOALS.ms;
    const flat = row.users === smallest || !comparable || (rcuRatio !== null && rcuRatio <= LIST_GOALS.ratio);
    return { ...row, rcu_ratio: rcuRatio, rcu_over_min: overMin, meets_goal: row.applicable && row.status === 200 && cheapAndFast && flat };
  });
}

/** One line per request, the sizes side by side (for run.ts's table). */
export function listScaleTable(rows: ListScaleRow[], sizes: number[]): { headers: string[]; lines: Array<Array<string | number>> } {
  const [smallest, largest] = [Math.min(...sizes), Math.max(...sizes)];
  const cell = (value: number | null | undefined) => value ?? '-';
  const headers = [
    'request',
    ...sizes.flatMap((s) => [`RCU ${sizeLabel(s)}`, `calls ${sizeLabel(s)}`, `ms ${sizeLabel(s)}`]),
    ...[`min RCU ${sizeLabel(largest)}`, `× ${sizeLabel(smallest)}`, '× min', 'status', 'goal'],
  ];
  const lines = [...new Set(rows.map((r) => r.request))].map((request) => {
    const bySize = new Map(rows.filter((r) => r.request === request).map((r) => [r.users, r]));
    const big = bySize.get(largest);
    const all = [...bySize.values()];
    const applicable = all.every((r) => r.applicable);
    return [
      request,
      ...sizes.flatMap((s) => [cell(bySize.get(s)?.rcu), cell(bySize.get(s)?.calls), cell(bySize.get(s)?.ms)]),
      ...[cell(big?.min_rcu), cell(big?.rcu_ratio), cell(big?.rcu_over_min)],
      [...new Set(all.map((r) => (r.applicable ? String(r.status) : 'n/a')))].join('/'),
      applicable ? (all.every((r) => r.meets_goal) ? 'yes' : 'NO') : 'n/a',
    ];
  });
  return { headers, lines };
}

/** `counterRcu`: of `rcu`, what reading counters (and a department item) cost; `commands`: as `GetItem Query×2`. */
type Call = Record<'status' | 'rcu' | 'counterRcu' | 'calls' | 'scans' | 'ms', number> & {
  body?: Record<string, unknown>;
  commands: string;
};
type Caller = (operationId: string, params: Record<string, string> | undefined, query: Record<string, string>) => Promise<Call>;

const addNote = (row: ListScaleRow, note: string) => (row.note = row.note ? `${row.note}; ${note}` : note);

async function child(): Promise<void> {
  const { users, departments, runs } = JSON.parse(process.env.BENCH_LIST_CHILD!) as ChildSpec;
  const table = process.env.TABLE_NAME!;
  // lib/ modules only now (they read the environment on first use).
  const { rawClient } = await import('../test/support/measure/dataset');
  const { DATASET_NOW, loadListDataset } = await import('./support/list-dataset');
  const { meterCapacity } = await import('../test/support/measure/capacity-meter');
  const { metered, routeOf } = await import('../test/support/measure/handler-call');

  const client = rawClient();
  const size = sizeLabel(users);
  const data = await loadListDataset(client, table, { users, departments, prefix: `l${size}-` });

  meterCapacity();
  const call: Caller = async (operationId, params, query) => {
    const { status, body, capacity, ms } = await metered(operationId, { params, query }, HANDLER_TIMEOUT_MS);
    // Lists read items from indexes only; what they read from the table itself is counters (and a department).
    const { rcu, table_rcu: counterRcu, count: calls, calls: commands, scans } = capacity;
    return { status, body, rcu, counterRcu, calls, commands, scans, ms };
  };

  const paramsOf = (operation: string) => (operation === 'listDepartmentUsers' ? { department_id: data.largest.id } : undefined);
  // Warm-up: each handler loaded and the client connected, with a cheap request none of the rows makes (the audit
  // list's window bounded to its last day: a total over the whole trail would read all of it).
  for (const operation of [...USER_LISTS, 'listDepartments', 'G2']) await call(operation, paramsOf(operation), { count: '1' });
  await call('listAudit', undefined, { count: '1', since: new Date(Date.parse(DATASET_NOW) - 86_400_000).toISOString() });

  const rows: ListScaleRow[] = [];
  const only = process.env.BENCH_LIST_ONLY ? new RegExp(process.env.BENCH_LIST_ONLY) : undefined;
  const plan: Array<{ operation: string; set: ParameterSet }> = [
    ...USER_LISTS.flatMap((operation) => PARAMETER_SETS.map((set) => ({ operation, set }))),
    { operation: 'listAudit', set: parameters('default') },
    ...NAMED_REQUESTS,
  ].filter(({ operation, set }) => !only || only.test(`${operation} ${set.label}`));
  for (const [i, { operation, set }] of plan.entries()) {
    const request = `${operation} ${set.label}`;
    const params = paramsOf(operation);
    const row = newRow(request, operation, users, set.cursorDepth ? `cursor (${set.cursorDepth} next_cursor followed)` : set.label);
    if (params) row.department = data.largest;
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
    for (let run = 0; run < runs && (calls.at(-1)?.ms ?? 0) <= SLOW_CALL_MS; run++) calls.push(await call(operation, params, query));
    const first = calls[0];
    const mid = (key: 'rcu' | 'calls' | 'ms' | 'counterRcu') => median(calls.map((c) => c[key]));
    Object.assign(row, { status: calls.at(-1)!.status, runs: calls.length, rcu: round(mid('rcu'), 1), calls: mid('calls') });
    Object.assign(row, { ms: round(mid('ms'), 1), commands: first.commands, scans: first.scans });
    const timeout = (routeOf(operation).timeoutSeconds ?? DEPLOYED_TIMEOUT_S) * 1000;
    if (calls.some((c) => c.ms > timeout)) addNote(row, `over the deployed ${timeout / 1000} s Lambda timeout (a 503 in AWS)`);
    if (first.status === 200 && first.body) {
      const page = await pageCost(client, table, first.body, data.keys);
      // An offset gets no allowance for what it skips: the minimum is the page and the counters, as for a cursor.
      row.counter_rcu = round(mid('counterRcu'), 1);
      row.skipped = Math.min(Number(set.query.offset ?? 0), Number(first.body.total ?? 0));
      const matched = set.prefixOver ? await prefixCost(client, table, set.prefixOver, PREFIX) : undefined;
      if (matched) row.prefix_matches = matched.items;
      row.min_rcu = round(Math.max(page.rcu, matched?.rcu ?? 0) + row.counter_rcu, 1);
      Object.assign(row, { page_items: page.items, page_bytes: page.bytes });
      if (page.approximated > 0) addNote(row, `${page.approximated} item sizes approximated from the JSON`);
    } else if (first.status !== 200) {
      addNote(row, `answered ${first.status}: ${JSON.stringify(first.body ?? {}).slice(0, 200)}`);
    }
    rows.push(row);
    progress(
      `list ${size}: [${i + 1}/${plan.length}] ${request}: ${row.status}, ${row.rcu} RCU, ${row.calls} calls, ` +
        `${row.ms} ms (${row.runs > 1 ? `median of ${calls.map((c) => round(c.ms, 1)).join('/')}` : '1 run'}), min ${row.min_rcu ?? '-'}`,
    );
  }
  client.destroy();
  process.stdout.write(`${JSON.stringify(rows)}\n`);
}

/**
 * Follows next_cursor from the first page `depth` times and answers the cursor of the page to measure (or the last
 * page's when the list ends before); no cursor when the list has none or fits one page.
 */
async function walkCursor(call: Caller, operation: string, params: Record<string, string> | undefined, depth: number) {
  const walk = { cursor: undefined as string | undefined, pages: 0, rcu: 0, ms: 0, status: 0, note: undefined as string | undefined };
  while (walk.pages < depth) {
    const page = await call(operation, params, walk.cursor ? { cursor: walk.cursor } : {});
    Object.assign(walk, { pages: walk.pages + 1, rcu: walk.rcu + page.rcu, ms: walk.ms + page.ms, status: page.status });
    if (page.status !== 200 || !page.body) {
      return { ...walk, cursor: undefined, note: `${walk.pages === 1 ? 'first page' : `page ${walk.pages}`} answered ${page.status}` };
    }
    if (!('next_cursor' in page.body)) return { ...walk, note: 'no next_cursor in the body' };
    const next = page.body.next_cursor;
    const end = walk.pages === 1 ? 'the list fits one page' : `the list ends at page ${walk.pages}: its last page is measured`;
    if (typeof next !== 'string') return { ...walk, note: end };
    walk.cursor = next;
  }
  // The depth-th next_cursor: the page measured is page depth + 1.
  return walk;
}

if (process.env.BENCH_LIST_CHILD) exitOnError(child());
