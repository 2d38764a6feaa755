/**
 * Groups v2: representation, reads (G1, G2), the group update, and the write
 * pieces the other group modules share.
 *
 * A group is one item (`GROUP#<id>`) holding `user_count`, a counter moved in
 * the same transaction as every membership item, and `generation`, a random
 * id made at creation: memberships live under that generation
 * (`MEMBERS#<id>#<generation>`), so a new group with the id of a deleted one
 * never sees the old group's memberships while they are being removed. Its
 * name is claimed by a `GROUPNAME#<folded name>` item written and moved in the
 * same transaction as the group, which makes names unique case-insensitively.
 *
 * Where the rest lives: G3 in group-create.ts, G4/G5 and a deleted user's
 * memberships in group-members.ts, G6/G7 and the sweeper in group-cleanup.ts.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetItems, partitionItems } from '../db/bulk';
import { db, tableName } from '../db/client';
import { GROUPS_PARTITION, groupIndexAttributes, groupKey, groupMembersPartition, groupNameKey, type GroupState } from '../db/keys';
import type { Item } from '../db/query';
import { StaleReadError, transactWrite, withFreshRead, type Write } from '../db/transact';
import { conflict, DomainError, notFound, preconditionFailed } from '../errors';
import { compareCodePoints, compareText, foldCase } from '../text';
import { auditWrite, type ChangeContext } from './audit';
import { listNamed, type NamedListParams } from './named-list';
import { GROUPS_COUNTER } from './stats';
import { findUsers, userRepresentation, type User } from './users';

/** API.md: a group holds at most 10,000 users. */
export const MAX_GROUP_USERS = 10_000;

/** Path words under /v2/groups that cannot be group ids (G8 is /v2/groups/exports). */
export const RESERVED_GROUP_IDS = ['exports'];

/**
 * Sizes of the paths that do not fit one transaction (100 items). Tests lower
 * them to reach those paths with a handful of users; the transaction sizes
 * below are the largest that fit.
 */
export const groupTuning = {
  /** G3: users created with the group in one transaction (group, name, stats, audit + 3 per user). */
  singleTransactionUsers: 32,
  /** G3 in steps: users per membership transaction (audit + 3 per user). */
  chunkUsers: 32,
  /** G3 in steps: membership transactions in flight at once. */
  chunkConcurrency: 16,
  /** G6: members removed in the delete transaction itself (group, name, stats, audit + 2 per member). */
  inlineDeleteMembers: 48,
  /** G6/G7/rolled-back G3: up to this many memberships are swept before answering; more are left to sweepDeletedGroups. */
  inlineSweepMembers: 1000,
  /** A group still pending this long after its creation started is abandoned by the sweeper (a G3 runs for seconds). */
  pendingLeaseMs: 5 * 60_000,
};

export interface Group {
  id: string;
  name: string;
  description: string;
  user_count: number;
  created_at: string;
  updated_at: string;
}

export interface StoredGroup extends Group {
  version: number;
  generation: string;
  state: GroupState;
}

/** G1's group: the list representation plus every user, in API.md's field order. */
export type GroupWithUsers = Pick<Group, 'id' | 'name' | 'description' | 'user_count'> & { users: User[] } & Pick<
    Group,
    'created_at' | 'updated_at'
  >;

export function toGroup(item: Item): StoredGroup {
  return {
    id: String(item.id),
    name: String(item.name),
    description: String(item.description ?? ''),
    user_count: Number(item.user_count ?? 0),
    created_at: String(item.created_at),
    updated_at: String(item.updated_at),
    version: Number(item.version),
    generation: String(item.generation),
    state: item.state as GroupState,
  };
}

export const groupRepresentation = ({ id, name, description, user_count, created_at, updated_at }: Group): Group => ({
  id,
  name,
  description,
  user_count,
  created_at,
  updated_at,
});

export function withUsers(group: Group, users: User[]): GroupWithUsers {
  const { id, name, description, user_count, created_at, updated_at } = group;
  return { id, name, description, user_count, users, created_at, updated_at };
}

/** G1's order: last name case-insensitively, then id. */
export function sortMembers(users: User[]): User[] {
  return users.sort((a, b) => compareText(a.last_name, b.last_name) || compareCodePoints(a.id, b.id));
}

/** The attributes of a group item that follow from its name and state. */
export function groupNameAttributes(group: { id: string; name: string; state: GroupState; lease_until?: string }) {
  return { name: group.name, name_folded: foldCase(group.name), ...groupIndexAttributes(group) };
}

export async function findGroupItem(id: string): Promise<Item | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: groupKey(id), ConsistentRead: true }));
  return result.Item;
}

/** The group holding a name (case-insensitively), if any. */
export async function findNameClaim(name: string): Promise<Item | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: groupNameKey(name), ConsistentRead: true }));
  return result.Item;
}

/** A group that exists for the API: published (a pending group is still being created by a G3). */
export const isPublished = (item: Item | undefined): item is Item => item?.state === 'active';

export async function getGroup(id: string): Promise<StoredGroup> {
  const item = await findGroupItem(id);
  if (!isPublished(item)) throw notFound('Group', id);
  return toGroup(item);
}

export function notAGroupMember(groupId: string, userIds: string[]): DomainError {
  return new DomainError('not-a-member', `Not a member of group "${groupId}": ${userIds.join(', ')}.`, { user_ids: userIds });
}

export const groupFull = (groupId: string) =>
  conflict(`Group "${groupId}" already holds ${MAX_GROUP_USERS} users, the most a group can hold.`, { limit: MAX_GROUP_USERS });

/** Ids of a group's members, from its member partition (strongly consistent). */
export async function memberIds(group: { id: string; generation: string }): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of partitionItems(groupMembersPartition(group.id, group.generation), { attributes: ['user_id'] })) {
    ids.push(String(item.user_id));
  }
  return ids;
}

/** Users by id as the API shows them (strongly consistent); absent users are left out. */
export async function readUsers(ids: string[]): Promise<Map<string, User>> {
  const found = await findUsers(ids);
  return new Map([...found].map(([id, user]) => [id, userRepresentation(user)]));
}

/** Group items by id (strongly consistent); absent groups are left out. */
export async function readGroupItems(ids: string[]): Promise<Map<string, Item>> {
  const found = await batchGetItems(ids.map(groupKey), { consistent: true });
  return new Map(found.map((item) => [String(item.id), item]));
}

/**
 * G1: the group and every member. The member partition is read with one
 * consistent Query (about 100 bytes per member), the users with BatchGetItem;
 * the sort happens here, after the read, so a user's last-name change never
 * needs the memberships rewritten.
 */
export async function getGroupWithUsers(id: string): Promise<{ group: StoredGroup; users: User[] }> {
  const group = await getGroup(id);
  const ids = await memberIds(group);
  const found = await readUsers(ids);
  const users = ids.flatMap((userId) => {
    const user = found.get(userId);
    return user ? [user] : [];
  });
  return { group, users: sortMembers(users) };
}

export async function listGroups(params: NamedListParams) {
  const { items, ...page } = await listNamed(
    { partition: GROUPS_PARTITION, counter: GROUPS_COUNTER, toResource: (item) => groupRepresentation(toGroup(item)) },
    params,
  );
  return { groups: items, ...page };
}

// ---------------------------------------------------------------------------
// Shared writes

export const nameTaken = (name: string) =>
  conflict(`A group named "${name}" already exists (names are compared case-insensitively).`, { field: 'name' });

/** Claims a name for a group; a claim held by another group is a 409. */
export function claimNameWrite(groupId: string, name: string): Write {
  return {
    item: {
      Put: {
        TableName: tableName(),
        Item: { ...groupNameKey(name), type: 'group-name', group_id: groupId, name },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    explain: () => nameTaken(name),
  };
}

/** Gives up a group's name; conditional on the claim being this group's (a rename racing us makes the read stale). */
export function releaseNameWrite(groupId: string, name: string): Write {
  return {
    item: {
      Delete: {
        TableName: tableName(),
        Key: groupNameKey(name),
        ConditionExpression: 'group_id = :gid',
        ExpressionAttributeValues: { ':gid': groupId },
      },
    },
    explain: () => new StaleReadError(),
  };
}

export const groupAudit = (ctx: ChangeContext, groupId: string, changes: Record<string, unknown>, at: string): Write =>
  auditWrite(ctx, { resourceType: 'group', resourceId: groupId, changes }, at);

// ---------------------------------------------------------------------------
// PATCH /v2/groups/{id}

export interface GroupPatch {
  name?: string;
  description?: string;
}

/**
 * Renames and/or re-describes a group. A rename moves the name claim in the
 * same transaction (unless only the case changes). The write is conditional
 * on the name read (so the claim released is the one the group holds), and
 * on the If-Match version when given; not on the version otherwise, so that
 * membership changes, which bump it, do not make the update retry.
 */
export async function updateGroup(ctx: ChangeContext, id: string, patch: GroupPatch, expectedVersion?: number): Promise<StoredGroup> {
  return withFreshRead(async () => {
    const before = await getGroup(id);
    const after = { ...before, ...patch };
    const changes: Record<string, { from: string; to: string }> = {};
    if (after.name !== before.name) changes.name = { from: before.name, to: after.name };
    if (after.description !== before.description) changes.description = { from: before.description, to: after.description };
    if (Object.keys(changes).length === 0) {
      if (expectedVersion !== undefined && expectedVersion !== before.version) throw preconditionFailed();
      return before;
    }
    const now = new Date().toISOString();
    const named = groupNameAttributes({ id, name: after.name, state: 'active' });
    let condition = 'attribute_exists(pk) AND #state = :active AND name_folded = :before';
    if (expectedVersion !== undefined) condition += ' AND version = :version';
    const writes: Write[] = [
      {
        item: {
          Update: {
            TableName: tableName(),
            Key: groupKey(id),
            UpdateExpression:
              'SET #name = :name, name_folded = :folded, gsi1sk = :sk, description = :description, updated_at = :now ADD version :one',
            ConditionExpression: condition,
            ExpressionAttributeNames: { '#name': 'name', '#state': 'state' },
            ExpressionAttributeValues: {
              ':name': after.name,
              ':folded': named.name_folded,
              ':sk': named.gsi1sk,
              ':description': after.description,
              ':now': now,
              ':one': 1,
              ':active': 'active',
              ':before': foldCase(before.name),
              ...(expectedVersion !== undefined ? { ':version': expectedVersion } : {}),
            },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        explain: (stored) => {
          if (!isPublished(stored)) return notFound('Group', id);
          return expectedVersion !== undefined && stored.version !== expectedVersion ? preconditionFailed() : new StaleReadError();
        },
      },
    ];
    if (foldCase(after.name) !== foldCase(before.name)) writes.push(releaseNameWrite(id, before.name), claimNameWrite(id, after.name));
    writes.push(groupAudit(ctx, id, changes, now));
    await transactWrite(writes);
    return { ...after, updated_at: now, version: before.version + 1 };
  });
}
