/**
 * Group memberships and the cleanup markers of deleted groups.
 *
 * | item                 | pk                    | sk                   | byName index                     |
 * |----------------------|-----------------------|----------------------|----------------------------------|
 * | member (group side)  | MEMBERS#<id>#<gen>    | USER#<user>          |                                  |
 * | member (user side)   | USER#<user>           | GROUP#<id>#<gen>     |                                  |
 * | cleanup marker       | GROUP#<id>            | CLEANUP#<gen>        | GROUPS#CLEANUP, <at>#<id>#<gen>  |
 *
 * A membership is two items, always written and deleted together: the
 * group's side (G1 reads a group's members with one consistent Query) and the
 * user's side (a user's deletion reads its groups the same way). Neither has
 * index entries. `<gen>` is the group's generation (store/groups.ts).
 */
import { batchDelete, batchGetItems, partitionItems } from '../db/batch';
import { Condition } from '../db/expression';
import * as attr from '../db/item-kind';
import { deleteItem } from '../db/items';
import { queryStream } from '../db/query';
import { INDEXES, type Key } from '../db/table';
import { put, remove, type Explain, type Write } from '../db/transact';
import type { GroupRef } from './groups';
import { userKey } from './users';

export const membersPartition = (group: GroupRef) => `MEMBERS#${group.id}#${group.generation}`;
const USER_GROUPS_PREFIX = 'GROUP#';

/** Both sides of a membership hold the same attributes. */
const MEMBERSHIP_ATTRIBUTES = { group_id: attr.string, generation: attr.string, user_id: attr.string, added_at: attr.string };

const groupMemberKind = attr.itemKind({
  type: 'group-member',
  key: (group: GroupRef, userId: string): Key => ({ pk: membersPartition(group), sk: `USER#${userId}` }),
  attributes: MEMBERSHIP_ATTRIBUTES,
  indexAttributes: {},
});

const userGroupKind = attr.itemKind({
  type: 'user-group',
  key: (userId: string, group: GroupRef): Key => ({ pk: userKey(userId).pk, sk: `${USER_GROUPS_PREFIX}${group.id}#${group.generation}` }),
  attributes: MEMBERSHIP_ATTRIBUTES,
  indexAttributes: {},
});

const CLEANUPS_PARTITION = 'GROUPS#CLEANUP';

const cleanupMarkerKind = attr.itemKind({
  type: 'group-cleanup',
  key: (group: GroupRef): Key => ({ pk: `GROUP#${group.id}`, sk: `CLEANUP#${group.generation}` }),
  attributes: { group_id: attr.string, generation: attr.string, deleted_at: attr.string },
  indexAttributes: { gsi1pk: attr.string, gsi1sk: attr.string },
});

export const groupMemberKey = groupMemberKind.key;
export const userGroupKey = userGroupKind.key;
export const cleanupMarkerKey = cleanupMarkerKind.key;

/** The two items of a membership: the group's side and the user's side. */
export function membershipItems(
  group: GroupRef,
  userId: string,
  now: string,
): [attr.ItemOf<typeof groupMemberKind>, attr.ItemOf<typeof userGroupKind>] {
  const attributes = { group_id: group.id, generation: group.generation, user_id: userId, added_at: now };
  return [groupMemberKind.item(groupMemberKey(group, userId), attributes), userGroupKind.item(userGroupKey(userId, group), attributes)];
}

/** Both items of a membership; the group's side only if absent (`explain` answers one already there). */
export function membershipPuts(group: GroupRef, userId: string, now: string, explain: Explain): [Write, Write] {
  const [groupSide, userSide] = membershipItems(group, userId, now);
  return [put(groupSide, new Condition().whenAbsent(), { explain }), put(userSide)];
}

/** Both items of a membership; with `explain`, only if the group's side exists. */
export function membershipDeletes(group: GroupRef, userId: string, explain?: Explain): [Write, Write] {
  return [
    remove(groupMemberKey(group, userId), explain ? new Condition().whenExists() : undefined, { explain }),
    remove(userGroupKey(userId, group)),
  ];
}

/** Ids of a group's members, from its member partition (strongly consistent). */
export async function memberIds(group: GroupRef): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of partitionItems(membersPartition(group), { attributes: ['user_id'] })) {
    ids.push(groupMemberKind.attribute(item, 'user_id'));
  }
  return ids;
}

/**
 * Up to `limit` member ids of a group in id order, strictly after (or, descending, before) `after`: one
 * consistent Query of the member partition that reads about what it answers.
 */
export async function memberIdsPage(group: GroupRef, options: { after?: string; descending: boolean; limit: number }): Promise<string[]> {
  const { after, descending, limit } = options;
  // '$' follows '#': `USER$` is above every member's key.
  const range =
    after === undefined
      ? { from: 'USER#', to: 'USER$' }
      : descending
        ? { from: 'USER#', to: `USER#${after}` }
        : { from: `USER#${after}`, to: 'USER$' };
  const ids: string[] = [];
  if (limit <= 0) return ids;
  const items = partitionItems(membersPartition(group), { skBetween: range, descending, pageSize: limit + 1, attributes: ['user_id'] });
  for await (const item of items) {
    const id = groupMemberKind.attribute(item, 'user_id');
    if (id === after) continue;
    ids.push(id);
    if (ids.length === limit) break;
  }
  return ids;
}

/** Which of `userIds` are members of the group (strongly consistent BatchGetItem of the group's side). */
export async function membersAmong(group: GroupRef, userIds: string[]): Promise<Set<string>> {
  const found = await batchGetItems(
    userIds.map((userId) => groupMemberKey(group, userId)),
    { consistent: true },
  );
  return new Set(found.map((item) => groupMemberKind.attribute(item, 'user_id')));
}

/** The groups (generations) a user is in, from its own partition (strongly consistent). */
export async function userMemberships(userId: string): Promise<GroupRef[]> {
  const memberships: GroupRef[] = [];
  for await (const item of partitionItems(userKey(userId).pk, { skPrefix: USER_GROUPS_PREFIX })) {
    const { group_id: id, generation } = userGroupKind.read(item);
    memberships.push({ id, generation });
  }
  return memberships;
}

/**
 * Removes memberships of a deleted generation: the users' sides first, then
 * the group's, so that a sweep interrupted anywhere finds what is left from
 * the group's partition.
 */
export async function deleteMemberships(group: GroupRef, userIds: string[]): Promise<void> {
  await batchDelete(userIds.map((userId) => userGroupKey(userId, group)));
  await batchDelete(userIds.map((userId) => groupMemberKey(group, userId)));
}

// --- cleanup markers ---------------------------------------------------------

/** Marks a deleted generation whose memberships are still to be removed. */
export const cleanupMarkerPut = (group: GroupRef, at: string): Write =>
  put(
    cleanupMarkerKind.item(cleanupMarkerKey(group), {
      group_id: group.id,
      generation: group.generation,
      deleted_at: at,
      gsi1pk: CLEANUPS_PARTITION,
      gsi1sk: `${at}#${group.id}#${group.generation}`,
    }),
  );

export const deleteCleanupMarker = (group: GroupRef): Promise<void> => deleteItem(cleanupMarkerKey(group));

/** Every deleted generation whose memberships are still to be removed, oldest first. */
export async function cleanupMarkers(): Promise<GroupRef[]> {
  const markers: GroupRef[] = [];
  for await (const marker of queryStream({ index: INDEXES.byName, partition: CLEANUPS_PARTITION })) {
    const { group_id: id, generation } = cleanupMarkerKind.read(marker);
    markers.push({ id, generation });
  }
  return markers;
}
