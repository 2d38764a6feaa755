/**
 * SCIM's /Groups: groups of the service (G1–G7) as SCIM resources. A PUT or
 * PATCH is one change — name, external id and members together — all or
 * nothing. Only who is not a member yet is added and only who is one
 * removed (an identity provider retries); a PUT's members are the difference
 * with who is there. Then:
 *
 * - up to `singleTransactionMemberChanges` (30) members added or removed:
 *   one transaction of their membership items with the group's `user_count`
 *   and version (the version read, so a concurrent change makes it read
 *   again);
 * - a replace by no more members than that, of a group that differs by
 *   more (Entra's `remove members` without a value, or a PUT of a few): the
 *   group starts a new generation, the old one's memberships swept later (as
 *   a deleted group's are), with the members written into the new one in the
 *   same transaction;
 * - any other change of more members: decided in one transaction and
 *   applied in parts (lib/groups/bulk-change.ts).
 */
import type { ChangeContext } from '../audit/context';
import { StaleReadError } from '../db/errors';
import { transactWrite, withFreshRead, type Write } from '../db/transact';
import { createGroup } from '../groups/create';
import {
  getGroup,
  groupAudit,
  groupBusy,
  groupFull,
  groupNotFound,
  groupTuning,
  identityChangeWrites,
  MAX_GROUP_USERS,
  membersOf,
} from '../groups/groups';
import { deleteGroup } from '../groups/cleanup';
import { changeGroupMembersInParts } from '../groups/bulk-change';
import { MissingUserError, newMembership, userCheckWrite } from '../groups/members';
import { newId } from '../ids';
import { notFound, preconditionFailed } from '../problems';
import { claimHolder } from '../store/claims';
import { findGroupNameClaim } from '../store/group-names';
import {
  changeGroupWrite,
  findGroupItem,
  groupList,
  isChanging,
  isPublished,
  isRuleManaged,
  toGroup,
  type StoredGroup,
} from '../store/groups';
import { queryStream } from '../db/query';
import { cleanupMarkerPut, membersAmong, membershipDeletes, memberIds } from '../store/memberships';
import { mutability } from './errors';
import { matches, parseFilter } from './filter';
import { groupListRead, type GroupKey } from './filter-reads';
import { canonical, checkGroupChange, checkMemberIds, checkNewGroup, groupFields } from './input';
import { groupChanges, normalizeOperations, type GroupChanges } from './patch';
import { scimGroup, type ScimResource } from './resources';

/**
 * Members in one answer: a list page holds groups up to this many members together (always at least one group, so
 * a page may hold fewer groups than `count`; itemsPerPage says how many). One group holds at most as many.
 */
const MAX_ANSWER_MEMBERS = 10_000;
/**
 * An answer whose members, with `display` (the user name, up to 255 characters), would pass this many bytes answers
 * them without it (`value` and `$ref`: ~250 bytes at most each, ~2.5 MB for 10,000), so that it stays within the
 * 6 MB a function can return. Only groups of thousands of members with very long user names come near it.
 */
const MEMBERS_WITH_DISPLAY_BYTES = 4 * 1024 * 1024;

export async function asScimGroup(group: StoredGroup, base: string, withMembers: boolean): Promise<ScimResource> {
  return (await asScimGroups([group], base, withMembers))[0];
}

/** Groups as SCIM resources, reading members for these groups only, when asked for (`known`: those already read). */
async function asScimGroups(
  groups: StoredGroup[],
  base: string,
  withMembers: boolean,
  known = new Map<string, ScimMember[]>(),
): Promise<ScimResource[]> {
  if (!withMembers) return groups.map((group) => scimGroup(group, undefined, base));
  const members = await Promise.all(groups.map(async (group) => known.get(group.id) ?? scimMembersOf(group)));
  // As Lambda counts them: the answer's body is itself a JSON string in the function's result (quotes count twice).
  const bytes = members.reduce((sum, list) => sum + Buffer.byteLength(JSON.stringify(JSON.stringify(list)), 'utf8'), 0);
  const shown = bytes <= MEMBERS_WITH_DISPLAY_BYTES ? members : members.map((list) => list.map(({ id }) => ({ id })));
  return groups.map((group, i) => scimGroup(group, shown[i], base));
}

type ScimMember = { id: string; user_name?: string };

const scimMembersOf = async (group: StoredGroup): Promise<ScimMember[]> =>
  (await membersOf(group)).map((u) => ({ id: u.id, user_name: u.user_name }));

export async function createScimGroup(ctx: ChangeContext, body: unknown): Promise<StoredGroup> {
  const fields = groupFields(canonical('Group', body));
  checkNewGroup(fields);
  const { group } = await createGroup(ctx, { name: fields.name, external_id: fields.external_id, user_ids: fields.member_ids });
  return group;
}

export async function getScimGroup(id: string): Promise<StoredGroup> {
  return getGroup(id);
}

export async function replaceScimGroup(ctx: ChangeContext, id: string, body: unknown, expectedVersion?: number): Promise<StoredGroup> {
  const fields = groupFields(canonical('Group', body));
  const changes: GroupChanges = { name: fields.name, external_id: fields.external_id, clear: false, adds: new Set(), removes: new Set() };
  if (fields.member_ids !== undefined) {
    checkMemberIds(fields.member_ids);
    changes.clear = true;
    fields.member_ids.forEach((m) => changes.adds.add(m));
  }
  return changeGroup(ctx, id, changes, expectedVersion);
}

export async function patchScimGroup(ctx: ChangeContext, id: string, body: unknown, expectedVersion?: number): Promise<StoredGroup> {
  const changes = groupChanges(normalizeOperations(body));
  checkMemberIds(changes.adds);
  checkMemberIds(changes.removes);
  return changeGroup(ctx, id, changes, expectedVersion);
}

export async function deleteScimGroup(ctx: ChangeContext, id: string, expectedVersion?: number): Promise<void> {
  await deleteGroup(ctx, id, expectedVersion);
}

/** The change as writes, from the group as read (see the top of this file). */
async function changeGroup(ctx: ChangeContext, id: string, changes: GroupChanges, expectedVersion?: number): Promise<StoredGroup> {
  try {
    return await withFreshRead(() => changeGroupAsRead(ctx, id, changes, expectedVersion));
  } catch (error) {
    if (error instanceof MissingUserError) throw notFound('User', error.userId);
    throw error;
  }
}

async function changeGroupAsRead(ctx: ChangeContext, id: string, changes: GroupChanges, expectedVersion?: number): Promise<StoredGroup> {
  const before = await getGroup(id);
  if (expectedVersion !== undefined && expectedVersion !== before.version) throw preconditionFailed();
  const now = new Date().toISOString();
  const limit = groupTuning().singleTransactionMemberChanges;
  // Only who is not there yet is added, and only who is there removed; a replace is the difference with who is there.
  let adds: string[];
  let removes: string[];
  let current: string[] = [];
  if (changes.clear) {
    current = await memberIds(before);
    const present = new Set(current);
    adds = [...changes.adds].filter((u) => !present.has(u));
    removes = current.filter((u) => !changes.adds.has(u));
  } else {
    const present = await membersAmong(before, [...changes.adds, ...changes.removes]);
    adds = [...changes.adds].filter((u) => !present.has(u));
    removes = [...changes.removes].filter((u) => present.has(u));
  }
  // A replace that differs by more than a transaction holds, by members that fit one, starts a new generation.
  const startsOver = changes.clear && adds.length + removes.length > limit && changes.adds.size <= limit;
  if (startsOver) [adds, removes] = [[...changes.adds], []]; // the old generation goes whole
  const name = changes.name !== undefined && changes.name !== before.name ? changes.name : undefined;
  const externalId = changes.external_id !== undefined && changes.external_id !== before.external_id ? changes.external_id : undefined;
  // Only what changes is checked: a name stored before the admin API's rules held for SCIM does not block a change of members.
  checkGroupChange({ name, external_id: externalId });
  if (!startsOver && adds.length === 0 && removes.length === 0 && name === undefined && externalId === undefined) return before;
  if (before.rule !== null && (startsOver || adds.length > 0 || removes.length > 0)) throw ruleManagedScim(id);
  if (!startsOver && adds.length + removes.length > limit) {
    return changeGroupMembersInParts(ctx, { group: before, adds, removes, name, external_id: externalId, expectedVersion });
  }

  const generation = startsOver ? newId() : before.generation;
  const target = { id, generation };
  const writes: Write[] = [
    changeGroupWrite(
      before,
      {
        name,
        external_id: externalId,
        ...(startsOver ? { newGeneration: { generation, users: adds.length } } : { delta: adds.length - removes.length }),
      },
      now,
      MAX_GROUP_USERS,
      (stored) => {
        if (!isPublished(stored)) return groupNotFound(id);
        if (isRuleManaged(stored)) return ruleManagedScim(id);
        if (isChanging(stored)) return groupBusy(id);
        if (adds.length > removes.length && Number(stored.user_count) + adds.length - removes.length > MAX_GROUP_USERS)
          return groupFull(id);
        return expectedVersion !== undefined && Number(stored.version) !== expectedVersion ? preconditionFailed() : new StaleReadError();
      },
    ),
  ];
  writes.push(...identityChangeWrites(before, { name, external_id: externalId }));
  if (startsOver) writes.push(cleanupMarkerPut(before, now));
  for (const userId of adds) writes.push(userCheckWrite(userId, now), ...newMembership(target, userId, now));
  for (const userId of removes) writes.push(...membershipDeletes(before, userId, () => new StaleReadError()));
  const audit: Record<string, unknown> = {};
  if (name !== undefined) audit.name = { from: before.name, to: name };
  if (externalId !== undefined) audit.external_id = { from: before.external_id, to: externalId };
  if (startsOver) audit.removed_user_ids = current.filter((u) => !adds.includes(u));
  if (adds.length > 0) audit.added_user_ids = startsOver ? adds.filter((u) => !current.includes(u)) : adds;
  if (removes.length > 0) audit.removed_user_ids = removes;
  writes.push(groupAudit(ctx, id, audit, now));
  await transactWrite(writes);
  // The write was conditioned on the version read, so the group now is that one changed as written: no read back.
  return {
    ...before,
    ...(name === undefined ? {} : { name }),
    ...(externalId === undefined ? {} : { external_id: externalId }),
    generation,
    user_count: startsOver ? adds.length : before.user_count + adds.length - removes.length,
    version: before.version + 1,
    updated_at: now,
  };
}

/** A rule group's members are kept by its rule (the admin API's 409 `rule-managed`): SCIM's 400 `mutability`. */
const ruleManagedScim = (id: string) =>
  mutability(`The members of group "${id}" are kept by its rule (set with the admin API); they cannot be changed by SCIM.`);

// --- lists -------------------------------------------------------------------------------

export interface GroupListRequest {
  filter?: string;
  startIndex: number;
  count: number;
  withMembers: boolean;
}

/**
 * GET /Groups: `displayName eq`, `externalId eq` and `id eq` by key (with
 * `members eq`: one membership read); anything else reads every group (a few
 * thousand in the largest organizations) and filters, reading every group's
 * members only when the filter needs them. Members are read for the page's
 * groups only, and none with `excludedAttributes=members`.
 */
export async function listScimGroups(request: GroupListRequest, base: string): Promise<{ resources: ScimResource[]; total: number }> {
  const filter = request.filter === undefined ? undefined : parseFilter('Group', request.filter);
  const read = groupListRead(filter);
  const page = (groups: StoredGroup[]) => pageOf(groups, request);
  if (read.by === 'keys') {
    const groups = await lookUp(read.keys, read.members);
    return { resources: await asScimGroups(page(groups), base, request.withMembers), total: groups.length };
  }
  const groups = await allGroups();
  const known = new Map<string, ScimMember[]>();
  if (read.filterNeedsMembers) {
    // The filter is on members: every group's are read (the document says what such a filter costs).
    const members = await Promise.all(groups.map(scimMembersOf));
    groups.forEach((group, i) => known.set(group.id, members[i]));
  }
  const matching = filter ? groups.filter((group) => matches(filter, scimGroup(group, known.get(group.id), base))) : groups;
  return { resources: await asScimGroups(page(matching), base, request.withMembers, known), total: matching.length };
}

/** The groups of a page: from `startIndex`, up to `count`, and with members, up to MAX_ANSWER_MEMBERS of them together. */
function pageOf(groups: StoredGroup[], request: GroupListRequest): StoredGroup[] {
  const candidates = groups.slice(request.startIndex - 1, request.startIndex - 1 + request.count);
  if (!request.withMembers) return candidates;
  const page: StoredGroup[] = [];
  let members = 0;
  for (const group of candidates) {
    if (page.length > 0 && members + group.user_count > MAX_ANSWER_MEMBERS) break;
    page.push(group);
    members += group.user_count;
  }
  return page;
}

/** The group every key names, if it has every member named. */
async function lookUp(keys: GroupKey[], members: string[]): Promise<StoredGroup[]> {
  if (keys.length === 0) return []; // a filter no stored value can meet (filter-reads.ts)
  const ids = new Set<string>();
  for (const key of keys) {
    const id =
      'id' in key
        ? key.id
        : 'externalId' in key
          ? await claimHolder('group_external_id', key.externalId, false)
          : (await findGroupNameClaim(key.displayName))?.group_id;
    if (id === undefined) return [];
    ids.add(id);
  }
  if (ids.size !== 1) return [];
  const item = await findGroupItem([...ids][0]);
  if (!isPublished(item)) return [];
  const group = toGroup(item);
  if (members.length > 0 && (await membersAmong(group, members)).size !== new Set(members).size) return [];
  return [group];
}

/** Every published group, by name. */
async function allGroups(): Promise<StoredGroup[]> {
  const groups: StoredGroup[] = [];
  for await (const item of queryStream(groupList.byName(), { pageSize: 1000 })) if (isPublished(item)) groups.push(toGroup(item));
  return groups;
}
