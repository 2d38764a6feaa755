/**
 * Group membership: G4 (add), G5 (remove), and taking a user out of every
 * group before the user is deleted.
 *
 * A membership is two items (keys.ts): `MEMBERS#<group>#<generation>` /
 * `USER#<user>` for the group's side and `USER#<user>` / `GROUP#<group>#<generation>`
 * for the user's side, always written and deleted together, in the same
 * transaction as the group's `user_count` (and `version`, the group's ETag).
 *
 * Races, and what settles each:
 * - G4 ∥ G4 (same user): the group-side Put is conditional on not existing;
 *   the loser reads again and answers "already a member".
 * - G4 ∥ G4 near the limit: `user_count < 10000` is a condition on the group
 *   item in every adding transaction, so the count never passes the limit.
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
import { ConditionalCheckFailedException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { partitionItems } from '../db/bulk';
import { db, tableName } from '../db/client';
import { groupKey, groupMemberKey, USER_GROUPS_PREFIX, userGroupKey, userKey } from '../db/keys';
import { MAX_TRANSACTION_ITEMS, StaleReadError, transactWrite, withFreshRead, type Write } from '../db/transact';
import { conflict, DomainError, notFound } from '../errors';
import type { ChangeContext } from './audit';
import { findGroupItem, groupAudit, groupFull, isPublished, MAX_GROUP_USERS, notAGroupMember, readGroupItems } from './groups';
import { findUser, type StoredUser } from './users';

export interface GroupRef {
  id: string;
  generation: string;
}

/** Raised by a write whose user vanished under it; G3 turns it into `missing_user_ids`. */
export class MissingUserError extends DomainError {
  constructor(readonly userId: string) {
    super('not-found', `User "${userId}" does not exist.`, { missing_user_ids: [userId] });
  }
}

/** The two items of a membership. */
export function membershipPuts(group: GroupRef, userId: string, now: string): Write[] {
  const attributes = { group_id: group.id, generation: group.generation, user_id: userId, added_at: now };
  return [
    {
      item: {
        Put: {
          TableName: tableName(),
          Item: { ...groupMemberKey(group.id, group.generation, userId), type: 'group-member', ...attributes },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      explain: () => new StaleReadError(), // added by a racing request: read again
    },
    {
      item: {
        Put: { TableName: tableName(), Item: { ...userGroupKey(userId, group.id, group.generation), type: 'user-group', ...attributes } },
      },
    },
  ];
}

/** The two items of a membership; `conditional`: fail (as a stale read) unless it still exists. */
export function membershipDeletes(group: GroupRef, userId: string, conditional: boolean): Write[] {
  return [
    {
      item: {
        Delete: {
          TableName: tableName(),
          Key: groupMemberKey(group.id, group.generation, userId),
          ...(conditional ? { ConditionExpression: 'attribute_exists(pk)' } : {}),
        },
      },
      explain: () => new StaleReadError(), // removed by a racing request: read again
    },
    { item: { Delete: { TableName: tableName(), Key: userGroupKey(userId, group.id, group.generation) } } },
  ];
}

/** How long a user's deletion holds off group additions: far beyond the 10 s a function may run. */
export const GROUP_LOCK_MS = 5 * 60_000;

/**
 * Every group addition checks that the user exists and is not being deleted
 * (see the top of this file). A lock left by a deletion that died expires.
 */
export function userCheckWrite(userId: string, now: string): Write {
  return {
    item: {
      ConditionCheck: {
        TableName: tableName(),
        Key: userKey(userId),
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(group_lock) OR group_lock < :now)',
        ExpressionAttributeValues: { ':now': now },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    explain: (stored) => (stored ? conflict(`User "${userId}" is being deleted.`) : new MissingUserError(userId)),
  };
}

/**
 * The first step of a user's deletion: from here on no group addition of
 * the user can commit. Conditional on the version read (the final delete is
 * too) and on no department bulk move holding the user. Answers when the
 * lock expires; the deletion must be done well before.
 */
export async function lockGroupAdditions(user: StoredUser): Promise<number> {
  const until = Date.now() + GROUP_LOCK_MS;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: userKey(user.id),
        UpdateExpression: 'SET group_lock = :until',
        ConditionExpression: 'version = :version AND attribute_not_exists(bulk_lock)',
        ExpressionAttributeValues: { ':until': new Date(until).toISOString(), ':version': user.version },
      }),
    );
  } catch (error) {
    // Changed, deleted or held since it was read: the caller reads again (and answers 404 or 412 if so).
    if (error instanceof ConditionalCheckFailedException || error instanceof TransactionConflictException) throw new StaleReadError();
    throw error;
  }
  return until;
}

/** Gives up the lock of a deletion that failed (best effort: it expires anyway). */
export async function unlockGroupAdditions(userId: string, until: number): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: userKey(userId),
        UpdateExpression: 'REMOVE group_lock',
        ConditionExpression: 'group_lock = :until',
        ExpressionAttributeValues: { ':until': new Date(until).toISOString() },
      }),
    );
  } catch {
    // Gone, replaced or locked again since: nothing of ours to give up.
  }
}

/**
 * Moves a group's `user_count` (and version) by `delta`. Additions need the
 * group published, of the generation read, and below the limit afterwards;
 * removals only need it to exist in that generation (a pending group of a
 * running G3 loses members when their users are deleted).
 */
export function groupCountWrite(group: GroupRef, delta: number, now: string, options: { published: boolean }): Write {
  const values: Record<string, unknown> = { ':delta': delta, ':one': 1, ':now': now, ':generation': group.generation };
  const names: Record<string, string> = {};
  let condition = 'attribute_exists(pk) AND generation = :generation';
  if (options.published) {
    condition += ' AND #state = :active';
    names['#state'] = 'state';
    values[':active'] = 'active';
  }
  if (delta > 0) {
    condition += ' AND user_count <= :most';
    values[':most'] = MAX_GROUP_USERS - delta;
  }
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: groupKey(group.id),
        UpdateExpression: 'SET updated_at = :now ADD user_count :delta, version :one',
        ConditionExpression: condition,
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    explain: (stored) => {
      // A removal for a user being deleted reads again: the group may just have gone (its memberships go differently then).
      if (!options.published) return new StaleReadError();
      if (!isPublished(stored) || stored.generation !== group.generation) return notFound('Group', group.id);
      if (delta > 0 && Number(stored.user_count) + delta > MAX_GROUP_USERS) return groupFull(group.id);
      return new StaleReadError();
    },
  };
}

/** The published group, as a reference, or 404. */
async function publishedGroup(groupId: string): Promise<GroupRef> {
  const item = await findGroupItem(groupId);
  if (!isPublished(item)) throw notFound('Group', groupId);
  return { id: groupId, generation: String(item.generation) };
}

/** Raised when G4's membership put finds the membership already there. */
class AlreadyMember extends Error {}

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
    const [memberPut, userSidePut] = membershipPuts(group, userId, now);
    try {
      await transactWrite([
        { ...memberPut, explain: () => new AlreadyMember() },
        userSidePut,
        groupCountWrite(group, 1, now, { published: true }),
        userCheckWrite(userId, now),
        groupAudit(ctx, groupId, { added_user_ids: [userId] }, now),
      ]);
    } catch (error) {
      if (error instanceof AlreadyMember) return user;
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
    const [memberDelete, userSideDelete] = membershipDeletes(group, userId, true);
    try {
      await transactWrite([
        { ...memberDelete, explain: () => new NotAMember() },
        userSideDelete,
        groupCountWrite(group, -1, now, { published: true }),
        groupAudit(ctx, groupId, { removed_user_ids: [userId] }, now),
      ]);
    } catch (error) {
      if (!(error instanceof NotAMember)) throw error;
      if (!(await findUser(userId))) throw notFound('User', userId);
      throw notAGroupMember(groupId, [userId]);
    }
  });
}

/** Raised when G5's conditional membership delete finds no membership. */
class NotAMember extends Error {}

/** The user's memberships, from its own partition (strongly consistent). */
async function userMemberships(userId: string): Promise<GroupRef[]> {
  const memberships: GroupRef[] = [];
  for await (const item of partitionItems(userKey(userId).pk, { skPrefix: USER_GROUPS_PREFIX })) {
    memberships.push({ id: String(item.group_id), generation: String(item.generation) });
  }
  return memberships;
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
  const groups = await readGroupItems([...new Set(memberships.map((m) => m.id))]);
  const now = new Date().toISOString();
  const parts = memberships.map((membership) => {
    const group = groups.get(membership.id);
    if (group?.generation !== membership.generation) return membershipDeletes(membership, userId, false);
    return [
      groupCountWrite(membership, -1, now, { published: false }),
      ...membershipDeletes(membership, userId, true),
      groupAudit(ctx, membership.id, { removed_user_ids: [userId], reason: 'user deleted' }, now),
    ];
  });
  const transactions: Write[][] = [[]];
  for (const part of parts) {
    if (transactions[transactions.length - 1].length + part.length > MAX_TRANSACTION_ITEMS) transactions.push([]);
    transactions[transactions.length - 1].push(...part);
  }
  for (const writes of transactions) {
    if (Date.now() > deadline) throw conflict(`Deleting user "${userId}" took too long; retry the request.`);
    await transactWrite(writes);
  }
  return true;
}
