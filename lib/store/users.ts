/**
 * User items: `USER#<id>` / `USER`, with the user's fields, its `version`
 * (the ETag, bumped by every change), and the attributes of the indexes
 * users are listed from:
 *
 * | index (lib/db/table.ts) | partition                     | sort         |
 * |-------------------------|-------------------------------|--------------|
 * | byName (gsi1)           | USERS#IN / USERS#OUT          | name key     |
 * | byDepartment (gsi2)     | DEPT#<department> (members)   | name key     |
 * | byRole (gsi3)           | ROLE#<role>#IN / ROLE#<role>#OUT | name key  |
 *
 * "name key" is the case-folded last name, then the id (lib/text.ts). IN/OUT
 * splits users by whether they belong to a department, so E1 (users in any
 * department) is one partition and the all-users list merges two.
 *
 * Two locks live on the item, each set by a protocol and honoured by every
 * other write: `bulk_lock` (a bulk department move holds the user,
 * lib/departments/bulk-move/) and `group_lock` (a deletion in progress holds
 * off group additions, lib/groups/members.ts).
 */
import { batchGetItems } from '../db/batch';
import { Condition, Update } from '../db/expression';
import { getItem, updateItem } from '../db/items';
import { compare, isNull, oneOf, startsWithOneOf, type Filter, type IndexQuery } from '../db/query';
import { INDEXES, type Item, type Key } from '../db/table';
import { check, put, remove, update, type Explain, type Write } from '../db/transact';
import type { AccountRole } from '../schemas/enums';
import type { User } from '../schemas/responses';
import { foldCase, nameSortKey } from '../text';

export type { User };

/** A user as stored: the representation plus its version (the ETag) and the bulk move holding it, if any. */
export interface StoredUser extends User {
  version: number;
  bulk_lock?: string;
}

/** The fields of the representation, in API.md's order (checked against the response schema by the tests). */
export const USER_FIELDS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'account_role',
  'activated',
  'last_login',
  'department_id',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof User)[];

export const userKey = (id: string): Key => ({ pk: `USER#${id}`, sk: 'USER' });

export type Membership = 'IN' | 'OUT';
export const membershipOf = (departmentId: string | null): Membership => (departmentId ? 'IN' : 'OUT');

const usersPartition = (membership: Membership) => `USERS#${membership}`;
const departmentUsersPartition = (departmentId: string) => `DEPT#${departmentId}`;
const rolePartition = (role: AccountRole, membership: Membership) => `ROLE#${role}#${membership}`;

/** Index attributes of a user item; recomputed on every write, so a change of name, role or department moves its entries. */
export function userIndexAttributes(user: Pick<User, 'id' | 'last_name' | 'account_role' | 'department_id'>) {
  const sortKey = nameSortKey(user.last_name, user.id);
  const membership = membershipOf(user.department_id);
  return {
    gsi1pk: usersPartition(membership),
    gsi1sk: sortKey,
    gsi3pk: rolePartition(user.account_role, membership),
    gsi3sk: sortKey,
    ...(user.department_id ? { gsi2pk: departmentUsersPartition(user.department_id), gsi2sk: sortKey } : {}),
  };
}

/** The whole item of a user at a version. */
export function userItem(user: User, version: number): Item {
  return { ...userKey(user.id), type: 'user', ...user, version, last_name_folded: foldCase(user.last_name), ...userIndexAttributes(user) };
}

/** The representation's fields of an item (absent ones as null). */
export function toUser(item: Item): User {
  const user = {} as Record<string, unknown>;
  for (const field of USER_FIELDS) user[field] = item[field] ?? null;
  return user as unknown as User;
}

export function toStoredUser(item: Item): StoredUser {
  const user: StoredUser = { ...toUser(item), version: Number(item.version) };
  if (typeof item.bulk_lock === 'string') user.bulk_lock = item.bulk_lock;
  return user;
}

/** One user, strongly consistent. */
export async function findUser(id: string): Promise<StoredUser | undefined> {
  const item = await getItem(userKey(id));
  return item ? toStoredUser(item) : undefined;
}

/** Users by id, strongly consistent (BatchGetItem); absent users are left out. */
export async function findUsers(ids: string[]): Promise<Map<string, StoredUser>> {
  const found = await batchGetItems(ids.map(userKey), { consistent: true });
  return new Map(found.map((item) => [String(item.id), toStoredUser(item)]));
}

// --- writes ------------------------------------------------------------------

/** Which state of the stored user a write requires. */
export type UserPrecondition =
  /** The user must not exist yet. */
  | { kind: 'new' }
  /** The user must be at this version and held by no bulk move. */
  | { kind: 'version'; version: number }
  /** The user must be held by this bulk move (which alone may change it). */
  | { kind: 'held'; by: string };

function preconditionOf(expected: UserPrecondition): Condition {
  const condition = new Condition();
  if (expected.kind === 'new') return condition.whenAbsent();
  if (expected.kind === 'held') return condition.whenEquals('bulk_lock', expected.by);
  return condition.whenEquals('version', expected.version).whenAbsent('bulk_lock');
}

/** Writes the user at `version` (replacing the item: locks and stale index entries go with the old one). */
export const putUser = (user: User, version: number, expected: UserPrecondition, explain?: Explain): Write =>
  put(userItem(user, version), preconditionOf(expected), { explain });

export const deleteUser = (id: string, expected: UserPrecondition, explain?: Explain): Write =>
  remove(userKey(id), preconditionOf(expected), { explain });

/** A bulk move takes the user: no other write can change it until the move rewrites or releases it. */
export const holdUser = (id: string, version: number, op: string, explain?: Explain): Write =>
  update(userKey(id), new Update().set('bulk_lock', op).whenEquals('version', version).whenAbsent('bulk_lock'), { explain });

export const releaseUser = (id: string, op: string): Write =>
  update(userKey(id), new Update().remove('bulk_lock').whenEquals('bulk_lock', op));

/** Every group addition checks that the user exists and is not being deleted; a lock left by a deletion that died expires. */
export function userCheck(id: string, now: string, explain: Explain): Write {
  const condition = new Condition().whenExists();
  const lock = condition.name('group_lock');
  condition.when(`attribute_not_exists(${lock}) OR ${lock} < ${condition.value(now)}`);
  return check(userKey(id), condition, { explain, returnOld: true });
}

/** Holds off group additions until `until` (ISO time); conditional on the version read and no bulk move holding the user. */
export async function lockGroupAdditions(id: string, version: number, until: string): Promise<void> {
  await updateItem(userKey(id), new Update().set('group_lock', until).whenEquals('version', version).whenAbsent('bulk_lock'));
}

/** Gives up a group-addition lock, if it is still the one set. */
export async function unlockGroupAdditions(id: string, until: string): Promise<void> {
  await updateItem(userKey(id), new Update().remove('group_lock').whenEquals('group_lock', until));
}

// --- lists -------------------------------------------------------------------

/** The index partitions users are listed from (see the table at the top). */
export const userLists = {
  /** All users of one membership, by name. */
  byName: (membership: Membership): IndexQuery => ({ index: INDEXES.byName, partition: usersPartition(membership) }),
  /** One department's members, by name. */
  inDepartment: (departmentId: string): IndexQuery => ({ index: INDEXES.byDepartment, partition: departmentUsersPartition(departmentId) }),
  /** Users of one role and membership, by name. */
  withRole: (role: AccountRole, membership: Membership): IndexQuery => ({
    index: INDEXES.byRole,
    partition: rolePartition(role, membership),
  }),
  /** The case-folded last name of a listed item (ties of the name key are runs of equal values). */
  foldedName: (item: Item) => String(item.last_name_folded),
} as const;

/** Conditions on the listed users that their partitions do not already give. */
export const userFilters = {
  activated: (activated: boolean): Filter => compare('activated', '=', activated, 'act'),
  roles: (roles: AccountRole[]): Filter => oneOf('account_role', roles, 'role'),
  /** Case-folded prefixes of the last name. */
  lastNamePrefixes: (prefixes: string[]): Filter => startsWithOneOf('last_name_folded', prefixes, 'lnp'),
  neverLoggedIn: (): Filter => isNull('last_login', 'll'),
  loggedInSince: (time: string): Filter => compare('last_login', '>=', time, 'llt'),
  loggedInBefore: (time: string): Filter => compare('last_login', '<', time, 'llt'),
};
