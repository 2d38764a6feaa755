/**
 * Rule-based groups, `npm run bench -- --only=rules` (what each part does and why: docs/performance.md "Rule-based
 * groups"). At each size, on the lists' dataset in a table of its own, through the handlers, metered: (1) the
 * preview's read units against a page of listUsers, (2) applying a rule matching 5,000 users against the joins'
 * own write units, (3) a user PATCH with no rule group and with the most allowed. Then once, under `npm start`'s
 * stack (support/stack.ts), (4) the follow delay: from a user change's answer until its rule groups show it.
 */
import { randomUUID } from 'node:crypto';
import { chargedUnits, measure, meterCapacity, stopMetering } from '../test/support/measure/capacity-meter';
import { addCounters, batchPut, loadDataset as loadSmall, rawClient, sendCounterWrites, type Doc } from '../test/support/measure/dataset';
import { batchGet, inTableOfItsOwn, putMany, getItem } from './support/tables';
import { metered, type Invocation } from '../test/support/measure/handler-call';
import { itemSize, writeUnits } from '../test/support/measure/item-units';
import { latencies, median, percentile, pool, progress, round, sleep } from './support/util';

export const RULE_GOALS = { previewPages: 2, flat: 1.2, patchRatio: 1.2, followMs: 5_000 } as const;

export type RuleSizes = { users: number[]; departments: number; patchRuns: number; follow: { changes: number; writers: number } };

const APPLY_USERS = 5_000;

/** A handler call, metered; told it has 15 minutes, so that a slow machine measures instead of timing out. */
async function call(operationId: string, invocation: Invocation = {}) {
  const answer = await metered(operationId, invocation, 900_000);
  if (answer.status >= 300) throw new Error(`rules: ${operationId} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  return { ...answer, body: answer.body ?? {} };
}

/** The lists' users and departments (no audit trail or groups: this section reads neither), a department of 5,000 and one of 10. */
async function loadDataset(client: Doc, table: string, users: number, departments: number) {
  const { makeListDataset, itemsFor } = await import('./support/list-dataset');
  const started = performance.now();
  const dataset = makeListDataset({ users, departments, prefix: `r${users}-` });
  const built = itemsFor(dataset.users, dataset.departments);
  // No e-mail or user-name claims: nothing here reads or changes them, and they are half the items.
  const items = built.items.filter((item) => item.type !== 'email' && item.type !== 'user_name');
  await putMany(client, table, items, `rules ${users}`);
  await addCounters(client, table, built.counters);
  await sendCounterWrites(client, table, built.counterWrites);
  const none = { departments: 1, unassignedUsers: 0, groups: 0, usersPerGroup: 0 };
  const department = async (prefix: string, usersPerDepartment: number) =>
    (await loadSmall(client, table, { ...none, prefix, usersPerDepartment })).departments[0];
  const applyDepartment = await department(`r${users}a-`, APPLY_USERS);
  // The existing rule group's department: the same few users at every size (the dry run answers its members too).
  const fewDepartment = await department(`r${users}e-`, 10);
  progress(`rules ${users}: loaded in ${round((performance.now() - started) / 1000, 0)} s`);
  const sizes = new Map<string, number>();
  for (const user of dataset.users) if (user.department_id) sizes.set(user.department_id, (sizes.get(user.department_id) ?? 0) + 1);
  const bySize = [...sizes].sort((a, b) => b[1] - a[1]).map(([id]) => id);
  return { dataset, bySize, applyDepartment, fewDepartment };
}

/** Runs the pending rule work, as `npm start`'s poller does every 200 ms, until `done`; answers the seconds it took. */
async function runWorkUntil(done: () => Promise<boolean>, limitMs = 600_000): Promise<number> {
  const { runPendingRuleWork } = await import('../lib/groups/rule-work');
  const started = performance.now();
  while (!(await done())) {
    if (performance.now() - started > limitMs) throw new Error('rules: the rule work did not finish in time');
    if ((await runPendingRuleWork()) === 0) await sleep(200);
  }
  return (performance.now() - started) / 1000;
}

async function groupState(client: Doc, table: string, id: string) {
  const item = await getItem(client, table, (await import('../lib/store/groups')).groupKey(id));
  return { status: item?.rule_status as string | undefined, members: Number(item?.user_count ?? 0) };
}

/** The rule groups the table holds (its counter). */
const ruleGroupCount = async (client: Doc, table: string) =>
  Number((await getItem(client, table, { pk: 'RULEGROUPS', sk: 'COUNT' }))?.rule_groups ?? 0);

/** Builds `n` rule groups as the store writes them (each `current`, naming one of `departments`), with the counters. */
async function loadRuleGroups(client: Doc, table: string, n: number, departments: string[], prefix: string) {
  const { newGroupItem, countRuleGroupsWrite } = await import('../lib/store/groups');
  const { groupNameItem } = await import('../lib/store/group-names');
  const { ruleIndexPut } = await import('../lib/store/rules');
  const { GROUPS_COUNTER } = await import('../lib/store/stats');
  const now = new Date().toISOString();
  const items: Array<Record<string, unknown>> = [];
  for (let g = 0; g < n; g++) {
    const [id, name, department] = [`${prefix}g${g}`, `Rule group ${prefix}${g}`, departments[g % departments.length]];
    const rule = { text: `department_id:${department},account_role:admin`, version: randomUUID() };
    const published = { state: 'active' as const, user_count: 0, version: 1, rule };
    const group = newGroupItem({ id, name, description: '', external_id: null }, randomUUID(), now, published);
    // Their members are not written: a user PATCH in another department reads none of them, and the worker reads only the index.
    items.push(
      { ...group, rule_status: 'current' },
      groupNameItem(id, name),
      ruleIndexPut(department, id, rule.text, rule.version).item.Put!.Item!,
    );
  }
  await batchPut(client, table, items, 16);
  await addCounters(client, table, { [GROUPS_COUNTER]: n });
  await sendCounterWrites(client, table, [countRuleGroupsWrite(n, Number.MAX_SAFE_INTEGER, () => new Error('never'))]);
}

/** `runs` PATCHes of one user's account_role (member ↔ manager), each followed by the RuleWorker, metered. */
async function measurePatches(userId: string, runs: number) {
  const { runRuleWork } = await import('../lib/groups/rule-work');
  const [patches, workers] = [[] as Array<{ wcu: number; rcu: number }>, [] as Array<{ wcu: number; rcu: number; calls: string }>];
  for (let run = 0; run < runs; run++) {
    patches.push(
      (await call('updateUser', { params: { user_id: userId }, body: { account_role: run % 2 === 0 ? 'manager' : 'member' } })).capacity,
    );
    const worked = await measure(() => runRuleWork('user', userId));
    if (!worked.result) throw new Error('rules: the RuleWorker left the user work to be tried again');
    workers.push(worked.capacity);
  }
  const mid = (of: Array<{ wcu: number; rcu: number }>, key: 'wcu' | 'rcu') => median(of.map((c) => c[key]));
  return {
    ...{ patch_wcu: mid(patches, 'wcu'), patch_rcu: mid(patches, 'rcu'), worker_rcu: mid(workers, 'rcu'), worker_wcu: mid(workers, 'wcu') },
    worker_calls: workers.at(-1)!.calls,
  };
}

async function measureSize(env: Record<string, string>, client: Doc, users: number, sizes: RuleSizes) {
  return inTableOfItsOwn(env, `${env.TABLE_NAME}-rules-${users}`, async (table) => {
    process.env.TABLE_NAME = table;
    const { dataset, bySize, applyDepartment, fewDepartment } = await loadDataset(client, table, users, sizes.departments);
    meterCapacity(client, table);

    // "A page": listUsers' first page of 100, as the lists section reads it (after a warm-up).
    await call('listUsers', { query: { count: '1' } });
    const pageRuns = [];
    for (let run = 0; run < 3; run++) pageRuns.push((await call('listUsers')).capacity.rcu);
    const pageRcu = median(pageRuns);

    // 3 (first half): a user PATCH with no rule group, in a department of median size.
    const patchUser = dataset.users.find((u) => u.department_id !== null && u.account_role === 'member')!;
    const patchNone = await measurePatches(patchUser.id, sizes.patchRuns);
    progress(`rules ${users}: user PATCH with 0 rule groups: ${patchNone.patch_wcu} WCU; its following ${patchNone.worker_rcu} RCU`);

    // 1: previews. An empty manual group, and a rule group of the same few members at every size (the dry run answers them too).
    const [largest, second] = bySize;
    const manual = String((await call('createGroup', { body: { name: `Preview ${users}` } })).body.id);
    const rule = `department_id:${fewDepartment},account_role:member`;
    const existing = String((await call('createGroup', { body: { name: `Existing ${users}`, rule } })).body.id);
    await runWorkUntil(async () => (await groupState(client, table, existing)).status === 'current');
    const previews = [
      ['new rule: 1 department × role × activated', manual, `department_id:${largest},account_role:member,activated:true`],
      ['new rule: 2 departments × role', manual, `department_id:${largest},department_id:${second},account_role:manager`],
      ['new rule: no department (role × activated)', manual, 'account_role:admin,activated:true'],
      ['rule change of a rule group', existing, `department_id:${largest},account_role:admin`],
    ];
    const previewRows = [];
    for (const [request, group, text] of previews) {
      const runs = [];
      for (let run = 0; run < 3; run++)
        runs.push(await call('updateGroup', { params: { group_id: group }, query: { dry_run: 'true' }, body: { rule: text } }));
      const last = runs.at(-1)!;
      const { matching, joining, leaving } = last.body.rule_preview as Record<'matching' | 'joining' | 'leaving', number>;
      const rcu = median(runs.map((r) => r.capacity.rcu));
      const groupRcu = (await call('getGroup', { params: { group_id: group } })).capacity.rcu;
      previewRows.push({
        ...{ request, users, status: last.status, matching, joining, leaving, rcu, group_rcu: groupRcu, page_rcu: pageRcu },
        ...{ pages: round(rcu / pageRcu, 2), calls: last.capacity.calls, ms: round(median(runs.map((r) => r.ms)), 1) },
        ...{ rcu_ratio: null as number | null, meets_goal: false },
      });
      progress(`rules ${users}: preview ${request}: ${rcu} RCU (a page ${pageRcu})`);
    }

    // 2: applying a rule matching 5,000 users. Timed with the units meter only, then again with the transaction meter.
    const applyOnce = async (name: string) => {
      const id = String((await call('createGroup', { body: { name, rule: `department_id:${applyDepartment}` } })).body.id);
      const done = async () => {
        const state = await groupState(client, table, id);
        return state.status === 'current' && state.members === APPLY_USERS;
      };
      const run = await measure(() => runWorkUntil(done));
      return { id, seconds: run.result, capacity: run.capacity };
    };
    stopMetering();
    meterCapacity(); // units only: no reads around each transaction
    const timedRun = await applyOnce(`Apply timed ${users}`);
    progress(`rules ${users}: applying ${APPLY_USERS} joins: ${round(timedRun.seconds, 1)} s`);
    meterCapacity(client, table);
    const meteredRun = await applyOnce(`Apply metered ${users}`);
    const { findGroupItem } = await import('../lib/store/groups');
    const { memberIds, membershipItems } = await import('../lib/store/memberships');
    const { userKey } = await import('../lib/store/users');
    const group = (await findGroupItem(meteredRun.id))!;
    const ref = { id: meteredRun.id, generation: String(group.generation) };
    const joined = await memberIds(ref);
    // The floor: each join's two membership items as new items in a transaction, with their index copies; the group's count once.
    const now = new Date().toISOString();
    const joinsWcu = joined
      .flatMap((user) => membershipItems(ref, user, now))
      .reduce((n, item) => n + chargedUnits('Put', undefined, item as never).wcu, 0);
    const minWcu = joinsWcu + 2 * writeUnits(itemSize(group));
    const joinedUsers = await batchGet(client, table, joined.map(userKey));
    const checksWcu = joinedUsers.reduce<number>((n, user) => n + chargedUnits('ConditionCheck', user, user).wcu, 0);
    const { wcu, rcu, calls } = meteredRun.capacity;
    const applyRow = {
      ...{ users, members: (await groupState(client, table, meteredRun.id)).members, seconds: round(timedRun.seconds, 1) },
      ...{ metered_seconds: round(meteredRun.seconds, 1), wcu, min_wcu: minWcu, over_min: round(wcu / minWcu, 2) },
      // The ConditionCheck on each joining user the bulk protocol makes; the rest: the change's header, parts, commit, audit, rule work.
      ...{ user_checks_wcu: checksWcu, other_wcu: round(wcu - minWcu - checksWcu), rcu, calls },
    };
    progress(`rules ${users}: applying ${APPLY_USERS} joins: ${wcu} WCU (min ${minWcu}), ${rcu} RCU`);

    // 3 (second half): as many rule groups as allowed, those the section made included, none naming the user's department.
    const max = (await import('../lib/config')).config().ruleGroups.maxGroups;
    const others = bySize.filter((d) => d !== patchUser.department_id);
    await loadRuleGroups(client, table, max - (await ruleGroupCount(client, table)), others, `r${users}r-`);
    const defined = await ruleGroupCount(client, table);
    const patchFull = await measurePatches(patchUser.id, sizes.patchRuns);
    progress(
      `rules ${users}: user PATCH with ${defined} rule groups: ${patchFull.patch_wcu} WCU; its following ${patchFull.worker_rcu} RCU`,
    );
    stopMetering();
    const ratio = round(patchFull.patch_wcu / patchNone.patch_wcu, 2);
    const patchRows = [
      { users, rule_groups: 0, ...patchNone, wcu_ratio: null as number | null, meets_goal: null as boolean | null },
      { users, rule_groups: defined, ...patchFull, wcu_ratio: ratio, meets_goal: ratio <= RULE_GOALS.patchRatio },
    ];
    return { previewRows, applyRow, patchRows };
  });
}

/** The follow delay under the local stack (docs/performance.md "Rule-based groups", "Follow delay"). */
async function measureFollow(env: Record<string, string>, options: { changes: number; writers: number }) {
  const { startStack } = await import('./support/stack');
  const { groupKey } = await import('../lib/store/groups');
  const { groupMemberKey } = await import('../lib/store/memberships');
  return inTableOfItsOwn(env, `${env.TABLE_NAME}-rules-follow`, async (table) => {
    const stack = await startStack(env, table);
    const client = rawClient();
    try {
      const scim = { token: String((await stack.call('POST', '/v2/scim/tokens', { description: 'rules bench' })).body.token) };
      const [a, b] = ['rf-a', 'rf-b'];
      for (const id of [a, b]) await stack.call('POST', '/v2/departments', { id, name: `Rules bench ${id}` });
      const rules = {
        activeA: `department_id:${a},activated:true`,
        managersA: `department_id:${a},account_role:manager`,
        activeB: `department_id:${b},activated:true`,
        inactive: `department_id:${a},department_id:${b},activated:false`,
        admins: 'account_role:admin,activated:true',
      };
      const groups: Record<string, string> = {};
      for (const [name, rule] of Object.entries(rules))
        groups[name] = String((await stack.call('POST', '/v2/groups', { name: `Rules bench ${name}`, rule })).body.id);
      // Each kind of change: the request, and what it makes the user join and leave.
      const deactivate = {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', value: { active: false } }],
      };
      type Change = (user: string) => Promise<{ answeredAt: number }>;
      const kind = (kind: string, joins: string[], leaves: string[], change: Change) => ({ kind, joins, leaves, change });
      const patch = (body: object) => (user: string) => stack.call('PATCH', `/v2/users/${user}`, body);
      const kinds = [
        kind('PATCH account_role', ['managersA'], [], patch({ account_role: 'manager' })),
        kind('PATCH activated', ['inactive'], ['activeA'], patch({ activated: false })),
        kind('E2 move', ['activeB'], ['activeA'], (user) => stack.call('POST', `/v2/departments/${b}/users/${user}`)),
        kind('SCIM PATCH active', ['inactive'], ['activeA'], (user) => stack.call('PATCH', `/scim/v2/Users/${user}`, deactivate, scim)),
        kind('PATCH to admin', ['admins'], [], patch({ account_role: 'admin' })),
      ];
      const users = Array.from({ length: options.changes }, (_, i) => `rf-u${i}`);
      await pool(users, 8, async (id) => {
        await stack.call('POST', '/v2/users', { id, email: `${id}@example.com`, first_name: 'Rule', last_name: 'Bench', activated: true });
      });
      for (let i = 0; i < users.length; i += 1000)
        await stack.call('POST', `/v2/departments/${a}/users`, { user_ids: users.slice(i, i + 1000) });
      // Every user in activeA, the rule groups current.
      for (const started = Date.now(); ; await sleep(250)) {
        const states = await Promise.all(Object.values(groups).map(async (id) => (await stack.call('GET', `/v2/groups/${id}`)).body));
        if (states.every((s) => s.rule_status === 'current') && states[0].user_count === users.length) break;
        if (Date.now() - started > 120_000)
          throw new Error(`rules follow: setup did not settle: ${JSON.stringify(states.map((s) => [s.rule_status, s.user_count]))}`);
      }
      progress(
        `rules follow: ${users.length} users in ${Object.keys(groups).length} rule groups; ${options.changes} changes from ${options.writers} writers`,
      );

      // The membership item G1 lists the user by, read strongly consistent: the group reflects the change when it does.
      const generations = new Map<string, string>();
      const isMember = async (groupId: string, userId: string) => {
        if (!generations.has(groupId)) generations.set(groupId, String((await getItem(client, table, groupKey(groupId)))?.generation));
        return (await getItem(client, table, groupMemberKey({ id: groupId, generation: generations.get(groupId)! }, userId))) !== undefined;
      };
      const pending = new Map<string, { answeredAt?: number; joins: string[]; leaves: string[] }>();
      const [delays, answeredAt, kindOf] = [new Map<string, number>(), new Map<string, number>(), new Map<string, string>()];
      let writing = true;
      // The watcher: every 100 ms, the membership items of each answered change's joins and leaves, read directly (not
      // through G1, whose reads loaded the stack it measures); a change is reflected when all of them are as it wants.
      const watcher = (async () => {
        while (writing || [...pending.values()].some((p) => p.answeredAt !== undefined)) {
          await pool(
            [...pending].filter(([, change]) => change.answeredAt !== undefined),
            16,
            async ([user, change]) => {
              const joined = await Promise.all(change.joins.map((g) => isMember(groups[g], user)));
              const left = await Promise.all(change.leaves.map(async (g) => !(await isMember(groups[g], user))));
              if ([...joined, ...left].every(Boolean)) {
                delays.set(user, Math.max(0, Date.now() - change.answeredAt!));
                pending.delete(user);
              }
            },
          );
          const waiting = [...pending.values()];
          if (
            !writing &&
            waiting.length > 0 &&
            waiting.every((p) => p.answeredAt !== undefined) &&
            Date.now() - Math.min(...waiting.map((p) => p.answeredAt!)) > 60_000
          )
            break;
          await sleep(100);
        }
      })();
      await pool(
        users.map((user, i) => ({ user, ...kinds[i % kinds.length] })),
        options.writers,
        async ({ user, kind, joins, leaves, change }) => {
          kindOf.set(user, kind);
          pending.set(user, { joins, leaves });
          const answered = (await change(user)).answeredAt;
          answeredAt.set(user, answered);
          const entry = pending.get(user);
          if (entry) entry.answeredAt = answered;
        },
      );
      writing = false;
      await watcher;
      // When the RuleWorker committed each change's joins and leaves: the `at` of its rule:<group> audit entries.
      const committedAt = new Map<string, number>();
      type AuditEntry = { at: string; changes: { added_user_ids?: string[]; removed_user_ids?: string[] } };
      for (const id of Object.values(groups)) {
        for (const entry of await stack.walk<AuditEntry>('/v2/audit', `query=${encodeURIComponent(`actor:rule:${id}`)}`, 'entries')) {
          if ((entry.changes.added_user_ids?.length ?? 0) > 1) continue; // the rule's first application
          for (const user of [...(entry.changes.added_user_ids ?? []), ...(entry.changes.removed_user_ids ?? [])])
            committedAt.set(user, Math.max(committedAt.get(user) ?? 0, Date.parse(entry.at)));
        }
      }
      const committed = users
        .filter((u) => answeredAt.has(u) && committedAt.has(u))
        .map((u) => Math.max(0, committedAt.get(u)! - answeredAt.get(u)!));
      const values = [...delays.values()];
      const byKind = kinds.map(({ kind }) => {
        const of = [...delays].filter(([user]) => kindOf.get(user) === kind).map(([, ms]) => ms);
        return `${kind} p50 ${of.length ? Math.round(median(of)) : '-'} ms`;
      });
      const p99 = percentile(values, 99);
      return {
        ...{ changes: options.changes, writers: options.writers, rule_groups: Object.keys(groups).length, reflected: values.length },
        ...latencies(values),
        ...{ committed_p50_ms: percentile(committed, 50), committed_p99_ms: percentile(committed, 99), by_kind: byKind.join('; ') },
        meets_goal: values.length === options.changes && p99 !== null && p99 < RULE_GOALS.followMs,
        note: stack.problemNote(),
      };
    } finally {
      client.destroy();
      await stack.close();
    }
  });
}

export async function measureRules(env: Record<string, string>, sizes: RuleSizes) {
  const client = rawClient();
  const original = process.env.TABLE_NAME;
  try {
    const measured = [];
    for (const users of sizes.users) measured.push(await measureSize(env, client, users, sizes));
    process.env.TABLE_NAME = original;
    const follow = await measureFollow(env, sizes.follow);
    progress(`rules follow: ${follow.reflected}/${follow.changes} reflected; p50 ${follow.p50_ms} ms, p99 ${follow.p99_ms} ms`);
    // The preview's goals: within 2× a page, and flat (its RCU at the larger size over that at the smaller).
    const previews = measured.flatMap((m) => m.previewRows);
    const smallest = new Map(previews.filter((r) => r.users === Math.min(...sizes.users)).map((r) => [r.request, r.rcu]));
    const judged = previews.map((row) => {
      const ratio = row.users === Math.min(...sizes.users) ? null : round(row.rcu / smallest.get(row.request)!, 2);
      const flat = ratio === null || ratio <= RULE_GOALS.flat;
      return { ...row, rcu_ratio: ratio, meets_goal: row.status === 200 && row.pages <= RULE_GOALS.previewPages && flat };
    });
    return { previews: judged, applies: measured.map((m) => m.applyRow), patches: measured.flatMap((m) => m.patchRows), follow };
  } finally {
    process.env.TABLE_NAME = original;
    client.destroy();
  }
}
