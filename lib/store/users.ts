/**
 * User items. A user is the item `USER#<id>` / `USER` — its fields, its
 * `version` (the ETag, bumped by every change) and the attributes of the
 * indexes users are listed from across the whole service — and, while it
 * belongs to a department, a copy `USER#<id>` / `DEPT` that lists it within
 * that department. Both are written in the same transaction.
 *
 * A list scope is a prefix. On the user item: `USERS#IN` / `USERS#OUT`
 * (users in some department or in none) for the whole-scope orders, and
 * `USERS#ALL` (every user) for cells and months, where a list of one
 * membership filters on `department_id` (most users are in a department,
 * so E1 reads a little more, and `GET /v2/users` merges half as many
 * partitions). On the department copy: `DEPT#<department>` throughout.
 * Within it, each item is in these index partitions (lib/db/table.ts):
 *
 * | index          | partition                       | sort            |
 * |----------------|---------------------------------|-----------------|
 * | byName         | <scope>                         | name key        |
 * | byTime         | <scope>                         | login key       |
 * | cellByName     | <cells>#<cell>                  | name key        |
 * | cellByTime     | <cells>#<cell>                  | login key       |
 * | cellById       | <cells>#<cell>                  | id (gsi7sk)     |
 * | monthByName    | <cells>#M#<YYYY-MM or never>    | name key        |
 * | inactiveByName | <cells>#OFF, deactivated only   | name key        |
 *
 * - name key: case-folded last name, then the id (lib/text.ts nameSortKey);
 * - login key: the last login time ('' when never), then the id, so that
 *   "never" sorts before every time;
 * - cell: role, activated and logged-in, e.g. `admin.10`: the equality
 *   filters of E1, each combination a partition of its own.
 *
 * A change of the user's cell (department, role, activation) also writes
 * its rule work (lib/store/rules.ts), in the same transaction.
 *
 * Two locks live on the user item, each set by a protocol and honoured by
 * every other write: `bulk_lock` (a bulk department move holds the user,
 * lib/departments/bulk-move/) and `group_lock` (a deletion in progress holds
 * off group additions, lib/groups/members.ts).
 */
import { batchGetItems } from '../db/batch';
import { Condition, Update } from '../db/expression';
import * as attr from '../db/item-kind';
import { getItem, updateItem } from '../db/items';
import { compare, isNull, isString, oneOf, startsWithOneOf, type Filter, type IndexQuery } from '../db/query';
import { INDEXES, type IndexDefinition, type Item, type Key } from '../db/table';
import { check, put, remove, update, type Explain, type Write } from '../db/transact';
import { ACCOUNT_ROLES, type AccountRole } from '../schemas/enums';
import type { User } from '../schemas/responses';
import { foldCase, KEY_SEPARATOR, nameSortKey } from '../text';
import { ruleCellCode, userRuleWorkWrite } from './rules';

export type { User };

/** A user as stored: the representation plus its version (the ETag) and the bulk move holding it, if any. */
export interface StoredUser extends User {
  version: number;
  bulk_lock?: string;
}

/** The fields of the representation, in its documented order (checked against the response schema by the tests). */
export const USER_FIELDS = [
  'id',
  'user_name',
  'external_id',
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

/** The representation's fields, as both items of a user hold them. */
const USER_ATTRIBUTES = {
  id: attr.string,
  user_name: attr.string,
  external_id: attr.nullable(attr.string),
  email: attr.string,
  first_name: attr.string,
  last_name: attr.string,
  account_role: attr.oneOf(ACCOUNT_ROLES),
  activated: attr.boolean,
  last_login: attr.nullable(attr.string),
  department_id: attr.nullable(attr.string),
  created_at: attr.string,
  updated_at: attr.string,
} satisfies Record<keyof User, attr.AttributeType<unknown>>;

/** What both items of a user are listed and filtered by (see the table at the top). */
const LIST_ATTRIBUTES = {
  last_name_folded: attr.string,
  gsi1pk: attr.string,
  gsi1sk: attr.string,
  gsi4sk: attr.string,
  gsi5pk: attr.string,
  gsi7sk: attr.string,
  gsi8pk: attr.string,
  gsi11pk: attr.optional(attr.string),
};

const userKind = attr.itemKind({
  type: 'user',
  key: (id: string): Key => ({ pk: `USER#${id}`, sk: 'USER' }),
  attributes: {
    ...USER_ATTRIBUTES,
    version: attr.number,
    bulk_lock: attr.optional(attr.string),
    group_lock: attr.optional(attr.string),
  },
  indexAttributes: LIST_ATTRIBUTES,
});

const departmentCopyKind = attr.itemKind({
  type: 'user-in-department',
  key: (id: string): Key => ({ pk: `USER#${id}`, sk: 'DEPT' }),
  attributes: USER_ATTRIBUTES,
  indexAttributes: LIST_ATTRIBUTES,
});

export type UserItem = attr.ItemOf<typeof userKind>;
export type DepartmentCopyItem = attr.ItemOf<typeof departmentCopyKind>;

export const userKey = userKind.key;
export const departmentCopyKey = departmentCopyKind.key;

export type Membership = 'IN' | 'OUT';
export const membershipOf = (departmentId: string | null): Membership => (departmentId ? 'IN' : 'OUT');

/** Where users are listed: everybody in (or out of) a department, everybody, or the members of one. */
export type ScopeKey = { membership: Membership } | { everyone: true } | { department: string };
/** The prefix of a membership's (or a department's) own partitions, and of the counters kept per membership. */
export const scopePrefix = (scope: { membership: Membership } | { department: string }) =>
  'department' in scope ? `DEPT#${scope.department}` : `USERS#${scope.membership}`;
/** The prefix of a scope's cell and month partitions: the users' are shared by both memberships. */
const cellsPrefix = (scope: ScopeKey) => ('department' in scope ? `DEPT#${scope.department}` : 'USERS#ALL');

// --- cells and months ----------------------------------------------------------

/** The equality dimensions E1 filters on; each combination is a cell. */
export interface CellOf {
  role: AccountRole;
  activated: boolean;
  loggedIn: boolean;
}

export const cellCode = ({ role, activated, loggedIn }: CellOf) => `${role}.${activated ? 1 : 0}${loggedIn ? 1 : 0}`;
export const cellOf = (user: Pick<User, 'account_role' | 'activated' | 'last_login'>): CellOf => ({
  role: user.account_role,
  activated: user.activated,
  loggedIn: user.last_login !== null,
});

/** Every cell, in a fixed order. */
export const ALL_CELLS: CellOf[] = ACCOUNT_ROLES.flatMap((role) =>
  [false, true].flatMap((activated) => [false, true].map((loggedIn) => ({ role, activated, loggedIn }))),
);

/** Where a scope's deactivated users are listed by name (a sparse index: activated users have no entry). */
const inactivePartition = (scope: ScopeKey) => `${cellsPrefix(scope)}#OFF`;

/** `YYYY-MM` of a login time, or `never`. */
export const loginMonth = (lastLogin: string | null) => (lastLogin === null ? 'never' : lastLogin.slice(0, 7));

/** "Never" sorts before every time; ties go by id. */
export const loginSortKey = (lastLogin: string | null, id: string) => `${lastLogin ?? ''}${KEY_SEPARATOR}${id}`;

/** The list attributes of an item of `scope` (see the table at the top). */
function listAttributes(user: User, scope: { membership: Membership } | { department: string }) {
  const cells = cellsPrefix(scope);
  return {
    last_name_folded: foldCase(user.last_name),
    gsi1pk: scopePrefix(scope),
    gsi1sk: nameSortKey(user.last_name, user.id),
    gsi4sk: loginSortKey(user.last_login, user.id),
    gsi5pk: `${cells}#${cellCode(cellOf(user))}`,
    gsi7sk: user.id,
    gsi8pk: `${cells}#M#${loginMonth(user.last_login)}`,
    ...(user.activated ? {} : { gsi11pk: inactivePartition(scope) }),
  };
}

/** The whole item of a user at a version. */
export function userItem(user: User, version: number): UserItem {
  return userKind.item(userKey(user.id), {
    ...user,
    version,
    ...listAttributes(user, { membership: membershipOf(user.department_id) }),
  });
}

/** The copy that lists a member within its department. */
export function departmentCopyItem(user: User & { department_id: string }): DepartmentCopyItem {
  return departmentCopyKind.item(departmentCopyKey(user.id), { ...user, ...listAttributes(user, { department: user.department_id }) });
}

/** The representation of a user item or of its department copy. */
export function toUser(item: Item): User {
  return attr.readAttributes(item, USER_ATTRIBUTES, `${item.type}`);
}

/** A user item as stored; a department copy (a list of a department's members) has no version: NaN. */
export function toStoredUser(item: Item): StoredUser {
  if (!userKind.is(item)) return { ...toUser(item), version: Number.NaN };
  const { group_lock: _, ...user } = userKind.read(item);
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
  return new Map(found.map((item) => [userKind.attribute(item, 'id'), toStoredUser(item)]));
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

/**
 * Writes a user change: the user item at `version` (replacing the item, so
 * locks and stale index entries go with the old one) or its deletion, and
 * its department copy — put while it is a member, deleted when it leaves.
 * Only the user item carries the condition; the copy follows it.
 */
export function userWrites(
  id: string,
  change: { before: Pick<User, 'department_id' | 'account_role' | 'activated'> | null; after: User | null },
  version: number,
  expected: UserPrecondition,
  explain?: Explain,
  /** False when the caller writes the rule work of many users at once (a bulk move: lib/store/rules.ts usersRuleWorkWrite). */
  followRules = true,
): Write[] {
  const { before, after } = change;
  const writes = [
    after
      ? put(userItem(after, version), preconditionOf(expected), { explain })
      : remove(userKey(id), preconditionOf(expected), { explain }),
  ];
  if (after?.department_id) writes.push(put(departmentCopyItem({ ...after, department_id: after.department_id })));
  else if (before?.department_id) writes.push(remove(departmentCopyKey(id)));
  // Rule groups follow a change of the user's cell (lib/store/rules.ts). A deleted user leaves its groups itself, but
  // a group held at its limit (`over_limit`) may count it among its waiting matches: its deletion is followed too.
  const from = before && ruleCellCode(before);
  if (followRules && (after ? from !== ruleCellCode(after) : from !== null)) {
    writes.push(userRuleWorkWrite(id, from, after?.updated_at ?? new Date().toISOString()));
  }
  return writes;
}

/** The department copy of a member, put without condition (the user item's write carries it). */
export const departmentCopyPut = (user: User & { department_id: string }): Write => put(departmentCopyItem(user));

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

/**
 * A rule's decision about a user (lib/groups/rule-follow.ts) commits only if
 * the user is still as it was read: at `version`, or still absent
 * (undefined). With `now`, also that no deletion holds off group additions
 * (a join: userCheck's condition).
 */
export function userUnchangedCheck(id: string, version: number | undefined, explain: Explain, options: { now?: string } = {}): Write {
  const condition = version === undefined ? new Condition().whenAbsent() : new Condition().whenEquals('version', version);
  if (version !== undefined && options.now !== undefined) {
    const lock = condition.name('group_lock');
    condition.when(`attribute_not_exists(${lock}) OR ${lock} < ${condition.value(options.now)}`);
  }
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

/** The order an index keeps users in: by name key, by login key, or by id. */
export type UserOrder = 'name' | 'time' | 'id';

const CELL_INDEX: Record<UserOrder, IndexDefinition> = { name: INDEXES.cellByName, time: INDEXES.cellByTime, id: INDEXES.cellById };

/** What keeps a membership's users in the partitions it shares with the other membership. */
const membershipFilter = (scope: ScopeKey): Filter | undefined =>
  'membership' in scope ? (scope.membership === 'IN' ? isString('department_id', 'mem') : isNull('department_id', 'mem')) : undefined;

/**
 * The index partitions users are listed from (see the table at the top). A
 * query may carry a filter (a membership's, in shared partitions): add to it
 * with `allOf`, do not replace it.
 */
export const userLists = {
  /** Every user of a scope, by name or by login: one partition, or one per membership for everyone. */
  all: (scope: ScopeKey, order: 'name' | 'time'): IndexQuery[] => {
    const index = order === 'name' ? INDEXES.byName : INDEXES.byTime;
    if ('everyone' in scope) return (['IN', 'OUT'] as const).map((membership) => ({ index, partition: scopePrefix({ membership }) }));
    return [{ index, partition: scopePrefix(scope) }];
  },
  /** The users of one cell of a scope. */
  cell: (scope: ScopeKey, cell: CellOf, order: UserOrder): IndexQuery => ({
    index: CELL_INDEX[order],
    partition: `${cellsPrefix(scope)}#${cellCode(cell)}`,
    filter: membershipFilter(scope),
  }),
  /** The deactivated users of a scope, by name. */
  inactive: (scope: ScopeKey): IndexQuery => ({
    index: INDEXES.inactiveByName,
    partition: inactivePartition(scope),
    filter: membershipFilter(scope),
  }),
  /** The users of a scope whose last login is in `month` (`YYYY-MM` or `never`), by name. */
  month: (scope: ScopeKey, month: string): IndexQuery => ({
    index: INDEXES.monthByName,
    partition: `${cellsPrefix(scope)}#M#${month}`,
    filter: membershipFilter(scope),
  }),
} as const;

/** The sort key an item (a user item or a department copy: both have them) has in each order (name key, login key, id). */
export const userSortKeys = {
  name: (item: Item) => userKind.attribute(item, 'gsi1sk'),
  time: (item: Item) => userKind.attribute(item, 'gsi4sk'),
  id: (item: Item) => userKind.attribute(item, 'gsi7sk'),
};

/** Conditions on the listed users that their partitions and key ranges do not already give. */
export const userFilters = {
  activated: (activated: boolean): Filter => compare('activated', '=', activated, 'act'),
  roles: (roles: AccountRole[]): Filter => oneOf('account_role', roles, 'role'),
  /** Case-folded prefixes of the last name. */
  lastNamePrefixes: (prefixes: string[]): Filter => startsWithOneOf('last_name_folded', prefixes, 'lnp'),
  neverLoggedIn: (): Filter => isNull('last_login', 'll'),
  loggedInSince: (time: string): Filter => compare('last_login', '>=', time, 'llt'),
  loggedInBefore: (time: string): Filter => compare('last_login', '<', time, 'llb'),
};
