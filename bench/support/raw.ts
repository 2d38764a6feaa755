/**
 * The raw SDK calls the measured operations make, written out by hand with
 * the bench's own document client: the same commands, in the same order and
 * with the same concurrency, carrying the same items and expressions as the
 * domain code sends:
 *
 * - E2: lib/departments/membership.ts + lib/users/changes.ts and
 *   users/counters.ts (the user item, its department copy, both departments'
 *   counters, the service, login-day and last-name counters, the audit entry);
 * - E3: departments/bulk-membership.ts + bulk-move/ (driver.ts, writes.ts);
 * - E1: lists/users/ (scopes.ts reads the counters, then plan.ts picks the
 *   whole USERS#IN partition of byName) + lists/streams.ts;
 * - G1: groups/groups.ts; G4: groups/members.ts.
 *
 * No middleware, validation, logging, error mapping or response shaping:
 * what is left is the floor an operation's handler is compared against.
 *
 * Keep these in step with the domain code: a raw call that does less than
 * the handler makes the handler look slow, one that does more hides cost.
 * Keys, items and counter arithmetic are written out here too, as the floor
 * would write them (nothing from lib/store or lib/users);
 * test/unit/raw-floor.test.ts checks that whole transactions stay the ones
 * the service builds.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { BatchGetCommand, GetCommand, QueryCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { foldCase, KEY_SEPARATOR, nameSortKey } from '../../lib/text';
import type { Doc } from './dataset';

type Item = Record<string, unknown>;
type Key = { pk: string; sk: string };
type Membership = 'IN' | 'OUT';
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** The keys the floor writes (the store modules' layout, written out by hand). */
export const rawKeys = {
  user: (id: string): Key => ({ pk: `USER#${id}`, sk: 'USER' }),
  departmentCopy: (id: string): Key => ({ pk: `USER#${id}`, sk: 'DEPT' }),
  department: (id: string): Key => ({ pk: `DEPT#${id}`, sk: 'DEPT' }),
  audit: (id: string): Key => ({ pk: `AUDIT#${id}`, sk: 'AUDIT' }),
  bulkHeader: (op: string): Key => ({ pk: `BULK#${op}`, sk: 'BULK' }),
  bulkPart: (op: string, part: number): Key => ({ pk: `BULK#${op}`, sk: `PART#${String(part).padStart(4, '0')}` }),
  statsShard: (shard: number): Key => ({ pk: 'STATS', sk: `SHARD#${String(shard).padStart(2, '0')}` }),
  loginCount: (membership: Membership, month: string, shard: number): Key => ({
    pk: `LOGINS#USERS#${membership}`,
    sk: `${month}#${shard}`,
  }),
  /** Last-name counter of a scope: `USERS#IN`, `USERS#OUT` or `DEPT#<id>`. */
  nameCount: (scope: string, foldedName: string): Key => ({ pk: `NAMES#${scope}`, sk: foldedName }),
  group: (id: string): Key => ({ pk: `GROUP#${id}`, sk: 'GROUP' }),
  groupMember: (id: string, generation: string, userId: string): Key => ({ pk: `MEMBERS#${id}#${generation}`, sk: `USER#${userId}` }),
  userGroup: (userId: string, id: string, generation: string): Key => ({ pk: `USER#${userId}`, sk: `GROUP#${id}#${generation}` }),
};
const groupMembersPartition = (id: string, generation: string) => `MEMBERS#${id}#${generation}`;
const usersPartition = (membership: Membership) => `USERS#${membership}`;
const STATS_PARTITION = 'STATS';
const STATS_SHARDS = 16;
const LOGIN_SHARDS = 4;
const MAX_TRANSACTION_ITEMS = 100;
const MAX_GROUP_USERS = 10_000;
const BULK_LEASE_MS = 60_000;

/** FNV-1a over the id, as the service spreads counters over its shards. */
function shardOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % STATS_SHARDS;
}

const QUOTAS = ['users', 'activated_users', 'admins', 'managers', 'guests'] as const;
type Usage = Record<(typeof QUOTAS)[number], number>;
const NO_USAGE: Usage = { users: 0, activated_users: 0, admins: 0, managers: 0, guests: 0 };
const newId = () => randomBytes(12).toString('base64url');

const usageOf = (user: Item): Usage => ({
  users: 1,
  activated_users: user.activated ? 1 : 0,
  admins: user.account_role === 'admin' ? 1 : 0,
  managers: user.account_role === 'manager' ? 1 : 0,
  guests: user.account_role === 'guest' ? 1 : 0,
});
const sumUsage = (usages: Usage[]): Usage =>
  Object.fromEntries(QUOTAS.map((q) => [q, usages.reduce((n, u) => n + u[q], 0)])) as unknown as Usage;
const isZero = (usage: Usage) => QUOTAS.every((q) => usage[q] === 0);

const USER_FIELDS = [
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
];

// --- items ---------------------------------------------------------------------

/** The representation's fields of a stored user (absent ones as null). */
const fieldsOf = (stored: Item): Item => Object.fromEntries(USER_FIELDS.map((field) => [field, stored[field] ?? null]));

const membershipOf = (departmentId: unknown): Membership => (departmentId ? 'IN' : 'OUT');
/** Role, activated, logged in: `admin.10`. */
const cellOf = (user: Item) => `${String(user.account_role)}.${user.activated ? 1 : 0}${user.last_login !== null ? 1 : 0}`;
const loginMonth = (lastLogin: unknown) => (lastLogin === null ? 'never' : String(lastLogin).slice(0, 7));

/**
 * The list attributes of a user item (prefix USERS#IN|OUT; its cells and months are shared by both, USERS#ALL) or of
 * a department copy (DEPT#<id> throughout).
 */
function listAttributes(user: Item, prefix: string): Item {
  const cells = prefix.startsWith('USERS#') ? 'USERS#ALL' : prefix;
  return {
    gsi1pk: prefix,
    gsi1sk: nameSortKey(String(user.last_name), String(user.id)),
    gsi4sk: `${(user.last_login as string | null) ?? ''}${KEY_SEPARATOR}${String(user.id)}`,
    gsi5pk: `${cells}#${cellOf(user)}`,
    gsi7sk: String(user.id),
    gsi8pk: `${cells}#M#${loginMonth(user.last_login)}`,
    // Deactivated users are also listed on their own (sparse).
    ...(user.activated ? {} : { gsi11pk: `${cells}#OFF` }),
  };
}

/** The user item (lib/store/users.ts userItem) of `user` (its representation's fields) at `version`. */
export function rawUserItem(user: Item, version: number): Item {
  return {
    ...rawKeys.user(String(user.id)),
    type: 'user',
    ...user,
    version,
    last_name_folded: foldCase(String(user.last_name)),
    ...listAttributes(user, usersPartition(membershipOf(user.department_id))),
  };
}

/** The department copy of a member (lib/store/users.ts departmentCopyItem). */
export function rawDepartmentCopy(user: Item): Item {
  return {
    ...rawKeys.departmentCopy(String(user.id)),
    type: 'user-in-department',
    ...user,
    last_name_folded: foldCase(String(user.last_name)),
    ...listAttributes(user, `DEPT#${String(user.department_id)}`),
  };
}

/** The user's fields after a department change at `at`. */
export const movedUser = (stored: Item, departmentId: string | null, at: string): Item => ({
  ...fieldsOf(stored),
  department_id: departmentId,
  updated_at: at,
});

/** The stored user item after a department change. */
export const movedUserItem = (stored: Item, departmentId: string | null, at: string): Item =>
  rawUserItem(movedUser(stored, departmentId, at), Number(stored.version) + 1);

/** An audit entry (lib/store/audit.ts auditPut), with its five list partitions. */
export function rawAuditItem(entry: {
  id: string;
  at: string;
  actor: string;
  operation: string;
  requestId: string;
  resourceType: string;
  resourceId: string;
  changes: Item;
}): Item {
  const sortKey = `${entry.at}${KEY_SEPARATOR}${entry.id}`;
  return {
    ...rawKeys.audit(entry.id),
    type: 'audit',
    id: entry.id,
    at: entry.at,
    actor: entry.actor,
    operation: entry.operation,
    request_id: entry.requestId,
    resource_type: entry.resourceType,
    resource_id: entry.resourceId,
    changes: entry.changes,
    gsi1pk: 'AUDIT',
    gsi1sk: sortKey,
    gsi5pk: `AUDIT#A#${entry.actor}`,
    gsi8pk: `AUDIT#O#${entry.operation}`,
    gsi2pk: `AUDIT#R#${entry.resourceId}`,
    gsi2sk: sortKey,
  };
}

/** Who writes the audit entries of the floor: the bench's caller, as the handlers see it (JWT `sub`). */
const ACTOR = 'bench';

function auditPut(table: string, operation: string, resourceType: string, resourceId: string, changes: Item, at: string): TransactItem {
  const item = rawAuditItem({ id: newId(), at, actor: ACTOR, operation, requestId: randomUUID(), resourceType, resourceId, changes });
  return { Put: { TableName: table, Item: item } };
}

const usageFields = (prefix: string, usage: Usage) => Object.fromEntries(QUOTAS.map((q) => [`${prefix}${q}`, usage[q]]));

/** The header of an E3 bulk move as it is opened (lib/store/bulk-moves.ts headerPut). */
export const bulkHeaderItem = (op: string, target: string, at: string, leaseUntil: string, parts: number, reserved: Usage): Item => ({
  ...rawKeys.bulkHeader(op),
  type: 'bulk_move',
  id: op,
  state: 'preparing',
  operation: 'E3',
  target,
  at,
  lease_until: leaseUntil,
  parts,
  parts_left: parts,
  ...usageFields('reserved_', reserved),
  gsi1pk: 'BULK',
  gsi1sk: `${leaseUntil}#${op}`,
});

/** One part of a bulk move (lib/store/bulk-moves.ts partPut). */
export const bulkPartItem = (op: string, index: number, userIds: string[], usage: Usage): Item => ({
  ...rawKeys.bulkPart(op, index),
  type: 'bulk_part',
  user_ids: userIds,
  ...usageFields('usage_', usage),
});

/** The two items of a G4 membership (lib/store/memberships.ts membershipItems). */
export function membershipItemsRaw(groupId: string, generation: string, userId: string, at: string): [Item, Item] {
  const attributes = { group_id: groupId, generation, user_id: userId, added_at: at };
  return [
    { ...rawKeys.groupMember(groupId, generation, userId), type: 'group-member', ...attributes },
    { ...rawKeys.userGroup(userId, groupId, generation), type: 'user-group', ...attributes },
  ];
}

// --- counters (lib/users/counters.ts) -------------------------------------------

interface DepartmentDelta {
  usage: Usage;
  /** By cell (`admin.10`). */
  cells: Record<string, number>;
  /** By login month (`YYYY-MM`). */
  logins: Record<string, number>;
}

/** What changes add up to on every counter: departments, service cells, login days, last names. */
interface Deltas {
  departments: Map<string, DepartmentDelta>;
  /** Service-wide cell counters, `USERS#IN#admin.10`. */
  cells: Record<string, number>;
  /** `<membership>|<YYYY-MM>` -> `dDD` -> delta. */
  logins: Map<string, Record<string, number>>;
  /** `<membership>|<folded last name>` -> delta. */
  names: Map<string, number>;
}

const noDeltas = (): Deltas => ({ departments: new Map(), cells: {}, logins: new Map(), names: new Map() });
const bump = (record: Record<string, number>, key: string, delta: number) => (record[key] = (record[key] ?? 0) + delta);

/** Adds what `user` (its fields) counts for, times `sign`. */
function contribute(deltas: Deltas, user: Item, sign: 1 | -1): void {
  const membership = membershipOf(user.department_id);
  if (user.department_id) {
    const id = String(user.department_id);
    let department = deltas.departments.get(id);
    if (!department) deltas.departments.set(id, (department = { usage: NO_USAGE, cells: {}, logins: {} }));
    const usage = usageOf(user);
    department.usage = Object.fromEntries(QUOTAS.map((q) => [q, department!.usage[q] + sign * usage[q]])) as unknown as Usage;
    bump(department.cells, cellOf(user), sign);
    if (user.last_login) bump(department.logins, loginMonth(user.last_login), sign);
  }
  bump(deltas.cells, `${usersPartition(membership)}#${cellOf(user)}`, sign);
  if (user.last_login) {
    const key = `${membership}|${loginMonth(user.last_login)}`;
    const days = deltas.logins.get(key) ?? {};
    bump(days, `d${String(user.last_login).slice(8, 10)}`, sign);
    deltas.logins.set(key, days);
  }
  for (const scope of [usersPartition(membership), ...(user.department_id ? [`DEPT#${String(user.department_id)}`] : [])]) {
    const nameKey = `${scope}|${foldCase(String(user.last_name))}`;
    deltas.names.set(nameKey, (deltas.names.get(nameKey) ?? 0) + sign);
  }
}

const nonZero = (record: Record<string, number>) => Object.entries(record).filter(([, n]) => n !== 0);
const isEmptyDelta = (delta: DepartmentDelta) =>
  isZero(delta.usage) && nonZero(delta.cells).length === 0 && nonZero(delta.logins).length === 0;

/**
 * A department's counters moved by `delta` (lib/store/departments.ts
 * addUsageWrite, or with `reserve` the limits as read, reserveUsageWrite).
 */
function departmentCounters(
  table: string,
  departmentId: string,
  delta: DepartmentDelta,
  at: string,
  reserve?: { limits: Item },
): TransactItem {
  const names: Record<string, string> = { '#updated_at': 'updated_at', '#version': 'version', '#pk': 'pk' };
  const values: Record<string, unknown> = { ':now': at, ':one': 1 };
  const adds = ['#version :one'];
  const conditions = ['attribute_exists(#pk)'];
  QUOTAS.forEach((quota, i) => {
    const n = delta.usage[quota];
    if (n === 0) return;
    names[`#u${i}`] = `usage_${quota}`;
    values[`:u${i}`] = n;
    adds.push(`#u${i} :u${i}`);
    if (n < 0) {
      if (reserve) throw new Error('a reservation only raises counters');
      return;
    }
    names[`#l${i}`] = `limit_${quota}`;
    if (!reserve) {
      if (n !== 1) throw new Error('a single change raises a counter by one at most');
      conditions.push(`attribute_not_exists(#l${i}) OR #u${i} < #l${i}`);
      return;
    }
    const limit = reserve.limits[`limit_${quota}`];
    if (typeof limit !== 'number') conditions.push(`attribute_not_exists(#l${i})`);
    else {
      values[`:l${i}`] = limit;
      values[`:r${i}`] = limit - n;
      conditions.push(`#l${i} = :l${i}`, `#u${i} <= :r${i}`);
    }
  });
  nonZero(delta.cells).forEach(([cell, n], i) => {
    names[`#c${i}`] = `C#${cell}`;
    values[`:c${i}`] = n;
    adds.push(`#c${i} :c${i}`);
  });
  nonZero(delta.logins).forEach(([month, n], i) => {
    names[`#m${i}`] = `L#${month}`;
    values[`:m${i}`] = n;
    adds.push(`#m${i} :m${i}`);
  });
  return {
    Update: {
      TableName: table,
      Key: rawKeys.department(departmentId),
      UpdateExpression: `SET #updated_at = :now ADD ${adds.join(', ')}`,
      ConditionExpression: conditions.map((c) => (conditions.length > 1 ? `(${c})` : c)).join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** `ADD` of counters on one item, none when every delta is 0. */
function adding(table: string, key: Key, deltas: Record<string, number>): TransactItem[] {
  const entries = nonZero(deltas);
  if (entries.length === 0) return [];
  return [
    {
      Update: {
        TableName: table,
        Key: key,
        UpdateExpression: `ADD ${entries.map((_, i) => `#a${i} :a${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#a${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, n], i) => [`:a${i}`, n])),
      },
    },
  ];
}

/** The counter writes of `deltas`, in the service's order: departments, the cell shard, login days, last names. */
function counterItems(table: string, deltas: Deltas, shardId: string, at: string): TransactItem[] {
  const items: TransactItem[] = [];
  for (const [id, delta] of deltas.departments) if (!isEmptyDelta(delta)) items.push(departmentCounters(table, id, delta, at));
  const shard = shardOf(shardId);
  items.push(...adding(table, rawKeys.statsShard(shard), deltas.cells));
  for (const [key, days] of deltas.logins) {
    const [membership, month] = key.split('|') as [Membership, string];
    items.push(...adding(table, rawKeys.loginCount(membership, month, shard % LOGIN_SHARDS), days));
  }
  for (const [key, n] of deltas.names) {
    const separator = key.indexOf('|');
    items.push(...adding(table, rawKeys.nameCount(key.slice(0, separator), key.slice(separator + 1)), { n }));
  }
  return items;
}

function counterItemCount(deltas: Deltas): number {
  let count = [...deltas.departments.values()].filter((delta) => !isEmptyDelta(delta)).length;
  if (nonZero(deltas.cells).length > 0) count++;
  count += [...deltas.logins.values()].filter((days) => nonZero(days).length > 0).length;
  count += [...deltas.names.values()].filter((n) => n !== 0).length;
  return count;
}

// --- user writes ------------------------------------------------------------------

/** The user item at its new version and its department copy (put while a member, deleted when it leaves). */
function userWrites(table: string, stored: Item, after: Item, condition: { version: unknown } | { heldBy: string }): TransactItem[] {
  const userPut: TransactItem =
    'version' in condition
      ? {
          Put: {
            TableName: table,
            Item: rawUserItem(after, Number(stored.version) + 1),
            ConditionExpression: '(#version = :version) AND (attribute_not_exists(#bulk_lock))',
            ExpressionAttributeNames: { '#version': 'version', '#bulk_lock': 'bulk_lock' },
            ExpressionAttributeValues: { ':version': condition.version },
          },
        }
      : {
          Put: {
            TableName: table,
            Item: rawUserItem(after, Number(stored.version) + 1),
            ConditionExpression: '#bulk_lock = :op',
            ExpressionAttributeNames: { '#bulk_lock': 'bulk_lock' },
            ExpressionAttributeValues: { ':op': condition.heldBy },
          },
        };
  if (after.department_id) return [userPut, { Put: { TableName: table, Item: rawDepartmentCopy(after) } }];
  if (stored.department_id) return [userPut, { Delete: { TableName: table, Key: rawKeys.departmentCopy(String(stored.id)) } }];
  return [userPut];
}

/** E2's one transaction: the user moved into `departmentId` with every counter it moves, and the audit entry. */
export function e2Transaction(table: string, stored: Item, departmentId: string, at: string): TransactItem[] {
  const after = movedUser(stored, departmentId, at);
  const deltas = noDeltas();
  contribute(deltas, fieldsOf(stored), -1);
  contribute(deltas, after, 1);
  const userId = String(stored.id);
  const changes = { added_user_ids: [userId], ...(stored.department_id ? { moved_from: { [userId]: stored.department_id } } : {}) };
  return [
    ...userWrites(table, stored, after, { version: stored.version }),
    ...counterItems(table, deltas, userId, at),
    auditPut(table, 'E2', 'department', departmentId, changes, at),
  ];
}

const transact = (client: Doc, items: TransactItem[]) =>
  client.send(new TransactWriteCommand({ TransactItems: items, ClientRequestToken: randomUUID() }));

// ---------------------------------------------------------------------------

/** E2: read the user, one transaction moving it into `departmentId`. */
export async function rawE2(client: Doc, table: string, departmentId: string, userId: string): Promise<void> {
  const before = (await client.send(new GetCommand({ TableName: table, Key: rawKeys.user(userId), ConsistentRead: true }))).Item!;
  if (before.department_id === departmentId) return;
  await transact(client, e2Transaction(table, before, departmentId, new Date().toISOString()));
}

// --- E3 (lib/departments/bulk-move/writes.ts) --------------------------------------

/** What moving `users` into `target` does to the counters; the target's quota usage is left out (it is reserved). */
function moveDeltas(users: Item[], target: string, at: string): Deltas {
  const deltas = noDeltas();
  for (const user of users) {
    contribute(deltas, fieldsOf(user), -1);
    contribute(deltas, movedUser(user, target, at), 1);
  }
  const targetDelta = deltas.departments.get(target);
  if (targetDelta) targetDelta.usage = NO_USAGE;
  return deltas;
}

/** The users rewritten into `target` (at the version read, or held by `heldBy`) and every counter they move. */
function moveItems(table: string, users: Item[], target: string, at: string, heldBy: string | null, deltas: Deltas, shardId: string) {
  return [
    ...users.flatMap((user) => userWrites(table, user, movedUser(user, target, at), heldBy ? { heldBy } : { version: user.version })),
    ...counterItems(table, deltas, shardId, at),
  ];
}

const e3Changes = (users: Item[]) => {
  const movedFrom = Object.fromEntries(users.filter((u) => u.department_id).map((u) => [String(u.id), u.department_id]));
  return { added_user_ids: users.map((u) => u.id), ...(Object.keys(movedFrom).length > 0 ? { moved_from: movedFrom } : {}) };
};

/** A move that fits in one transaction (singleTransaction): the reservation carries the target's list counters. */
export function e3SingleTransaction(table: string, users: Item[], target: Item, at: string): TransactItem[] | undefined {
  if (users.length * 2 >= MAX_TRANSACTION_ITEMS) return undefined;
  const targetId = String(target.id);
  const reserved = sumUsage(users.map(usageOf));
  const deltas = moveDeltas(users, targetId, at);
  const targetDelta: DepartmentDelta = { ...(deltas.departments.get(targetId) ?? { cells: {}, logins: {} }), usage: reserved };
  deltas.departments.delete(targetId);
  const items: TransactItem[] = [];
  if (!isZero(reserved) || Object.keys(targetDelta.cells).length > 0) {
    items.push(departmentCounters(table, targetId, targetDelta, at, { limits: target }));
  }
  items.push(
    ...moveItems(table, users, targetId, at, null, deltas, String(users[0]?.id ?? at)),
    auditPut(table, 'E3', 'department', targetId, e3Changes(users), at),
  );
  return items.length <= MAX_TRANSACTION_ITEMS ? items : undefined;
}

/** packParts: a part's apply (its users and their copies, every counter they move, part and header) fits in one transaction. */
export function packParts(users: Item[], target: string): Item[][] {
  const parts: Item[][] = [];
  let current: Item[] = [];
  const fits = (part: Item[]) => part.length * 2 + counterItemCount(moveDeltas(part, target, '')) + 2 <= MAX_TRANSACTION_ITEMS;
  for (const user of users) {
    if (current.length > 0 && !fits([...current, user])) {
      parts.push(current);
      current = [];
    }
    current.push(user);
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

/** Reserve: the header opened, and the whole addition on the target under its limits as read. */
export function e3ReserveTransaction(table: string, op: string, target: Item, at: string, parts: number, users: Item[]): TransactItem[] {
  const targetId = String(target.id);
  const reserved = sumUsage(users.map(usageOf));
  const leaseUntil = new Date(Date.parse(at) + BULK_LEASE_MS).toISOString();
  const items: TransactItem[] = [
    {
      Put: {
        TableName: table,
        Item: bulkHeaderItem(op, targetId, at, leaseUntil, parts, reserved),
        ConditionExpression: 'attribute_not_exists(#pk)',
        ExpressionAttributeNames: { '#pk': 'pk' },
      },
    },
  ];
  if (!isZero(reserved)) {
    items.push(departmentCounters(table, targetId, { usage: reserved, cells: {}, logins: {} }, at, { limits: target }));
  }
  return items;
}

/** Hold one part: header in `preparing` (the last hold turns it to `applying` and writes the audit entry), part, locks. */
export function e3HoldTransaction(table: string, op: string, index: number, part: Item[], commit?: TransactItem): TransactItem[] {
  const header: TransactItem = commit
    ? {
        Update: {
          TableName: table,
          Key: rawKeys.bulkHeader(op),
          UpdateExpression: 'SET #state = :next',
          ConditionExpression: '#state IN (:state)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':next': 'applying', ':state': 'preparing' },
        },
      }
    : {
        ConditionCheck: {
          TableName: table,
          Key: rawKeys.bulkHeader(op),
          ConditionExpression: '#state = :state',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':state': 'preparing' },
        },
      };
  return [
    header,
    {
      Put: {
        TableName: table,
        Item: bulkPartItem(
          op,
          index,
          part.map((u) => String(u.id)),
          sumUsage(part.map(usageOf)),
        ),
      },
    },
    ...part.map((user): TransactItem => ({
      Update: {
        TableName: table,
        Key: rawKeys.user(String(user.id)),
        UpdateExpression: 'SET #bulk_lock = :op',
        ConditionExpression: '(#version = :v) AND (attribute_not_exists(#bulk_lock))',
        ExpressionAttributeNames: { '#bulk_lock': 'bulk_lock', '#version': 'version' },
        ExpressionAttributeValues: { ':op': op, ':v': user.version },
      },
    })),
    ...(commit ? [commit] : []),
  ];
}

/** The commit's audit entry (written by the last hold). */
export const e3Audit = (table: string, target: string, users: Item[], at: string) =>
  auditPut(table, 'E3', 'department', target, e3Changes(users), at);

/** Apply one held part: part deleted, the header counts it off its reservation, users and copies moved, counters. */
export function e3ApplyTransaction(table: string, op: string, index: number, part: Item[], target: string, at: string): TransactItem[] {
  const usage = sumUsage(part.map(usageOf));
  const names: Record<string, string> = { '#parts_left': 'parts_left', '#state': 'state' };
  const values: Record<string, unknown> = { ':minus': -1, ':state': 'applying' };
  const adds = ['#parts_left :minus'];
  QUOTAS.forEach((quota, i) => {
    if (usage[quota] === 0) return;
    names[`#r${i}`] = `reserved_${quota}`;
    values[`:r${i}`] = -usage[quota];
    adds.push(`#r${i} :r${i}`);
  });
  return [
    {
      Delete: {
        TableName: table,
        Key: rawKeys.bulkPart(op, index),
        ConditionExpression: 'attribute_exists(#pk)',
        ExpressionAttributeNames: { '#pk': 'pk' },
      },
    },
    {
      Update: {
        TableName: table,
        Key: rawKeys.bulkHeader(op),
        UpdateExpression: `ADD ${adds.join(', ')}`,
        ConditionExpression: '#state = :state',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    ...moveItems(table, part, target, at, op, moveDeltas(part, target, at), `${op}#${index}`),
  ];
}

/** Finish: the header goes once no part is left. */
export const e3FinishTransaction = (table: string, op: string): TransactItem[] => [
  {
    Delete: {
      TableName: table,
      Key: rawKeys.bulkHeader(op),
      ConditionExpression: '(#state = :state) AND (#parts_left = :zero)',
      ExpressionAttributeNames: { '#state': 'state', '#parts_left': 'parts_left' },
      ExpressionAttributeValues: { ':state': 'applying', ':zero': 0 },
    },
  },
];

/**
 * E3: read the target and the users (BatchGetItem, 100 a request, in
 * parallel), then one transaction when the move fits in one, else the bulk
 * protocol: reserve, hold each part (the last commits), apply each part,
 * finish.
 */
export async function rawE3(client: Doc, table: string, departmentId: string, userIds: string[]): Promise<void> {
  const batches: string[][] = [];
  for (let i = 0; i < userIds.length; i += 100) batches.push(userIds.slice(i, i + 100));
  const [targetRead, found] = await Promise.all([
    client.send(new GetCommand({ TableName: table, Key: rawKeys.department(departmentId), ConsistentRead: true })),
    Promise.all(
      batches.map(async (batch) => {
        const result = await client.send(
          new BatchGetCommand({ RequestItems: { [table]: { Keys: batch.map(rawKeys.user), ConsistentRead: true } } }),
        );
        return result.Responses?.[table] ?? [];
      }),
    ),
  ]);
  const target = targetRead.Item!;
  const byId = new Map(found.flat().map((item) => [String(item.id), item]));
  const users = userIds.map((id) => byId.get(id)!).filter((user) => user.department_id !== departmentId);
  if (users.length === 0) return;
  const at = new Date().toISOString();

  const single = e3SingleTransaction(table, users, target, at);
  if (single) {
    await transact(client, single);
    return;
  }
  const op = newId();
  const parts = packParts(users, departmentId);
  await transact(client, e3ReserveTransaction(table, op, target, at, parts.length, users));
  for (const [index, part] of parts.entries()) {
    const commit = index === parts.length - 1 ? e3Audit(table, departmentId, users, at) : undefined;
    await transact(client, e3HoldTransaction(table, op, index, part, commit));
  }
  for (const [index, part] of parts.entries()) await transact(client, e3ApplyTransaction(table, op, index, part, departmentId, at));
  await transact(client, e3FinishTransaction(table, op));
}

// --- reads ------------------------------------------------------------------------

/**
 * E1, a page of `count` at offset 0, default sort (last name): the service
 * counters (the total is their sum) and, at the same time, one Query of the
 * whole USERS#IN partition of byName, count + 1 entries (the one past the
 * page says whether another follows).
 */
export async function rawE1(client: Doc, table: string, count: number): Promise<void> {
  // The counters and the page do not depend on each other: both at once.
  const counters = client.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': STATS_PARTITION },
      ConsistentRead: false,
    }),
  );
  const page = client.send(
    new QueryCommand({
      TableName: table,
      IndexName: 'gsi1',
      KeyConditionExpression: '#ipk = :ipk',
      ExpressionAttributeNames: { '#ipk': 'gsi1pk' },
      ExpressionAttributeValues: { ':ipk': usersPartition('IN') },
      ScanIndexForward: true,
      Limit: count + 1,
    }),
  );
  await Promise.all([counters, page]);
}

/** G1: the group, its member partition (consistent, user ids only), the users (BatchGetItem, 100 a request, up to 16 at once). */
export async function rawG1(client: Doc, table: string, groupId: string): Promise<void> {
  const group = (await client.send(new GetCommand({ TableName: table, Key: rawKeys.group(groupId), ConsistentRead: true }))).Item!;
  const ids: string[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': groupMembersPartition(groupId, String(group.generation)) },
        ConsistentRead: true,
        ProjectionExpression: 'user_id',
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) ids.push(String(item.user_id));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += 100) batches.push(ids.slice(i, i + 100));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++];
      await client.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: batch.map(rawKeys.user), ConsistentRead: true } } }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(16, batches.length) }, worker));
}

// --- G4 ---------------------------------------------------------------------------

/** G4's transaction: both membership items (the group's side only if absent), the group's count, the user check, audit. */
export function g4Transaction(table: string, groupId: string, generation: string, userId: string, at: string): TransactItem[] {
  const [groupSide, userSide] = membershipItemsRaw(groupId, generation, userId, at);
  return [
    {
      Put: {
        TableName: table,
        Item: groupSide,
        ConditionExpression: 'attribute_not_exists(#pk)',
        ExpressionAttributeNames: { '#pk': 'pk' },
      },
    },
    { Put: { TableName: table, Item: userSide } },
    {
      Update: {
        TableName: table,
        Key: rawKeys.group(groupId),
        UpdateExpression: 'SET #updated_at = :now ADD #user_count :delta, #version :one',
        // Not while a large change of the group's members is being applied (lib/groups/bulk-change.ts).
        ConditionExpression:
          '(attribute_exists(#pk)) AND (#generation = :generation) AND (#state = :active) AND (attribute_not_exists(#change_id)) AND (#user_count <= :most)',
        ExpressionAttributeNames: {
          '#updated_at': 'updated_at',
          '#user_count': 'user_count',
          '#version': 'version',
          '#pk': 'pk',
          '#generation': 'generation',
          '#state': 'state',
          '#change_id': 'change_id',
        },
        ExpressionAttributeValues: {
          ':now': at,
          ':delta': 1,
          ':one': 1,
          ':generation': generation,
          ':active': 'active',
          ':most': MAX_GROUP_USERS - 1,
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    {
      ConditionCheck: {
        TableName: table,
        Key: rawKeys.user(userId),
        ConditionExpression: '(attribute_exists(#pk)) AND (attribute_not_exists(#group_lock) OR #group_lock < :now)',
        ExpressionAttributeNames: { '#pk': 'pk', '#group_lock': 'group_lock' },
        ExpressionAttributeValues: { ':now': at },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    auditPut(table, 'G4', 'group', groupId, { added_user_ids: [userId] }, at),
  ];
}

/** G4: the group and the user (in parallel), then one transaction; the member put's condition answers "already a member". */
export async function rawG4(client: Doc, table: string, groupId: string, userId: string): Promise<void> {
  const [group] = await Promise.all([
    client.send(new GetCommand({ TableName: table, Key: rawKeys.group(groupId), ConsistentRead: true })).then((r) => r.Item!),
    client.send(new GetCommand({ TableName: table, Key: rawKeys.user(userId), ConsistentRead: true })),
  ]);
  await transact(client, g4Transaction(table, groupId, String(group.generation), userId, new Date().toISOString()));
}
