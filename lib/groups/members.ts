/**
 * Group membership: G4 (add), G5 (remove), and taking a user out of every
 * group before the user is deleted.
 *
 * A membership is two items (lib/store/memberships.ts), always written and
 * deleted together, in the same transaction as the group's `user_count` (and
 * `version`, the group's ETag).
 *
 * Races, and what settles each:
 * - G4 ∥ G4 (same user): the group-side Put is conditional on not existing;
 *   the loser answers "already a member".
 * - G4 ∥ G4 near the limit: `user_count <= 10000 - 1` is a condition on the
 *   group item in every adding transaction, so the count never passes it.
 * - G4 ∥ G6/G7: the addition is conditional on the group existing with the
 *   generation read; a deletion either comes after it (its memberships are
 *   then removed with the group, or by the sweeper from the generation's
 *   partition) or before it (the addition fails: 404).
 * - G4 ∥ user deletion: every addition checks, in its transaction, that the
 *   user exists and carries no live `group_lock`. User deletion first sets
 *   that lock (conditional on the version it read), then reads the user's
 *   memberships with a consistent Query, removes them, and deletes the user
 *   conditional on that same version. An addition that committed before the
 *   lock is in the Query; none can commit after it. A user write in between
 *   (PATCH, a department move) replaces the item, dropping the lock, but it
 *   also changes the version, so the delete fails and starts over. Additions
 *   never write the user item: its ETag and PATCHes are not disturbed.
 */
import type { ChangeContext } from '../audit/context';
import { isSignal, signal, StaleReadError } from '../db/errors';
import { isConditionFailure, MAX_TRANSACTION_ITEMS, transactWrite, withFreshRead, type Write } from '../db/transact';
import { conflict, notFound, Problem } from '../problems';
import { countMembersWrite, findGroupItem, findGroupItems, isChanging, isPublished, isRuleManaged, type GroupRef } from '../store/groups';
import { membershipDeletes, membershipPuts, userMemberships } from '../store/memberships';
import { groupRuleWorkWrite, userRuleWorkWrite } from '../store/rules';
import { findUser, lockGroupAdditions as lockUser, unlockGroupAdditions as unlockUser, userCheck, type StoredUser } from '../store/users';
import { groupAudit, groupBusy, groupFull, groupNotFound, MAX_GROUP_USERS, notAGroupMember, ruleManaged } from './groups';

/** Raised by a write whose user vanished under it; G3 turns it into `missing_user_ids`. */
export class MissingUserError extends Problem {
  constructor(readonly userId: string) {
    super('not-found', `User "${userId}" does not exist.`, { missing_user_ids: [userId] });
  }
}

/** How long a user's deletion holds off group additions: far beyond the 10 s a function may run. */
export const GROUP_LOCK_MS = 5 * 60_000;

/** Every group addition checks that the user exists and is not being deleted (see the top of this file). */
export const userCheckWrite = (userId: string, now: string): Write =>
  userCheck(userId, now, (stored) => (stored ? conflict(`User "${userId}" is being deleted.`) : new MissingUserError(userId)));

/** The two items of a new membership; one already there means a racing request added it: read again. */
export const newMembership = (group: GroupRef, userId: string, now: string): Write[] =>
  membershipPuts(group, userId, now, () => new StaleReadError());

/**
 * The first step of a user's deletion: from here on no group addition of
 * the user can commit. Conditional on the version read (the final delete is
 * too) and on no department bulk move holding the user. Answers when the
 * lock expires; the deletion must be done well before.
 */
export async function lockGroupAdditions(user: StoredUser): Promise<number> {
  const until = Date.now() + GROUP_LOCK_MS;
  try {
    await lockUser(user.id, user.version, new Date(until).toISOString());
  } catch (error) {
    // Changed, deleted or held since it was read: the caller reads again (and answers 404 or 412 if so).
    if (isConditionFailure(error) || (error as { name?: string }).name === 'TransactionConflictException') throw new StaleReadError();
    throw error;
  }
  return until;
}

/** Gives up the lock of a deletion that failed (best effort: it expires anyway). */
export async function unlockGroupAdditions(userId: string, until: number): Promise<void> {
  try {
    await unlockUser(userId, new Date(until).toISOString());
  } catch {
    // Gone, replaced or locked again since: nothing of ours to give up.
  }
}

/**
 * Moves a group's `user_count` by `delta`: additions need the group published
 * and below the limit; removals of a user being deleted only need it to
 * exist in that generation (a pending group of a running G3 counts too).
 */
export function groupCountWrite(group: GroupRef, delta: number, now: string, options: { published: boolean }): Write {
  return countMembersWrite(group, delta, now, { published: options.published, maxUsers: MAX_GROUP_USERS }, (stored) => {
    // A removal for a user being deleted reads again: the group may just have gone (its memberships go differently then).
    if (!options.published) return new StaleReadError();
    if (!isPublished(stored) || stored.generation !== group.generation) return groupNotFound(group.id);
    if (isRuleManaged(stored)) return ruleManaged(group.id);
    if (isChanging(stored)) return groupBusy(group.id);
    if (delta > 0 && Number(stored.user_count) + delta > MAX_GROUP_USERS) return groupFull(group.id);
    return new StaleReadError();
  });
}

/** The published group whose members are changed by hand, as a reference: 404, or 409 `rule-managed` for a rule group. */
async function publishedGroup(groupId: string): Promise<GroupRef> {
  const item = await findGroupItem(groupId);
  if (!isPublished(item)) throw groupNotFound(groupId);
  // The transaction's condition holds it too (a rule set meanwhile): this only answers before anything else is said.
  if (isRuleManaged(item)) throw ruleManaged(groupId);
  return { id: groupId, generation: String(item.generation) };
}

/**
 * G4: the user is a member afterwards; answers the user (which G4 does not
 * change). Already a member: nothing changes. No membership read: the
 * membership put's own condition says "already a member", and it comes first
 * in the transaction so that it is the failure explained even when the
 * group is full.
 */
export async function addUserToGroup(ctx: ChangeContext, groupId: string, userId: string): Promise<StoredUser> {
  return withFreshRead(async () => {
    const [group, user] = await Promise.all([publishedGroup(groupId), findUser(userId)]);
    if (!user) throw notFound('User', userId);
    const now = new Date().toISOString();
    try {
      await transactWrite([
        ...membershipPuts(group, userId, now, () => signal('already-member')),
        groupCountWrite(group, 1, now, { published: true }),
        userCheckWrite(userId, now),
        groupAudit(ctx, groupId, { added_user_ids: [userId] }, now),
      ]);
    } catch (error) {
      if (isSignal(error, 'already-member')) return user;
      if (error instanceof MissingUserError) throw notFound('User', userId);
      throw error;
    }
    return user;
  });
}

/**
 * G5: the user leaves the group; 404 `not-a-member` when it is not in it.
 * The membership delete is conditional, so the success path reads nothing
 * but the group; only a failure reads on, to choose the right 404.
 */
export async function removeUserFromGroup(ctx: ChangeContext, groupId: string, userId: string): Promise<void> {
  await withFreshRead(async () => {
    const group = await publishedGroup(groupId);
    const now = new Date().toISOString();
    try {
      await transactWrite([
        ...membershipDeletes(group, userId, () => signal('not-a-member')),
        groupCountWrite(group, -1, now, { published: true }),
        groupAudit(ctx, groupId, { removed_user_ids: [userId] }, now),
      ]);
    } catch (error) {
      if (!isSignal(error, 'not-a-member')) throw error;
      if (!(await findUser(userId))) throw notFound('User', userId);
      throw notAGroupMember(groupId, [userId]);
    }
  });
}

/**
 * Takes a user out of every group, before the user is deleted: in
 * transactions of their own, since a user may be in more groups than one
 * transaction holds. A membership of a group that still exists (published,
 * or pending in a running G3) goes with that group's `user_count` and an
 * audit entry (4 items); one of a deleted group whose memberships the sweeper
 * has not removed yet just goes (2 items): a generation, once deleted, never
 * comes back, so nothing can race it. The caller has locked additions
 * first (lockGroupAdditions), so what the Query finds is all there is; it
 * stops starting transactions after `deadline`. Answers whether anything
 * was removed.
 */
export async function leaveAllGroups(ctx: ChangeContext, userId: string, deadline: number): Promise<boolean> {
  const memberships = await userMemberships(userId);
  if (memberships.length === 0) return false;
  const groups = await findGroupItems([...new Set(memberships.map((m) => m.id))]);
  const now = new Date().toISOString();
  const parts = memberships.map((membership) => {
    const group = groups.get(membership.id);
    if (group?.generation !== membership.generation) return { writes: membershipDeletes(membership, userId), ruleGroup: false };
    const writes = [
      groupCountWrite(membership, -1, now, { published: false }),
      ...membershipDeletes(membership, userId, () => new StaleReadError()),
      groupAudit(ctx, membership.id, { removed_user_ids: [userId], reason: 'user deleted' }, now),
      // A rule group held at its limit has room now: its rule is applied again (lib/groups/rule-follow.ts).
      ...(group.rule_status === 'over_limit' ? [groupRuleWorkWrite(membership.id, now)] : []),
    ];
    return { writes, ruleGroup: group.rule !== null };
  });
  // Each transaction that takes the user out of a rule group also writes the user's rule work (one item more):
  // should the deletion then fail (412, 409, 503), the user, back in no group, joins again the rule groups it
  // matches. That work waits while the deletion's lock holds, and a deleted user joins nothing.
  const transactions: Array<{ writes: Write[]; ruleGroup: boolean }> = [{ writes: [], ruleGroup: false }];
  for (const part of parts) {
    const last = transactions[transactions.length - 1];
    if (last.writes.length + part.writes.length + 1 > MAX_TRANSACTION_ITEMS) transactions.push({ ...part, writes: [...part.writes] });
    else transactions[transactions.length - 1] = { writes: [...last.writes, ...part.writes], ruleGroup: last.ruleGroup || part.ruleGroup };
  }
  for (const { writes, ruleGroup } of transactions) {
    if (Date.now() > deadline) throw conflict(`Deleting user "${userId}" took too long; retry the request.`);
    await transactWrite(ruleGroup ? [...writes, userRuleWorkWrite(userId, null, now)] : writes);
  }
  return true;
}
