/**
 * Department items: `DEPT#<id>` / `DEPT`, listed in index partition DEPTS by
 * name (byName), by creation (byTime) and by member count (departmentsByCount,
 * whose sort key is `usage_users` itself, then `id`: the counter update moves
 * the entry, nothing else has to). Each holds its quota counters,
 * `usage_<quota>`, moved in the same transaction as every membership change,
 * and its limits, `limit_<quota>` (absent = no limit). It also counts its
 * members for the lists: per cell (`C#<cell>`, lib/store/users.ts) and per
 * month of their last login (`L#<YYYY-MM>`), moved with the same changes.
 *
 * The counter update keeps every limit without reading the department
 * first: a single member change raises a counter by at most one, so
 * `usage < limit` compares two attributes of the item itself. A bulk move
 * reserves `k` at once (`reserveUsage`), conditional on the limits as read.
 */
import { config } from '../config';
import { Condition, Update } from '../db/expression';
import * as attr from '../db/item-kind';
import { getItem } from '../db/items';
import { batchGetItems } from '../db/batch';
import { queryPage, startsWithOneOf, type Filter, type IndexQuery } from '../db/query';
import { INDEXES, type Item, type Key } from '../db/table';
import { put, remove, update, type Explain, type Write } from '../db/transact';
import { COUNTED_QUOTAS, type CountedQuota } from '../schemas/enums';
import type { Department } from '../schemas/responses';
import { foldCase, KEY_SEPARATOR, nameSortKey } from '../text';
import { creationSortKey } from './creation-order';

export type { Department };

/** What each counted quota of a department holds (or a change adds to it). */
export type Usage = Record<CountedQuota, number>;
export const NO_USAGE: Usage = { users: 0, activated_users: 0, admins: 0, managers: 0, guests: 0 };

/** What one change adds to a department: quota usage, and the list counters. */
export interface DepartmentDelta {
  usage: Usage;
  /** By cell code. */
  cells: Record<string, number>;
  /** By login month (`YYYY-MM`; users who never logged in are not counted here). */
  logins: Record<string, number>;
}

export interface StoredDepartment extends Department {
  version: number;
  usage: Usage;
  /** Members per cell code, and per month of their last login. */
  cells: Record<string, number>;
  logins: Record<string, number>;
  /** Limits of the counted quotas; null = no limit (`seats` comes from the deployment, not the item). */
  limits: Record<CountedQuota, number | null>;
}

/** One value per counted quota, made by `of` (TypeScript checks that none is missing). */
export const perQuota = <T>(of: (quota: CountedQuota) => T): Record<CountedQuota, T> => ({
  users: of('users'),
  activated_users: of('activated_users'),
  admins: of('admins'),
  managers: of('managers'),
  guests: of('guests'),
});

const usage = attr.orElse(attr.number, 0);
const limit = attr.optional(attr.number);

const departmentKind = attr.itemKind({
  type: 'department',
  key: (id: string): Key => ({ pk: `DEPT#${id}`, sk: 'DEPT' }),
  attributes: {
    id: attr.string,
    name: attr.string,
    created_at: attr.string,
    updated_at: attr.string,
    version: attr.number,
    usage_users: usage,
    usage_activated_users: usage,
    usage_admins: usage,
    usage_managers: usage,
    usage_guests: usage,
    limit_users: limit,
    limit_activated_users: limit,
    limit_admins: limit,
    limit_managers: limit,
    limit_guests: limit,
  },
  // The member counters per cell (`C#<cell>`) and per login month (`L#<YYYY-MM>`) are named by their values: countersOf reads them.
  indexAttributes: { name_folded: attr.string, gsi1pk: attr.string, gsi1sk: attr.string, gsi4sk: attr.string },
});

export type DepartmentItem = attr.ItemOf<typeof departmentKind>;

export const departmentKey = departmentKind.key;
const DEPARTMENTS_PARTITION = 'DEPTS';

const usageAttribute = (quota: CountedQuota) => `usage_${quota}` as const;
const limitAttribute = (quota: CountedQuota) => `limit_${quota}` as const;
const CELL_PREFIX = 'C#';
const LOGIN_PREFIX = 'L#';

const nameAttributes = (id: string, name: string) => ({
  name,
  name_folded: foldCase(name),
  gsi1pk: DEPARTMENTS_PARTITION,
  gsi1sk: nameSortKey(name, id),
});

/** Counters of one kind, by the part of their attribute name after the prefix. */
function countersOf(item: Item, prefix: string): Record<string, number> {
  const counters: Record<string, number> = {};
  for (const [attribute, value] of Object.entries(item)) {
    if (attribute.startsWith(prefix) && typeof value === 'number') counters[attribute.slice(prefix.length)] = value;
  }
  return counters;
}

/** A department as created: no members (a dataset loaded directly may give the usage its members make). */
export function newDepartmentItem(id: string, name: string, now: string, usage: Usage = NO_USAGE): DepartmentItem {
  return departmentKind.item(departmentKey(id), {
    id,
    ...nameAttributes(id, name),
    usage_users: usage.users,
    usage_activated_users: usage.activated_users,
    usage_admins: usage.admins,
    usage_managers: usage.managers,
    usage_guests: usage.guests,
    created_at: now,
    updated_at: now,
    gsi4sk: creationSortKey(now, id),
    version: 1,
  });
}

export function toDepartment(item: Item): StoredDepartment {
  const stored = departmentKind.read(item);
  const usage = perQuota((q) => stored[usageAttribute(q)]);
  return {
    id: stored.id,
    name: stored.name,
    user_count: usage.users,
    created_at: stored.created_at,
    updated_at: stored.updated_at,
    version: stored.version,
    usage,
    limits: perQuota((q) => stored[limitAttribute(q)] ?? null),
    cells: countersOf(item, CELL_PREFIX),
    logins: countersOf(item, LOGIN_PREFIX),
  };
}

export async function findDepartment(id: string, consistent = true): Promise<StoredDepartment | undefined> {
  const item = await getItem(departmentKey(id), consistent);
  return item ? toDepartment(item) : undefined;
}

/** The departments whose name equals `name` case-insensitively, by id (one Query of their name keys). */
export async function findDepartmentsByName(name: string): Promise<StoredDepartment[]> {
  const { items } = await queryPage({ ...departmentList.byName(), sortKeyPrefix: `${foldCase(name)}${KEY_SEPARATOR}` }, { limit: 25 });
  return items.map(toDepartment);
}

/**
 * Departments by id, strongly consistent (one BatchGetItem per 100); absent ones are left out. A rule's check and
 * preview read them: a department made a moment ago exists, and its counters are exact.
 */
export async function findDepartments(ids: string[]): Promise<Map<string, StoredDepartment>> {
  const items = await batchGetItems([...new Set(ids)].map(departmentKey), { consistent: true });
  return new Map(items.map((item) => [departmentKind.attribute(item, 'id'), toDepartment(item)]));
}

/** Departments' names by id, eventually consistent (one BatchGetItem per 100); absent ones are left out. */
export async function departmentNames(ids: string[]): Promise<Map<string, string>> {
  const items = await batchGetItems([...new Set(ids)].map(departmentKey), { consistent: false });
  return new Map(items.map((item) => [departmentKind.attribute(item, 'id'), departmentKind.attribute(item, 'name')]));
}

// --- writes ------------------------------------------------------------------

/** Creates the department; `explain` answers an id already taken. */
export const createDepartmentWrite = (item: DepartmentItem, explain: Explain): Write =>
  put(item, new Condition().whenAbsent(), { explain });

/** The department must exist, and be at `expectedVersion` when one is given. */
function existing<E extends Condition | Update>(condition: E, expectedVersion: number | undefined): E {
  condition.whenExists();
  if (expectedVersion !== undefined) condition.whenEquals('version', expectedVersion);
  return condition;
}

export function renameDepartmentWrite(id: string, name: string, now: string, expectedVersion: number | undefined, explain: Explain): Write {
  const changes = new Update().setAll({ ...nameAttributes(id, name), updated_at: now }).add('version', 1);
  return update(departmentKey(id), existing(changes, expectedVersion), { explain, returnOld: true });
}

/** Deletes the department if it has no users (the reservations of bulk moves into it count as users). */
export function deleteDepartmentWrite(id: string, expectedVersion: number | undefined, explain: Explain): Write {
  const condition = existing(new Condition(), expectedVersion).whenEquals(usageAttribute('users'), 0);
  return remove(departmentKey(id), condition, { explain, returnOld: true });
}

/** Sets one limit, or removes it with null. */
export function setLimitWrite(id: string, quota: CountedQuota, limit: number | null, now: string, explain: Explain): Write {
  const changes = limit === null ? new Update().remove(limitAttribute(quota)) : new Update().set(limitAttribute(quota), limit);
  changes.set('updated_at', now).add('version', 1).whenExists();
  return update(departmentKey(id), changes, { explain });
}

/** Moves the counters by `delta` and bumps the version; the department must exist. */
function counterUpdate(delta: DepartmentDelta, now: string): Update {
  const changes = new Update().set('updated_at', now).add('version', 1).whenExists();
  for (const quota of COUNTED_QUOTAS) if (delta.usage[quota] !== 0) changes.add(usageAttribute(quota), delta.usage[quota]);
  for (const [cell, n] of Object.entries(delta.cells)) if (n !== 0) changes.add(`${CELL_PREFIX}${cell}`, n);
  for (const [month, n] of Object.entries(delta.logins)) if (n !== 0) changes.add(`${LOGIN_PREFIX}${month}`, n);
  return changes;
}

export const usageOnly = (usage: Usage): DepartmentDelta => ({ usage, cells: {}, logins: {} });

/**
 * Moves the counters by `delta`: each quota counter it raises must be below
 * its limit before the raise (and `users` below the seats). Raises a quota
 * counter by one at most; bulk moves reserve instead.
 */
export function addUsageWrite(id: string, delta: DepartmentDelta, now: string, explain?: Explain): Write {
  const changes = counterUpdate(delta, now);
  for (const quota of COUNTED_QUOTAS) {
    if (delta.usage[quota] <= 0) continue;
    if (delta.usage[quota] !== 1) throw new Error('addUsageWrite raises a counter by one at most; bulk moves reserve instead');
    const usage = changes.name(usageAttribute(quota));
    const limit = changes.name(limitAttribute(quota));
    changes.when(`attribute_not_exists(${limit}) OR ${usage} < ${limit}`);
  }
  const seats = config().departmentSeats;
  if (delta.usage.users > 0 && seats !== null) changes.when(`${changes.name(usageAttribute('users'))} < ${changes.value(seats)}`);
  return update(departmentKey(id), changes, { explain, returnOld: true });
}

/**
 * Adds a whole bulk addition at once. A raise of `k` cannot compare two
 * attributes the way `usage < limit` does, so it is conditional on each
 * raised limit still being the one read (or still absent) and on
 * `usage <= limit - k`. `delta` may also move the list counters (a move
 * that fits in one transaction counts its users there).
 */
export function reserveUsageWrite(
  id: string,
  delta: DepartmentDelta,
  asRead: StoredDepartment | undefined,
  now: string,
  explain?: Explain,
): Write {
  const changes = counterUpdate(delta, now);
  const reserved = delta.usage;
  for (const quota of COUNTED_QUOTAS) {
    const raise = reserved[quota];
    if (raise === 0) continue;
    if (raise < 0) throw new Error('reserveUsageWrite only raises counters');
    const limit = asRead?.limits[quota] ?? null;
    const limitName = changes.name(limitAttribute(quota));
    if (limit === null) changes.when(`attribute_not_exists(${limitName})`);
    else {
      changes.when(`${limitName} = ${changes.value(limit)}`);
      changes.when(`${changes.name(usageAttribute(quota))} <= ${changes.value(limit - raise)}`);
    }
  }
  const seats = config().departmentSeats;
  if (reserved.users > 0 && seats !== null) {
    changes.when(`${changes.name(usageAttribute('users'))} <= ${changes.value(seats - reserved.users)}`);
  }
  return update(departmentKey(id), changes, { explain, returnOld: true });
}

// --- lists -------------------------------------------------------------------

export const departmentList = {
  /** Every department, by name. */
  byName: (): IndexQuery => ({ index: INDEXES.byName, partition: DEPARTMENTS_PARTITION }),
  /** Every department, by creation time then id. */
  byCreation: (): IndexQuery => ({ index: INDEXES.byTime, partition: DEPARTMENTS_PARTITION }),
  /** Every department, by `user_count` (`usage_users`: members and the reservations of open bulk moves) then id. */
  byCount: (): IndexQuery => ({ index: INDEXES.departmentsByCount, partition: DEPARTMENTS_PARTITION }),
  foldedName: (item: Item) => departmentKind.attribute(item, 'name_folded'),
  /** Case-folded prefixes of the name. */
  namePrefixes: (prefixes: string[]): Filter => startsWithOneOf('name_folded', prefixes, 'np'),
} as const;
