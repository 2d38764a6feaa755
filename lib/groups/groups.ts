/**
 * Groups v2: the rules every group operation shares, the representation, and
 * the reads (G1, G2).
 *
 * A group is one item holding `user_count` and a `generation` under which
 * its memberships live (lib/store/groups.ts, memberships.ts); its name is
 * claimed by an item written and moved in the same transaction as the group,
 * which makes names unique case-insensitively (lib/store/group-names.ts).
 *
 * Where the rest lives: the list of a group's users in member-list.ts, the group PATCH in update.ts, G3 in create.ts, G4/G5
 * and a deleted user's memberships in members.ts, G6/G7 and the sweeper in
 * cleanup.ts, and SCIM's changes of more members than a transaction holds in
 * bulk-change.ts.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ChangeContext } from '../audit/context';
import { claimFor, releaseFor } from '../store/claims';
import { recordChange } from '../audit/context';
import { StaleReadError } from '../db/errors';
import type { Write } from '../db/transact';
import { listNamed, type NamedListRequest } from '../lists/named';
import { conflict, notFound, Problem } from '../problems';
import type { Group as GroupWithUsers } from '../schemas/responses';
import { claimGroupNameWrite, releaseGroupNameWrite } from '../store/group-names';
import { StillApplying } from '../slow-changes';
import { hasOpenChange } from '../store/group-changes';
import { findGroupItem, groupList, isPublished, toGroup, type Group, type StoredGroup } from '../store/groups';
import { memberIds } from '../store/memberships';
import { GROUPS_COUNTER } from '../store/stats';
import { findUsers } from '../store/users';
import { compareCodePoints, compareText, foldCase } from '../text';
import { userRepresentation, type User } from '../users/user';

export type { Group, GroupWithUsers, StoredGroup };

/** A group holds at most 10,000 users (a limit of the contract). */
export const MAX_GROUP_USERS = 10_000;

/** Path words under /v2/groups that cannot be group ids (G8 is /v2/groups/exports). */
export const RESERVED_GROUP_IDS = ['exports'];

/** Sizes of the paths that do not fit one transaction (100 items), and the leases of those paths. */
export interface GroupTuning {
  /** G3: users created with the group in one transaction (group, name, stats, audit + 3 per user). */
  singleTransactionUsers: number;
  /** A large change's parts (bulk-change.ts, a large G3 included): users per part at most (what a transaction holds, 32 additions, is the other bound). */
  chunkUsers: number;
  /** A large change's parts: transactions in flight at once. */
  chunkConcurrency: number;
  /** SCIM PUT/PATCH: members added or removed in one transaction (3 items an addition, 2 a removal); more are applied in parts (bulk-change.ts). */
  singleTransactionMemberChanges: number;
  /** G6: members removed in the delete transaction itself (group, name, stats, audit + 2 per member). */
  inlineDeleteMembers: number;
  /** G6/G7: up to this many memberships are swept before answering; more are left to sweepDeletedGroups. */
  inlineSweepMembers: number;
  /** A large change of a group's members (bulk-change.ts) whose driver is silent this long is finished by the healer. */
  changeLeaseMs: number;
}

/** The service's sizes: the transaction sizes are the largest that fit. */
export const DEFAULT_GROUP_TUNING: Readonly<GroupTuning> = Object.freeze({
  singleTransactionUsers: 32,
  chunkUsers: 32,
  chunkConcurrency: 16,
  singleTransactionMemberChanges: 30,
  inlineDeleteMembers: 48,
  inlineSweepMembers: 1000,
  changeLeaseMs: 60_000,
});

const tuningScope = new AsyncLocalStorage<Readonly<GroupTuning>>();

/** The sizes in force: the service's, unless the work runs under others (withGroupTuning). */
export const groupTuning = (): Readonly<GroupTuning> => tuningScope.getStore() ?? DEFAULT_GROUP_TUNING;

/**
 * Runs `work` (and everything it starts) with some sizes changed: tests reach
 * the multi-transaction paths with a handful of users, without changing the
 * sizes of anything else.
 */
export function withGroupTuning<T>(changes: Partial<GroupTuning>, work: () => T): T {
  return tuningScope.run(Object.freeze({ ...groupTuning(), ...changes }), work);
}

export const groupRepresentation = ({
  id,
  name,
  description,
  external_id,
  user_count,
  rule,
  rule_status,
  bulk_status,
  created_at,
  updated_at,
}: Group): Group => ({
  id,
  name,
  description,
  external_id,
  user_count,
  rule,
  rule_status,
  bulk_status,
  created_at,
  updated_at,
});

/** A new group as its audit entry records it: what was created, without the state of its creation. */
export function createdRecord(group: Group): Omit<Group, 'bulk_status'> {
  const { bulk_status: _, ...created } = groupRepresentation(group);
  return created;
}

/** G1's order: last name case-insensitively, then id. */
export function sortMembers(users: User[]): User[] {
  return users.sort((a, b) => compareText(a.last_name, b.last_name) || compareCodePoints(a.id, b.id));
}

export const groupNotFound = (id: string) => notFound('Group', id);

export async function getGroup(id: string): Promise<StoredGroup> {
  const item = await findGroupItem(id);
  if (!isPublished(item)) throw groupNotFound(id);
  return toGroup(item);
}

export function notAGroupMember(groupId: string, userIds: string[]): Problem {
  return new Problem('not-a-member', `Not a member of group "${groupId}": ${userIds.join(', ')}.`, { user_ids: userIds });
}

export const groupFull = (groupId: string) =>
  conflict(`Group "${groupId}" already holds ${MAX_GROUP_USERS} users, the most a group can hold.`, { limit: MAX_GROUP_USERS });

/** Members of a rule group are kept by its rule, not by hand (SCIM answers it as 400 `mutability`). */
export const ruleManaged = (groupId: string) =>
  new Problem(
    'rule-managed',
    `The members of group "${groupId}" are kept by its rule; change the rule, or turn it off (rule: null) to manage them by hand.`,
  );

/** A large change of the group's members is being applied (bulk-change.ts): other changes of them wait for it. */
export const groupBusy = (groupId: string) =>
  conflict(`The members of group "${groupId}" are being changed by another request; retry in a few seconds.`);

export const nameTaken = (name: string) =>
  conflict(`A group named "${name}" already exists (names are compared case-insensitively).`, { field: 'name' });

/** Claims a name for a group; a claim held by another group is a 409. */
export const claimName = (groupId: string, name: string): Write => claimGroupNameWrite(groupId, name, () => nameTaken(name));

/** Gives up a group's name; a rename racing us makes the read stale. */
export const releaseName = (groupId: string, name: string): Write => releaseGroupNameWrite(groupId, name, () => new StaleReadError());

/** The group's identity claims: its name, and its external id when it has one. */
export const claimIdentity = (groupId: string, name: string, externalId: string | null): Write[] => [
  claimName(groupId, name),
  ...(externalId === null ? [] : [claimExternalId(groupId, externalId)]),
];

export const releaseIdentity = (group: { id: string; name: string; external_id: string | null }): Write[] => [
  releaseName(group.id, group.name),
  ...(group.external_id === null ? [] : [releaseExternalId(group.id, group.external_id)]),
];

/**
 * The claims a change of the group's name or external id moves: the old one
 * given up, the new one taken (`undefined`: unchanged). A name that changes
 * only in case keeps its claim (names compare case-insensitively).
 */
export function identityChangeWrites(
  group: { id: string; name: string; external_id: string | null },
  change: { name?: string; external_id?: string | null },
): Write[] {
  const writes: Write[] = [];
  if (change.name !== undefined && foldCase(change.name) !== foldCase(group.name)) {
    writes.push(releaseName(group.id, group.name), claimName(group.id, change.name));
  }
  if (change.external_id !== undefined && change.external_id !== group.external_id) {
    if (group.external_id !== null) writes.push(releaseExternalId(group.id, group.external_id));
    if (change.external_id !== null) writes.push(claimExternalId(group.id, change.external_id));
  }
  return writes;
}

export const externalIdTaken = (externalId: string) =>
  conflict(`A group with external id "${externalId}" already exists.`, { field: 'external_id' });

export const claimExternalId = (groupId: string, externalId: string): Write =>
  claimFor('group_external_id', externalId, groupId, () => externalIdTaken(externalId));

export const releaseExternalId = (groupId: string, externalId: string): Write =>
  releaseFor('group_external_id', externalId, groupId, () => new StaleReadError());

export const groupAudit = (ctx: ChangeContext, groupId: string, changes: Record<string, unknown>, at: string): Write =>
  recordChange(ctx, { resourceType: 'group', resourceId: groupId, changes });

/** Users by id as the API shows them (strongly consistent); absent users are left out. */
export async function readUsers(ids: string[]): Promise<Map<string, User>> {
  const found = await findUsers(ids);
  return new Map([...found].map(([id, user]) => [id, userRepresentation(user)]));
}

/** The members of a group generation that still exist, in G1's order. */
export async function membersOf(group: { id: string; generation: string }): Promise<User[]> {
  const ids = await memberIds(group);
  const found = await readUsers(ids);
  return sortMembers(ids.flatMap((userId) => (found.has(userId) ? [found.get(userId)!] : [])));
}

/**
 * G1: the group and every member (its answer carries the first 1,000:
 * member-list.ts withUsers). The member partition is read with one
 * consistent Query (about 100 bytes per member), the users with BatchGetItem;
 * the sort happens here, after the read, so a user's last-name change never
 * needs the memberships rewritten.
 */
export async function getGroupWithUsers(id: string): Promise<{ group: StoredGroup; users: User[] }> {
  const group = await getGroup(id);
  return { group, users: await membersOf(group) };
}

/** The group once a large change of its members has completed (a repeat of a 202, lib/http/applying.ts); StillApplying until then. */
export async function groupAfterChange(id: string): Promise<StoredGroup> {
  const item = await findGroupItem(id);
  // Absent while a G3's commit is still in flight (its change is open), or for good when it failed.
  if (!isPublished(item)) throw (await hasOpenChange(id)) ? new StillApplying({ type: 'group', id }) : groupNotFound(id);
  const group = toGroup(item);
  if (group.bulk_status === 'applying') throw new StillApplying({ type: 'group', id });
  return group;
}

export async function listGroups(request: NamedListRequest) {
  const { items, ...page } = await listNamed(
    { kind: 'groups', list: groupList, counter: GROUPS_COUNTER, toResource: (item) => groupRepresentation(toGroup(item)) },
    request,
  );
  return { groups: items, ...page };
}
