/**
 * Rule-based groups (docs/performance.md "Rule-based groups"), `npm run bench -- --only=rules`.
 *
 * At each size (10,000 and 100,000 users: the lists' dataset, bench/support/list-dataset.ts, in a table of its own,
 * plus one department of 5,000 users built by bench/support/dataset.ts), through the handlers, metered as the other
 * sections meter (bench/support/capacity.ts: transactions charged by DynamoDB's rules from the items they touch):
 *
 * 1. Preview: the group PATCH's `?dry_run=true` with a rule — a new rule on an empty manual group (one department ×
 *    role × activated; two departments × role; no department, the 16 stats shards), and a change of an existing rule
 *    group's rule. "A page" is the RCU of listUsers' first page (100 users, no parameters) on the same table, read
 *    in the same run. Goals: ≤ 2× a page; flat between the sizes (≤ 1.2×).
 * 2. Applying a rule matching exactly 5,000 users (`department_id:<the department of 5,000>`): G3 with the rule, then
 *    the RuleWorker's `runPendingRuleWork` in process, every 200 ms as `npm start`'s poller calls it, until the
 *    group is `current` with 5,000 members. Twice: once timed with the meter counting units only, once with the
 *    transaction meter (which reads every transaction's items around it, so it is slower) for the write units.
 *    Minimum: the joins themselves — each join's two membership items (the group's side, the user's side) in a
 *    transaction, and the group's count once.
 * 3. A user PATCH that changes the user's cell (account_role member ↔ manager), median of runs, with no rule group
 *    and with RULE_GROUPS_MAX (500) rule groups, those beyond the ones the section made built by the store's builders
 *    (group, name claim, rule index entries, the rule-group counter), each naming a department other than the
 *    user's. Goal ≤ 1.2×. Beside it, the RuleWorker following that change (runRuleWork): its RCU and WCU.
 *
 * Then once, under the local stack as `npm start` runs it (bench/webhooks.ts startStack: every function from its
 * bundle, the RuleWorker's pollLocally every 200 ms): the follow delay. Rule groups are set through the API, users
 * made and the groups applied; then `writers` concurrent writers change users (PATCH role, PATCH activation, E2
 * moves, SCIM PATCH deactivation), and a watcher reads each rule group (G1) every 100 ms until each change's joins
 * and leaves show. Goal: p99 < 5 s.
 */
import { randomUUID } from 'node:crypto';
import type { Doc } from './support/dataset';
import { inTableOfItsOwn, rawClient } from './support/dataset';
import { itemSize, writeUnits } from './support/units';
import { median, pool, progress, round, sleep } from './support/util';

export const RULE_GOALS = { previewPages: 2, flat: 1.2, patchRatio: 1.2, followMs: 5_000 } as const;

export type RuleSizes = { users: number[]; departments: number; patchRuns: number; follow: { changes: number; writers: number } };

const APPLY_USERS = 5_000;

export interface RulePreviewRow {
  request: string;
  users: number;
  status: number;
  matching: number;
  joining: number;
  leaving: number;
  rcu: number;
  /** What G1 of the same group reads: the dry run answers the group with its users (the first 1,000) as G1 does. */
  group_rcu: number;
  page_rcu: number;
  pages: number;
  calls: string;
  ms: number;
  rcu_ratio: number | null;
  meets_goal: boolean;
}

export interface RuleApplyRow {
  users: number;
  members: number;
  seconds: number;
  metered_seconds: number;
  wcu: number;
  min_wcu: number;
  over_min: number;
  /** The ConditionCheck on each joining user the bulk protocol makes (it exists, and is not being deleted). */
  user_checks_wcu: number;
  /** The rest: the change's header and parts (written, then deleted), its commit and audit entries, the rule work. */
  other_wcu: number;
  rcu: number;
  calls: string;
}

export interface RulePatchRow {
  users: number;
  rule_groups: number;
  patch_wcu: number;
  patch_rcu: number;
  worker_rcu: number;
  worker_wcu: number;
  worker_calls: string;
  wcu_ratio: number | null;
  meets_goal: boolean | null;
}

export interface RuleFollowRow {
  changes: number;
  writers: number;
  rule_groups: number;
  reflected: number;
  p50_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
  /** From the answer to the `at` of the change's last rule join or leave in the audit trail: the worker's part. */
  committed_p50_ms: number | null;
  committed_p99_ms: number | null;
  by_kind: string;
  meets_goal: boolean;
  note?: string;
}

/** The value at or below which `p`% of `values` lie (nearest rank). */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

type Call = Awaited<ReturnType<typeof handlerCaller>>;

/** Calls route handlers in process, metered (bench/support/lambda.ts, capacity.ts). */
async function handlerCaller() {
  const { measure } = await import('./support/capacity');
  const { lambdaContext, loadHandler, routeEvent, routeOf } = await import('./support/lambda');
  return async (
    operationId: string,
    invocation: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown } = {},
    expected = [200, 201, 204],
  ) => {
    const handler = await loadHandler(operationId);
    const { result, capacity, ms } = await measure(() =>
      handler(routeEvent(operationId, invocation), lambdaContext(routeOf(operationId).name, 900_000)),
    );
    if (!expected.includes(result.statusCode))
      throw new Error(`rules: ${operationId} answered ${result.statusCode}: ${(result.body ?? '').slice(0, 300)}`);
    return { status: result.statusCode, body: JSON.parse(result.body ?? '{}') as Record<string, unknown>, capacity, ms };
  };
}

/** The lists' users and departments (no audit trail or groups: this section reads neither) and a department of 5,000. */
async function loadDataset(client: Doc, table: string, users: number, departments: number) {
  const { makeListDataset, itemsFor } = await import('./support/list-dataset');
  const { addCounters, batchPut, loadDataset: loadSmall, sendCounterWrites } = await import('./support/dataset');
  const started = performance.now();
  const prefix = `r${users}-`;
  const dataset = makeListDataset({ users, departments, prefix });
  const built = itemsFor(dataset.users, dataset.departments);
  const { counters, counterWrites } = built;
  // No e-mail or user-name claims: nothing here reads or changes them, and they are half the items.
  const items = built.items.filter((item) => item.type !== 'email' && item.type !== 'user_name');
  for (let done = 0; done < items.length; done += 20_000) {
    await batchPut(client, table, items.slice(done, done + 20_000), 16);
    progress(
      `rules ${users}: ${Math.min(done + 20_000, items.length)}/${items.length} items (${round((performance.now() - started) / 1000, 0)} s)`,
    );
  }
  await addCounters(client, table, counters);
  await sendCounterWrites(client, table, counterWrites);
  const apply = await loadSmall(client, table, {
    ...{ prefix: `r${users}a-`, departments: 1, usersPerDepartment: APPLY_USERS },
    ...{ unassignedUsers: 0, groups: 0, usersPerGroup: 0 },
  });
  // The existing rule group's department: the same few users at every size (the dry run answers its members too).
  const few = await loadSmall(client, table, {
    ...{ prefix: `r${users}e-`, departments: 1, usersPerDepartment: 10 },
    ...{ unassignedUsers: 0, groups: 0, usersPerGroup: 0 },
  });
  progress(`rules ${users}: loaded in ${round((performance.now() - started) / 1000, 0)} s`);
  // Departments by size, largest first.
  const sizes = new Map<string, number>();
  for (const user of dataset.users) if (user.department_id) sizes.set(user.department_id, (sizes.get(user.department_id) ?? 0) + 1);
  const bySize = [...sizes].sort((a, b) => b[1] - a[1]).map(([id]) => id);
  return { dataset, bySize, applyDepartment: apply.departments[0], fewDepartment: few.departments[0] };
}

/** Runs the pending rule work, as `npm start`'s poller does every 200 ms, until `done`; answers the seconds it took. */
async function runWorkUntil(done: () => Promise<boolean>, limitMs = 600_000): Promise<number> {
  const { runPendingRuleWork } = await import('../lib/groups/rule-follow');
  const started = performance.now();
  while (!(await done())) {
    if (performance.now() - started > limitMs) throw new Error('rules: the rule work did not finish in time');
    const ran = await runPendingRuleWork();
    if (ran === 0) await sleep(200);
  }
  return (performance.now() - started) / 1000;
}

/** The group as stored, read by the bench's own client (not metered). */
async function groupState(client: Doc, table: string, id: string) {
  const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const { groupKey } = await import('../lib/store/groups');
  const { Item: item } = await client.send(new GetCommand({ TableName: table, Key: groupKey(id), ConsistentRead: true }));
  return { status: item?.rule_status as string | undefined, members: Number(item?.user_count ?? 0), item };
}

/** The floor of a join (see the top of this file): its two membership items as new items in a transaction, and their index copies. */
async function joinFloor(groupId: string, users: string[]): Promise<number> {
  const { findGroupItem } = await import('../lib/store/groups');
  const { membershipItems } = await import('../lib/store/memberships');
  const { chargedUnits } = await import('./support/capacity');
  const group = await findGroupItem(groupId);
  const ref = { id: groupId, generation: String(group!.generation) };
  const now = new Date().toISOString();
  let wcu = 0;
  for (const user of users)
    for (const item of membershipItems(ref, user, now)) wcu += chargedUnits('Put', undefined, item as Record<string, unknown>).wcu;
  // The group's count, once (it moves by the whole change in one write).
  return wcu + 2 * writeUnits(itemSize(group));
}

/** Builds `n` rule groups as the store writes them (each `current`, naming one of `departments`), with the counters. */
async function loadRuleGroups(client: Doc, table: string, n: number, departments: string[], prefix: string) {
  const { batchPut, addCounters, sendCounterWrites } = await import('./support/dataset');
  const { newGroupItem, countRuleGroupsWrite } = await import('../lib/store/groups');
  const { groupNameItem } = await import('../lib/store/group-names');
  const { ruleIndexPut } = await import('../lib/store/rules');
  const { GROUPS_COUNTER } = await import('../lib/store/stats');
  const now = new Date().toISOString();
  const items: Array<Record<string, unknown>> = [];
  for (let g = 0; g < n; g++) {
    const id = `${prefix}g${g}`;
    const name = `Rule group ${prefix}${g}`;
    const department = departments[g % departments.length];
    const rule = { text: `department_id:${department},account_role:admin`, version: randomUUID() };
    const group = newGroupItem({ id, name, description: '', external_id: null }, randomUUID(), now, {
      ...{ state: 'active', user_count: 0, version: 1, rule },
    });
    const index = ruleIndexPut(department, id, rule.text, rule.version).item.Put!.Item as Record<string, unknown>;
    // Their members are not written: a user PATCH in another department reads none of them, and the worker reads only the index.
    items.push({ ...group, rule_status: 'current' }, groupNameItem(id, name), index);
  }
  await batchPut(client, table, items, 16);
  await addCounters(client, table, { [GROUPS_COUNTER]: n });
  await sendCounterWrites(client, table, [countRuleGroupsWrite(n, Number.MAX_SAFE_INTEGER, () => new Error('never'))]);
}

async function ruleGroupCount(client: Doc, table: string): Promise<number> {
  const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const found = await client.send(new GetCommand({ TableName: table, Key: { pk: 'RULEGROUPS', sk: 'COUNT' }, ConsistentRead: true }));
  return Number(found.Item?.rule_groups ?? 0);
}

/** `runs` PATCHes of one user's account_role (member ↔ manager), each followed by the RuleWorker, metered. */
async function measurePatches(call: Call, userId: string, runs: number) {
  const { measure } = await import('./support/capacity');
  const { runRuleWork } = await import('../lib/groups/rule-follow');
  const patches: Array<{ wcu: number; rcu: number }> = [];
  const workers: Array<{ wcu: number; rcu: number; calls: string }> = [];
  for (let run = 0; run < runs; run++) {
    const role = run % 2 === 0 ? 'manager' : 'member';
    const patched = await call('updateUser', { params: { user_id: userId }, body: { account_role: role } });
    patches.push(patched.capacity);
    const worked = await measure(() => runRuleWork('user', userId));
    if (!worked.result) throw new Error('rules: the RuleWorker left the user work to be tried again');
    workers.push(worked.capacity);
  }
  return {
    patch_wcu: median(patches.map((p) => p.wcu)),
    patch_rcu: median(patches.map((p) => p.rcu)),
    worker_rcu: median(workers.map((w) => w.rcu)),
    worker_wcu: median(workers.map((w) => w.wcu)),
    worker_calls: workers.at(-1)!.calls,
  };
}

async function measureSize(env: Record<string, string>, client: Doc, users: number, sizes: RuleSizes) {
  return inTableOfItsOwn(env, `${env.TABLE_NAME}-rules-${users}`, async (table) => {
    process.env.TABLE_NAME = table;
    const { dataset, bySize, applyDepartment, fewDepartment } = await loadDataset(client, table, users, sizes.departments);
    const { meterCapacity, stopMetering } = await import('./support/capacity');
    const call = await handlerCaller();
    meterCapacity(client, table);

    // "A page": listUsers' first page of 100, as the lists section reads it.
    await call('listUsers', { query: { count: '1' } }); // warm-up
    const pageRuns = [];
    for (let run = 0; run < 3; run++) pageRuns.push((await call('listUsers')).capacity.rcu);
    const pageRcu = median(pageRuns);

    // 3 (first half): a user PATCH with no rule group, in a department of median size.
    const patchUser = dataset.users.find((u) => u.department_id !== null && u.account_role === 'member')!;
    const patchDepartment = patchUser.department_id!;
    const patchNone = await measurePatches(call, patchUser.id, sizes.patchRuns);
    progress(`rules ${users}: user PATCH with 0 rule groups: ${patchNone.patch_wcu} WCU; its following ${patchNone.worker_rcu} RCU`);

    // 1: previews. An empty manual group, and a rule group of the same 7 members at every size (the dry run answers them too).
    const [largest, second] = bySize;
    const manual = String((await call('createGroup', { body: { name: `Preview ${users}` } })).body.id);
    const existing = String(
      (await call('createGroup', { body: { name: `Existing ${users}`, rule: `department_id:${fewDepartment},account_role:member` } })).body
        .id,
    );
    await runWorkUntil(async () => (await groupState(client, table, existing)).status === 'current');
    const previews: Array<{ request: string; group: string; rule: string }> = [
      {
        request: 'new rule: 1 department × role × activated',
        group: manual,
        rule: `department_id:${largest},account_role:member,activated:true`,
      },
      {
        request: 'new rule: 2 departments × role',
        group: manual,
        rule: `department_id:${largest},department_id:${second},account_role:manager`,
      },
      { request: 'new rule: no department (role × activated)', group: manual, rule: 'account_role:admin,activated:true' },
      { request: 'rule change of a rule group', group: existing, rule: `department_id:${largest},account_role:admin` },
    ];
    const previewRows: RulePreviewRow[] = [];
    for (const { request, group, rule } of previews) {
      const runs = [];
      for (let run = 0; run < 3; run++)
        runs.push(await call('updateGroup', { params: { group_id: group }, query: { dry_run: 'true' }, body: { rule } }));
      const last = runs.at(-1)!;
      const preview = last.body.rule_preview as { matching: number; joining: number; leaving: number };
      const rcu = median(runs.map((r) => r.capacity.rcu));
      const groupRcu = (await call('getGroup', { params: { group_id: group } })).capacity.rcu;
      previewRows.push({
        ...{ request, users, status: last.status, matching: preview.matching, joining: preview.joining, leaving: preview.leaving },
        ...{ rcu, group_rcu: groupRcu, page_rcu: pageRcu, pages: round(rcu / pageRcu, 2), calls: last.capacity.calls },
        ...{ ms: round(median(runs.map((r) => r.ms)), 1), rcu_ratio: null, meets_goal: false },
      });
      progress(`rules ${users}: preview ${request}: ${rcu} RCU (a page ${pageRcu})`);
    }

    // 2: applying a rule matching 5,000 users. Timed with the units meter only, then again with the transaction meter.
    const applyRule = `department_id:${applyDepartment}`;
    const applyOnce = async (name: string) => {
      const created = await call('createGroup', { body: { name, rule: applyRule } });
      const id = String(created.body.id);
      const { measure } = await import('./support/capacity');
      const run = await measure(() =>
        runWorkUntil(async () => {
          const state = await groupState(client, table, id);
          return state.status === 'current' && state.members === APPLY_USERS;
        }),
      );
      return { id, seconds: run.result, capacity: run.capacity, createWcu: created.capacity.wcu };
    };
    stopMetering();
    meterCapacity(); // units only: no reads around each transaction
    const timedRun = await applyOnce(`Apply timed ${users}`);
    progress(`rules ${users}: applying ${APPLY_USERS} joins: ${round(timedRun.seconds, 1)} s`);
    meterCapacity(client, table);
    const meteredRun = await applyOnce(`Apply metered ${users}`);
    const members = (await groupState(client, table, meteredRun.id)).members;
    const { memberIds } = await import('../lib/store/memberships');
    const { findGroupItem } = await import('../lib/store/groups');
    const groupItem = await findGroupItem(meteredRun.id);
    const joined = await memberIds({ id: meteredRun.id, generation: String(groupItem!.generation) });
    const minWcu = await joinFloor(meteredRun.id, joined);
    const { batchGet } = await import('./support/dataset');
    const { userKey } = await import('../lib/store/users');
    const { chargedUnits } = await import('./support/capacity');
    const joinedUsers = await batchGet(
      client,
      table,
      joined.map((id) => userKey(id)),
    );
    const checksWcu = joinedUsers.reduce<number>((n, user) => n + chargedUnits('ConditionCheck', user, user).wcu, 0);
    const wcu = meteredRun.capacity.wcu;
    const applyRow: RuleApplyRow = {
      ...{ users, members, seconds: round(timedRun.seconds, 1), metered_seconds: round(meteredRun.seconds, 1) },
      ...{ wcu, min_wcu: minWcu, over_min: round(wcu / minWcu, 2) },
      ...{ user_checks_wcu: checksWcu, other_wcu: round(wcu - minWcu - checksWcu) },
      ...{ rcu: meteredRun.capacity.rcu, calls: meteredRun.capacity.calls },
    };
    progress(`rules ${users}: applying ${APPLY_USERS} joins: ${applyRow.wcu} WCU (min ${minWcu}), ${applyRow.rcu} RCU`);

    // 3 (second half): as many rule groups as allowed, those the section made included, none naming the user's department.
    const { config } = await import('../lib/config');
    const max = config().ruleGroups.maxGroups;
    const present = await ruleGroupCount(client, table);
    const others = bySize.filter((d) => d !== patchDepartment);
    await loadRuleGroups(client, table, max - present, others, `r${users}r-`);
    const defined = await ruleGroupCount(client, table);
    const patchFull = await measurePatches(call, patchUser.id, sizes.patchRuns);
    progress(
      `rules ${users}: user PATCH with ${defined} rule groups: ${patchFull.patch_wcu} WCU; its following ${patchFull.worker_rcu} RCU`,
    );
    stopMetering();
    const ratio = round(patchFull.patch_wcu / patchNone.patch_wcu, 2);
    const patchRows: RulePatchRow[] = [
      { users, rule_groups: 0, ...patchNone, wcu_ratio: null, meets_goal: null },
      { users, rule_groups: defined, ...patchFull, wcu_ratio: ratio, meets_goal: ratio <= RULE_GOALS.patchRatio },
    ];
    return { previewRows, applyRow, patchRows };
  });
}

/** The preview's goals: within 2× a page, and flat (its pages at the larger size over those at the smaller). */
function judgePreviews(rows: RulePreviewRow[], smallest: number): RulePreviewRow[] {
  const base = new Map(rows.filter((r) => r.users === smallest).map((r) => [r.request, r]));
  return rows.map((row) => {
    const ratio = row.users === smallest ? null : round(row.rcu / base.get(row.request)!.rcu, 2);
    const flat = ratio === null || ratio <= RULE_GOALS.flat;
    return { ...row, rcu_ratio: ratio, meets_goal: row.status === 200 && row.pages <= RULE_GOALS.previewPages && flat };
  });
}

// --- the follow delay, under the local stack ---------------------------------------------

async function measureFollow(env: Record<string, string>, options: { changes: number; writers: number }): Promise<RuleFollowRow> {
  const { startStack, WRITE_TOKEN } = await import('./webhooks');
  return inTableOfItsOwn(env, `${env.TABLE_NAME}-rules-follow`, async (table) => {
    const stack = await startStack(env, table);
    const client = rawClient();
    const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
    const { groupKey } = await import('../lib/store/groups');
    const { groupMemberKey } = await import('../lib/store/memberships');
    const generations = new Map<string, string>();
    // The membership item G1 lists the user by, read strongly consistent: the group reflects the change when it does.
    const isMember = async (groupId: string, userId: string) => {
      if (!generations.has(groupId)) {
        const group = await client.send(new GetCommand({ TableName: table, Key: groupKey(groupId), ConsistentRead: true }));
        generations.set(groupId, String(group.Item?.generation));
      }
      const key = groupMemberKey({ id: groupId, generation: generations.get(groupId)! }, userId);
      return (await client.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item !== undefined;
    };
    try {
      return await followRun(stack.url, WRITE_TOKEN, options, stack.problems, isMember);
    } finally {
      client.destroy();
      await stack.close();
    }
  });
}

async function followRun(
  base: string,
  writeToken: string,
  options: { changes: number; writers: number },
  problems: () => string[],
  isMember: (groupId: string, userId: string) => Promise<boolean>,
): Promise<RuleFollowRow> {
  let scimToken = '';
  const call = async (method: string, path: string, body?: unknown, scim = false) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${scim ? scimToken : writeToken}`,
        ...(body === undefined ? {} : { 'content-type': scim ? 'application/scim+json' : 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`rules follow: ${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return { body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, answeredAt: Date.now() };
  };
  scimToken = String((await call('POST', '/v2/scim/tokens', { description: 'rules bench' })).body.token);
  const [a, b] = ['rf-a', 'rf-b'];
  for (const id of [a, b]) await call('POST', '/v2/departments', { id, name: `Rules bench ${id}` });
  // Each kind of change, what it makes the user join and leave.
  const rules = {
    activeA: `department_id:${a},activated:true`,
    managersA: `department_id:${a},account_role:manager`,
    activeB: `department_id:${b},activated:true`,
    inactive: `department_id:${a},department_id:${b},activated:false`,
    admins: 'account_role:admin,activated:true',
  };
  const groups: Record<string, string> = {};
  for (const [name, rule] of Object.entries(rules))
    groups[name] = String((await call('POST', '/v2/groups', { name: `Rules bench ${name}`, rule })).body.id);
  const kinds = [
    { kind: 'PATCH account_role', joins: ['managersA'], leaves: [] as string[] },
    { kind: 'PATCH activated', joins: ['inactive'], leaves: ['activeA'] },
    { kind: 'E2 move', joins: ['activeB'], leaves: ['activeA'] },
    { kind: 'SCIM PATCH active', joins: ['inactive'], leaves: ['activeA'] },
    { kind: 'PATCH to admin', joins: ['admins'], leaves: [] as string[] },
  ];
  const users = Array.from({ length: options.changes }, (_, i) => `rf-u${i}`);
  await pool(users, 8, async (id) => {
    await call('POST', '/v2/users', { id, email: `${id}@example.com`, first_name: 'Rule', last_name: 'Bench', activated: true });
  });
  for (let i = 0; i < users.length; i += 1000) await call('POST', `/v2/departments/${a}/users`, { user_ids: users.slice(i, i + 1000) });
  const members = async (name: string) => {
    const group = (await call('GET', `/v2/groups/${groups[name]}`)).body;
    return {
      ids: new Set((group.users as Array<{ id: string }>).map((u) => u.id)),
      status: String(group.rule_status),
      count: Number(group.user_count),
    };
  };
  // Every user in activeA, the rule groups current.
  for (const started = Date.now(); ;) {
    const states = await Promise.all(Object.keys(groups).map(members));
    if (states.every((s) => s.status === 'current') && states[0].count === users.length) break;
    if (Date.now() - started > 120_000)
      throw new Error(`rules follow: setup did not settle: ${JSON.stringify(states.map((s) => [s.status, s.count]))}`);
    await sleep(250);
  }
  progress(
    `rules follow: ${users.length} users in ${Object.keys(groups).length} rule groups; ${options.changes} changes from ${options.writers} writers`,
  );

  const pending = new Map<string, { kind: string; answeredAt?: number; joins: string[]; leaves: string[] }>();
  const delays = new Map<string, number>();
  let writing = true;
  // The watcher: every 100 ms, the membership items of each answered change's joins and leaves, read directly (G1 lists
  // members by those items; reading 5 groups' members through G1 every round loaded the stack it measures, and added
  // its own rounds, seconds under load, to every delay). A change is reflected when all of them are as it wants.
  const watcher = (async () => {
    while (writing || [...pending.values()].some((p) => p.answeredAt !== undefined)) {
      const answered = [...pending].filter(([, change]) => change.answeredAt !== undefined);
      await pool(answered, 16, async ([user, change]) => {
        const joined = await Promise.all(change.joins.map((g) => isMember(groups[g], user)));
        const left = await Promise.all(change.leaves.map(async (g) => !(await isMember(groups[g], user))));
        if ([...joined, ...left].every(Boolean)) {
          delays.set(user, Math.max(0, Date.now() - change.answeredAt!));
          pending.delete(user);
        }
      });
      if (!writing && [...pending.values()].every((p) => p.answeredAt !== undefined) && pending.size > 0) {
        const oldest = Math.min(...[...pending.values()].map((p) => p.answeredAt!));
        if (Date.now() - oldest > 60_000) break;
      }
      await sleep(100);
    }
  })();
  const kindOf = new Map<string, string>();
  const answeredAt = new Map<string, number>();
  await pool(
    users.map((user, i) => ({ user, change: kinds[i % kinds.length] })),
    options.writers,
    async ({ user, change }) => {
      kindOf.set(user, change.kind);
      pending.set(user, { kind: change.kind, joins: change.joins, leaves: change.leaves });
      const answered =
        change.kind === 'PATCH account_role'
          ? await call('PATCH', `/v2/users/${user}`, { account_role: 'manager' })
          : change.kind === 'PATCH activated'
            ? await call('PATCH', `/v2/users/${user}`, { activated: false })
            : change.kind === 'E2 move'
              ? await call('POST', `/v2/departments/${b}/users/${user}`)
              : change.kind === 'SCIM PATCH active'
                ? await call(
                    'PATCH',
                    `/scim/v2/Users/${user}`,
                    {
                      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
                      Operations: [{ op: 'replace', value: { active: false } }],
                    },
                    true,
                  )
                : await call('PATCH', `/v2/users/${user}`, { account_role: 'admin' });
      answeredAt.set(user, answered.answeredAt);
      const entry = pending.get(user);
      if (entry) entry.answeredAt = answered.answeredAt;
    },
  );
  writing = false;
  await watcher;
  // When the RuleWorker committed each change's joins and leaves: the `at` of its rule:<group> audit entries.
  const committedAt = new Map<string, number>();
  for (const id of Object.values(groups)) {
    for (let cursor: string | undefined; ;) {
      const query = `query=${encodeURIComponent(`actor:rule:${id}`)}&count=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = (await call('GET', `/v2/audit?${query}`)).body;
      for (const entry of page.entries as Array<{ at: string; changes: { added_user_ids?: string[]; removed_user_ids?: string[] } }>) {
        for (const user of [...(entry.changes.added_user_ids ?? []), ...(entry.changes.removed_user_ids ?? [])]) {
          if (entry.changes.added_user_ids && entry.changes.added_user_ids.length > 1) continue; // the rule's first application
          committedAt.set(user, Math.max(committedAt.get(user) ?? 0, Date.parse(entry.at)));
        }
      }
      if (!page.next_cursor || (page.entries as unknown[]).length === 0) break;
      cursor = String(page.next_cursor);
    }
  }
  const committed = users
    .filter((user) => answeredAt.has(user) && committedAt.has(user))
    .map((user) => Math.max(0, committedAt.get(user)! - answeredAt.get(user)!));
  const values = [...delays.values()];
  const stat = (p: number) => (values.length ? Math.round(percentile(values, p)) : null);
  const byKind = kinds
    .map(({ kind }) => {
      const of = [...delays].filter(([user]) => kindOf.get(user) === kind).map(([, ms]) => ms);
      return `${kind} p50 ${of.length ? Math.round(median(of)) : '-'} ms`;
    })
    .join('; ');
  const p99 = stat(99);
  const issues = problems();
  return {
    ...{ changes: options.changes, writers: options.writers, rule_groups: Object.keys(groups).length, reflected: values.length },
    ...{ p50_ms: stat(50), p99_ms: p99, max_ms: values.length ? Math.max(...values) : null },
    ...{ committed_p50_ms: committed.length ? Math.round(percentile(committed, 50)) : null },
    ...{ committed_p99_ms: committed.length ? Math.round(percentile(committed, 99)) : null, by_kind: byKind },
    meets_goal: values.length === options.changes && p99 !== null && p99 < RULE_GOALS.followMs,
    ...(issues.length ? { note: `${issues.length} function errors: ${issues.slice(0, 3).join(' | ')}` } : {}),
  };
}

export async function measureRules(env: Record<string, string>, sizes: RuleSizes) {
  const client = rawClient();
  const original = process.env.TABLE_NAME;
  try {
    const previews: RulePreviewRow[] = [];
    const applies: RuleApplyRow[] = [];
    const patches: RulePatchRow[] = [];
    for (const users of sizes.users) {
      const { previewRows, applyRow, patchRows } = await measureSize(env, client, users, sizes);
      previews.push(...previewRows);
      applies.push(applyRow);
      patches.push(...patchRows);
    }
    process.env.TABLE_NAME = original;
    const follow = await measureFollow(env, sizes.follow);
    progress(`rules follow: ${follow.reflected}/${follow.changes} reflected; p50 ${follow.p50_ms} ms, p99 ${follow.p99_ms} ms`);
    return { previews: judgePreviews(previews, Math.min(...sizes.users)), applies, patches, follow };
  } finally {
    process.env.TABLE_NAME = original;
    client.destroy();
  }
}
