/**
 * Following a user's change: the rule groups it joins or leaves. Run by the
 * RuleWorker for a user's rule work, or a bulk move's users' (rule-work.ts).
 *
 * - The worker reconciles the user as it is NOW (a consistent read) with
 *   the rules as they are NOW (the rule index, written in the rule's own
 *   transaction): each join or leave is conditional on the group holding the
 *   rule version it was decided for, on the user still being the version
 *   read (two pieces of work may follow one user at once), and on the
 *   membership being absent or present, so it is idempotent and a rule or
 *   user changed meanwhile makes it fail and be decided again. A user's work
 *   waits (stays, and runs again) while a rule it concerns is being applied,
 *   or was changed after the index was read. What this guarantees: a user's
 *   work that completes saw the user and the rules as they were when it
 *   committed its last decision. What it relies on: the cell index
 *   (eventually consistent) showing, by an apply's verifying pass
 *   (rule-apply.ts), every change committed before that apply began.
 * - The rules read are those listed under the user's old and new departments
 *   and under `*` (rules naming no department): a user change never costs
 *   more because of rules that name only other departments.
 * - A group `over_limit` is applied again (its rule work) when a member
 *   leaves, or a waiting match stops matching or is deleted; `over_limit` is
 *   marked only at the group version a join found full, and a leave that
 *   read the group `current` reads it again, so neither misses the other.
 * - Joins and leaves are audited with actor `rule:<group id>`.
 */
import { forEachConcurrently } from '../db/batch';
import { ContentionError, isSignal, signal, StaleReadError } from '../db/errors';
import { transactWrite, type Write } from '../db/transact';
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
import { membershipDeletes, membershipPuts } from '../store/memberships';
import { groupRuleWorkWrite, ruleCellCode, ruleIndexDelete, rulesListedUnder, type IndexedRule, type RuleWork } from '../store/rules';
import { findUser, userUnchangedCheck } from '../store/users';
import { matchesRule, parseRule } from './rule';
import { ruleAudit, TryAgain } from './rule-decision';
import { ruleMaxUsers } from './rule-limits';

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
export async function followUser(work: RuleWork): Promise<void> {
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
export async function followUsers(work: RuleWork): Promise<void> {
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
