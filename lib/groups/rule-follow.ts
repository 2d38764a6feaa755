/**
 * How rule groups keep their members: applying a rule, and following every
 * user change within seconds. Both run in the RuleWorker (functions/ruleWorker.ts),
 * triggered by the table's stream for rule work items (lib/store/rules.ts);
 * locally `pollLocally` finds the same items, and the maintenance function
 * runs any left older than a minute.
 *
 * Why work items, and why this converges:
 * - Every change of a user's cell (department, role, activation), whatever
 *   made it (create, PATCH, E2–E5, bulk moves, SCIM), goes through one
 *   writer, lib/store/users.ts userWrites, which writes the user's rule work
 *   in the same transaction: no change can be missed, and the user change
 *   costs one small item more whatever the number of rule groups (none
 *   are read or written by the request). A deleted user leaves every group
 *   in its own deletion, and writes its rule work too: a group held at its
 *   limit may have counted it among its waiting matches.
 * - A group `over_limit` is applied again (its rule work) when a member
 *   leaves, or a waiting match stops matching or is deleted; `over_limit` is
 *   marked only at the group version a join found full, and a leave that
 *   read the group `current` reads it again, so neither misses the other.
 * - The worker reconciles the user as it is NOW (a consistent read) with
 *   the rules as they are NOW (the rule index, written in the rule's own
 *   transaction): each join or leave is conditional on the group holding the
 *   rule version it was decided for, on the user still being the version
 *   read (two pieces of work may follow one user at once), and on the
 *   membership being absent or present, so it is idempotent and a rule or
 *   user changed meanwhile makes it fail and be decided again. Work is deleted only if not rewritten since it
 *   was read (its `stamp`), so a change during the reconciliation is
 *   followed again. A user's work waits (stays, and runs again) while a
 *   rule it concerns is being applied, or was changed after the index was
 *   read. What this guarantees: a user's work that completes saw the user
 *   and the rules as they were when it committed its last decision. What it
 *   relies on: the cell index (eventually consistent) showing, by an
 *   apply's verifying pass, every change committed before that apply began.
 * - The rules read are those listed under the user's old and new departments
 *   and under `*` (rules naming no department): a user change never costs
 *   more because of rules that name only other departments.
 * - Applying a rule (a change of it, or room at the limit) reads the matching
 *   users cell by cell from the cell index (cellById: never a scan) and the
 *   members, checks the difference against consistent reads of those users
 *   (the index may lag behind a change just made), and writes only the joins
 *   and leaves, by the bulk protocol of large group changes (bulk-change.ts:
 *   prepared out of sight, committed once under the rule version, applied in
 *   parts, healed by the maintenance function). It always verifies once more,
 *   INDEX_SETTLE_MS later (reading again, consistently, the users it just
 *   added or removed), and marks the group `current` (or `over_limit`)
 *   conditional on nothing having changed since that verification. An index
 *   lagging more than that behind a change made before the apply is not
 *   caught by the apply (DynamoDB bounds no GSI lag; it is usually well under
 *   a second).
 * - Joins and leaves are audited with actor `rule:<group id>`.
 */
import type { ChangeContext } from '../audit/context';
import { forEachConcurrently } from '../db/batch';
import { ContentionError, isSignal, signal, StaleReadError } from '../db/errors';
import { queryStream } from '../db/query';
import { transactWrite, type Write } from '../db/transact';
import { log } from '../log';
import { Problem } from '../problems';
import {
  countMembersWrite,
  findGroupItem,
  findGroupItems,
  isChanging,
  isPublished,
  isRuleManaged,
  ruleStatusWrite,
  toGroup,
  type StoredGroup,
} from '../store/groups';
import { memberIds, membershipDeletes, membershipPuts } from '../store/memberships';
import {
  finishRuleWorkWrite,
  groupRuleWorkWrite,
  pendingRuleWork,
  readRuleWork,
  ruleCellCode,
  ruleIndexDelete,
  rulesListedUnder,
  WorkRewritten,
  type IndexedRule,
  type RuleWork,
  type RuleWorkSubject,
} from '../store/rules';
import { findUser, findUsers, userLists, userUnchangedCheck } from '../store/users';
import { changeGroupMembersInParts } from './bulk-change';
import { groupAudit } from './groups';
import { MissingUserError } from './members';
import { cellsOf, matchesRule, parseRule, type Rule } from './rule';
import { ruleMaxUsers } from './rule-limits';
import { cellOfCode, codesOf } from './rule-preview';
import type { SYSTEM_OPERATIONS } from '../schemas/enums';

/** Who the audit trail names for a rule's joins and leaves. */
export const ruleActor = (groupId: string) => `rule:${groupId}`;

/** The audit's operations of rule work: among the service's own (SYSTEM_OPERATIONS), so webhook filters accept them. */
type RuleOperation = Extract<(typeof SYSTEM_OPERATIONS)[number], 'applyGroupRule' | 'followUserChange'>;

const ruleContext = (groupId: string, operationId: RuleOperation, requestId: string): ChangeContext => ({
  actor: ruleActor(groupId),
  operationId,
  requestId,
});

/** The one place rule work writes its audit entries. */
const ruleAudit = (groupId: string, operationId: RuleOperation, requestId: string, changes: Record<string, unknown>, now: string): Write =>
  groupAudit(ruleContext(groupId, operationId, requestId), groupId, changes, now);

/** A step that could not be decided now (the group is being changed, or its rule moved on): the work stays and runs again. */
class TryAgain extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// --- applying a rule ------------------------------------------------------------

/** Queries of the cell index at once (a rule of 40 departments and many kinds is hundreds of cells). */
const INDEX_QUERY_CONCURRENCY = 16;

/** The ids of the users a rule matches, cell by cell from cellById (a department's copies, or everybody's user items). */
async function matchingUserIds(rule: Rule): Promise<string[]> {
  const queries = cellsOf(rule).flatMap((set) =>
    set.kinds
      .flatMap(codesOf)
      .flatMap((code) =>
        'only' in set.scope
          ? set.scope.only.map((department) => userLists.cell({ department }, cellOfCode(code), 'id'))
          : [userLists.cell({ everyone: true }, cellOfCode(code), 'id')],
      ),
  );
  const ids: string[] = [];
  await forEachConcurrently(queries, INDEX_QUERY_CONCURRENCY, async (query) => {
    for await (const item of queryStream({ ...query, attributes: ['id'] }, { pageSize: 1000 })) ids.push(String(item.id));
  });
  return ids;
}

/** Time for the index to show a change just made, before the verifying pass. */
const INDEX_SETTLE_MS = 500;
const APPLY_PASSES = 6;
/** Waiting matches read beyond the room they could fill: a few may have stopped matching since the index saw them. */
const FRESH_READ_MARGIN = 10;

/**
 * The first `room` of the waiting matches by id that match as they are now
 * (consistent reads, a chunk at a time, never all of a rule that matches
 * far more than the limit), and whether more would join than fit.
 */
async function firstMatchingNow(rule: Rule, waiting: string[], room: number): Promise<{ adds: string[]; overLimit: boolean }> {
  const adds: string[] = [];
  for (let from = 0; from < waiting.length;) {
    const chunk = waiting.slice(from, from + Math.max(0, room - adds.length) + 1 + FRESH_READ_MARGIN);
    from += chunk.length;
    const fresh = await findUsers(chunk);
    for (const id of chunk) {
      const user = fresh.get(id);
      if (!user || !matchesRule(rule, user)) continue;
      if (adds.length >= room) return { adds, overLimit: true };
      adds.push(id);
    }
  }
  return { adds, overLimit: false };
}

/**
 * Makes the members of a rule group exactly its matches (the first
 * `ruleMaxUsers` of them by id when they are more: `over_limit`). Answers
 * when the group is `current` or `over_limit`, has no rule, or is gone.
 *
 * The cell index is eventually consistent: each candidate it gives is read
 * again (consistent), and so are the users the previous pass added or
 * removed, which the index may still show as they were. The group is marked
 * only by a pass that found nothing to change and read the index at least
 * INDEX_SETTLE_MS after the apply began or last wrote (the verifying pass,
 * always run). A user change the index shows later than that is not seen
 * here; its own rule work follows it, and waits while the group is
 * `applying` (followUser).
 */
export async function applyGroupRule(groupId: string, requestId: string): Promise<void> {
  let changedLastPass: string[] = [];
  let verifying = false;
  for (let pass = 0; pass < APPLY_PASSES; pass++) {
    const item = await findGroupItem(groupId);
    if (!isPublished(item) || !isRuleManaged(item)) return;
    if (isChanging(item)) {
      await sleep(200 * (pass + 1)); // a large change (of this rule's previous pass, say) is being applied
      continue;
    }
    const group = toGroup(item);
    const rule = parseRule(group.rule!);
    const [matches, members] = await Promise.all([matchingUserIds(rule), memberIds(group)]);
    const [matching, present, changed] = [new Set(matches), new Set(members), new Set(changedLastPass)];
    // Members the index no longer lists, and those just changed: each as it is now decides.
    const doubtful = members.filter((id) => !matching.has(id) || changed.has(id));
    const fresh = await findUsers(doubtful);
    // A member gone from the table is being deleted, which takes it out of its groups.
    const removes = doubtful.filter((id) => fresh.has(id) && !matchesRule(rule, fresh.get(id)!));
    const waiting = [...new Set([...matches, ...changedLastPass])].filter((id) => !present.has(id)).sort();
    const room = ruleMaxUsers() - (group.user_count - removes.length);
    const { adds, overLimit } = await firstMatchingNow(rule, waiting, room);
    if (adds.length === 0 && removes.length === 0) {
      if (verifying && (await settle(group, overLimit, requestId, matching.size))) return;
      if (!verifying) await sleep(INDEX_SETTLE_MS);
      verifying = true;
      changedLastPass = [];
      continue;
    }
    try {
      await changeGroupMembersInParts(ruleContext(groupId, 'applyGroupRule', requestId), {
        group,
        adds,
        removes,
        ruleVersion: group.rule_version,
        maxUsers: ruleMaxUsers(),
      });
    } catch (error) {
      // Read again: a member change or a new rule came first, or a user vanished.
      if (!(error instanceof StaleReadError || error instanceof MissingUserError || error instanceof Problem)) throw error;
    }
    changedLastPass = [...adds, ...removes];
    verifying = true;
    await sleep(INDEX_SETTLE_MS);
  }
  throw new TryAgain();
}

/** Marks the group as its last verification found it, if nothing changed since (false: verify again). */
async function settle(group: StoredGroup, overLimit: boolean, requestId: string, matching: number): Promise<boolean> {
  const status = overLimit ? 'over_limit' : 'current';
  if (group.rule_status === status) return true;
  const now = new Date().toISOString();
  try {
    await transactWrite([
      ruleStatusWrite(group.id, status, { ruleVersion: group.rule_version!, version: group.version }, now, () => signal('changed')),
      ...(overLimit || group.rule_status === 'over_limit'
        ? [ruleAudit(group.id, 'applyGroupRule', requestId, { rule_status: { from: group.rule_status, to: status }, matching }, now)]
        : []),
    ]);
    return true;
  } catch (error) {
    if (isSignal(error, 'changed') || error instanceof ContentionError) return false;
    throw error;
  }
}

// --- following a user -------------------------------------------------------------

type CellUser = { department_id: string | null; account_role: 'admin' | 'manager' | 'member' | 'guest'; activated: boolean };

const userOfCell = (code: string): CellUser => {
  const [department, kind] = code.split('|');
  const [role, active] = kind.split('.');
  return {
    department_id: department === '' ? null : department,
    account_role: role as CellUser['account_role'],
    activated: active === '1',
  };
};

/**
 * Joins the user to, or takes it out of, each rule group whose rule includes
 * exactly one of its cells before and now (the rule index's groups of its
 * old and new departments and `*`).
 */
async function followUser(work: RuleWork): Promise<void> {
  const user = await findUser(work.id);
  const read: UserAsRead = { id: work.id, version: user?.version };
  const now = user ? ruleCellCode(user) : undefined;
  const cells = [...work.fromCells, ...(now ? [now] : [])];
  const departments = cells.map((code) => code.split('|')[0]).filter((d) => d !== '');
  const rules = await rulesListedUnder([...departments, '*']);
  const groups = await findGroupItems([...new Set(rules.map((r) => r.groupId))]);
  let again = false;
  const seen = new Set<string>();
  for (const entry of rules) {
    const item = groups.get(entry.groupId);
    if (!isPublished(item) || item.rule_version !== entry.ruleVersion) {
      // An entry of a rule since changed or of a group since deleted: no rule of its group any more.
      await transactWrite([ruleIndexDelete(entry.scope, entry.groupId, entry.ruleVersion)]).catch(() => undefined);
      // The group's new rule was set after the index was read: its entry, if it concerns this user, is read next time.
      if (isPublished(item) && isRuleManaged(item)) again = true;
      continue;
    }
    if (seen.has(entry.groupId)) continue;
    seen.add(entry.groupId);
    // Being applied: the apply may have read the index before this change showed there; follow the user after it.
    if (item.rule_status === 'applying') {
      again = true;
      continue;
    }
    const rule = parseRule(entry.rule);
    const matchesNow = user !== undefined && matchesRule(rule, user);
    const matchedBefore = work.fromCells.map((code) => matchesRule(rule, userOfCell(code)));
    try {
      if (matchesNow && !(matchedBefore.length > 0 && matchedBefore.every(Boolean))) await join(toGroup(item), entry, work, read);
      if (!matchesNow && matchedBefore.some(Boolean)) await leave(toGroup(item), entry, work, read);
    } catch (error) {
      if (!(error instanceof TryAgain || error instanceof ContentionError)) throw error;
      again = true;
    }
  }
  if (again) throw new TryAgain();
}

/** A bulk move's users, each from the cell it left. */
async function followUsers(work: RuleWork): Promise<void> {
  let again = false;
  await forEachConcurrently(work.userIds, 8, async (userId, i) => {
    try {
      await followUser({ ...work, subject: 'user', id: userId, fromCells: [work.fromCells[i]] });
    } catch (error) {
      if (!(error instanceof TryAgain)) throw error;
      again = true;
    }
  });
  if (again) throw new TryAgain();
}

/** The user a decision was made on: its version, or undefined when it was absent. */
interface UserAsRead {
  id: string;
  version: number | undefined;
}

/**
 * Every rule join, leave and `over_limit` commits only if the user is still
 * as the decision read it: two pieces of work (a bulk move's and the user's
 * own, or the maintenance sweep's and the stream's) may follow the same user
 * at once, and the one that read it first must not commit after the other.
 * A changed user makes the decision be made again. A join also needs no
 * deletion holding off group additions (lib/groups/members.ts).
 */
const userAsReadCheck = (user: UserAsRead, now?: string): Write => userUnchangedCheck(user.id, user.version, () => new TryAgain(), { now });

/** The group was full when a join was tried: `version` is the group's then. */
class GroupFull extends Error {
  constructor(
    readonly version: number,
    readonly ruleStatus: unknown,
  ) {
    super('full');
  }
}

/** Why a rule's join or leave did not commit, from the group item as it was. */
function explainGroup(entry: IndexedRule, delta: number) {
  return (stored: unknown) => {
    const item = stored as Record<string, unknown> | undefined;
    if (!isPublished(item) || item.rule_version !== entry.ruleVersion || isChanging(item)) return new TryAgain();
    if (delta > 0 && Number(item.user_count) + delta > ruleMaxUsers()) return new GroupFull(Number(item.version), item.rule_status);
    return new StaleReadError();
  };
}

async function join(group: StoredGroup, entry: IndexedRule, work: RuleWork, user: UserAsRead): Promise<void> {
  const now = new Date().toISOString();
  const writes: Write[] = [
    ...membershipPuts(group, work.id, now, () => signal('already-member')),
    countMembersWrite(group, 1, now, { published: true, maxUsers: ruleMaxUsers(), ruleVersion: entry.ruleVersion }, explainGroup(entry, 1)),
    userAsReadCheck(user, now),
    ruleAudit(group.id, 'followUserChange', work.stamp, { added_user_ids: [work.id] }, now),
  ];
  try {
    await transactWrite(writes);
  } catch (error) {
    if (isSignal(error, 'already-member')) return;
    if (error instanceof StaleReadError) throw new TryAgain();
    if (error instanceof GroupFull) return markOverLimit(group, entry, work, user, error);
    throw error;
  }
}

async function leave(group: StoredGroup, entry: IndexedRule, work: RuleWork, user: UserAsRead): Promise<void> {
  const now = new Date().toISOString();
  const writes: Write[] = [
    ...membershipDeletes(group, work.id, () => signal('not-member')),
    countMembersWrite(
      group,
      -1,
      now,
      { published: true, maxUsers: ruleMaxUsers(), ruleVersion: entry.ruleVersion },
      explainGroup(entry, -1),
    ),
    userAsReadCheck(user),
    ruleAudit(group.id, 'followUserChange', work.stamp, { removed_user_ids: [work.id] }, now),
    // A group held at its limit has room now: a waiting match joins (the rule is applied again).
    ...(group.rule_status === 'over_limit' ? [groupRuleWorkWrite(group.id, now)] : []),
  ];
  try {
    await transactWrite(writes);
  } catch (error) {
    if (!isSignal(error, 'not-member')) {
      if (error instanceof StaleReadError) throw new TryAgain();
      throw error;
    }
    // A waiting match (never a member) of a group held at its limit stopped matching: the rest may fit now.
    if (group.rule_status === 'over_limit') await transactWrite([groupRuleWorkWrite(group.id, new Date().toISOString())]);
    return;
  }
  if (group.rule_status !== 'over_limit') await reapplyIfOverLimit(group.id, entry);
}

/**
 * A leave that read the group `current` wrote no rule work; a join that found
 * the group full may have marked it `over_limit` since that read (it could
 * not after the leave: it holds the group version it found full). Read again.
 */
async function reapplyIfOverLimit(groupId: string, entry: IndexedRule): Promise<void> {
  const item = await findGroupItem(groupId);
  if (isPublished(item) && item.rule_version === entry.ruleVersion && item.rule_status === 'over_limit') {
    await transactWrite([groupRuleWorkWrite(groupId, new Date().toISOString())]);
  }
}

/**
 * The group is full: it keeps its members, says so, and the audit trail too.
 * Only at the group version the join found full (no member left since) and
 * with the user still as read: otherwise the join is decided again.
 */
async function markOverLimit(group: StoredGroup, entry: IndexedRule, work: RuleWork, user: UserAsRead, full: GroupFull): Promise<void> {
  if (full.ruleStatus === 'over_limit') return;
  const now = new Date().toISOString();
  await transactWrite([
    ruleStatusWrite(group.id, 'over_limit', { ruleVersion: entry.ruleVersion, version: full.version }, now, () => new TryAgain()),
    userAsReadCheck(user),
    ruleAudit(
      group.id,
      'followUserChange',
      work.stamp,
      { rule_status: { from: group.rule_status, to: 'over_limit' }, waiting_user_ids: [work.id] },
      now,
    ),
  ]);
}

// --- running the work ----------------------------------------------------------------

/** Does one piece of work, then deletes it unless it was written again meanwhile. False: to be tried again later. */
export async function runRuleWork(subject: RuleWorkSubject, id: string): Promise<boolean> {
  const work = await readRuleWork(subject, id);
  if (!work) return true;
  try {
    if (subject === 'group') await applyGroupRule(id, work.stamp);
    else if (subject === 'user') await followUser(work);
    else await followUsers(work);
  } catch (error) {
    if (error instanceof TryAgain || error instanceof ContentionError) return false;
    throw error;
  }
  try {
    await transactWrite([finishRuleWorkWrite(work)]);
  } catch (error) {
    if (!(error instanceof WorkRewritten)) throw error;
  }
  return true;
}

/** How long a stream invocation keeps trying work that must wait (a group being changed, contention), a pause between. */
export const PATIENCE_MS = 5_000;

/**
 * Runs the work, and again after a short pause (doubling, at most a second)
 * while it must wait, for at most `patienceMs`: an apply that overlaps a
 * group change or a follow that meets contention usually clears within a
 * second or two. False: still waiting (the caller has it retried later).
 */
export async function runRuleWorkPatiently(subject: RuleWorkSubject, id: string, patienceMs = PATIENCE_MS): Promise<boolean> {
  const deadline = Date.now() + patienceMs;
  for (let pause = 100; ; pause = Math.min(pause * 2, 1000)) {
    if (await runRuleWork(subject, id)) return true;
    if (Date.now() + pause > deadline) return false;
    await sleep(pause);
  }
}

/** Pieces of work run at once by the local poller and the maintenance sweep. */
const RULE_WORK_CONCURRENCY = 32;

/** Work items per run of the local poller (and of the maintenance function's sweep). */
const WORK_PER_RUN = 200;

/** Runs the pending work (written before `until`, when given), a few at a time; answers how many were done. */
export async function runPendingRuleWork(options: { until?: string } = {}): Promise<number> {
  const work = await pendingRuleWork({ until: options.until, limit: WORK_PER_RUN });
  let done = 0;
  await forEachConcurrently(work, RULE_WORK_CONCURRENCY, async ({ subject, id }) => {
    try {
      if (await runRuleWork(subject, id)) done++;
    } catch (error) {
      await log('warn', 'rule work failed; it stays and runs again', { subject, id, error: error as Error });
    }
  });
  return done;
}

/** How long work that must wait rests before the local poller tries it again. */
const REST_MS = 200;
/** The local poller reads the pending work at most this often. */
const READ_EVERY_MS = 50;

/**
 * `npm start`'s poller (functions/ruleWorker.ts pollLocally), closer to the stream: each piece of work starts as
 * soon as one of the slots is free, instead of the whole batch waiting for its slowest (one backing off held back
 * every change written after it). Work that must wait rests before it is tried again. Ends when nothing is in
 * flight and nothing pending is ready, or after `budgetMs` (the work in flight finished); answers how many were done.
 */
export async function runRuleWorkAsItComes(budgetMs = 30_000): Promise<number> {
  const deadline = Date.now() + budgetMs;
  const inFlight = new Map<string, Promise<void>>();
  const restingUntil = new Map<string, number>();
  let done = 0;
  const start = ({ subject, id }: RuleWork, key: string) =>
    (async () => {
      try {
        if (await runRuleWork(subject, id)) done++;
        else restingUntil.set(key, Date.now() + REST_MS);
      } catch (error) {
        restingUntil.set(key, Date.now() + REST_MS);
        await log('warn', 'rule work failed; it stays and runs again', { subject, id, error: error as Error });
      } finally {
        inFlight.delete(key);
      }
    })();
  for (;;) {
    const readAt = Date.now();
    if (readAt < deadline && inFlight.size < RULE_WORK_CONCURRENCY) {
      for (const work of await pendingRuleWork({ limit: WORK_PER_RUN })) {
        if (inFlight.size >= RULE_WORK_CONCURRENCY) break;
        const key = `${work.subject}#${work.id}`;
        if (inFlight.has(key) || (restingUntil.get(key) ?? 0) > Date.now()) continue;
        inFlight.set(key, start(work, key));
      }
    }
    if (inFlight.size === 0) return done;
    await Promise.race([...inFlight.values(), sleep(READ_EVERY_MS)]);
    await sleep(Math.max(0, readAt + READ_EVERY_MS - Date.now()));
  }
}

/** Maintenance: work older than a minute, whose stream delivery failed or whose worker died. */
export const runStaleRuleWork = (now: number): Promise<number> => runPendingRuleWork({ until: new Date(now - 60_000).toISOString() });
