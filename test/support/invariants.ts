/**
 * Reads the whole (per-test-file) table and lists every broken invariant:
 * department counters (quota usage, and the list counters per cell and per
 * login month) equal their members counted by attribute, every user is in
 * at most one existing department with index keys and a department copy
 * that say so, every e-mail claim belongs to exactly its user, and every
 * service counter — departments, groups, users per cell, logins per day,
 * last names — equals what it counts; the count indexes hold every
 * department and published group once, at the count it has, in count then
 * id order. Scanning is fine here: this is a test's view, never a request
 * path.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../lib/db/client';
import { NO_USAGE, sumUsage, usageOf, type Usage } from '../../lib/departments/quotas';
import { COUNTED_QUOTAS } from '../../lib/schemas/enums';
import { openReservations, partHolds } from '../../lib/store/bulk-moves';
import { queryStream, type IndexQuery } from '../../lib/db/query';
import { departmentList, toDepartment } from '../../lib/store/departments';
import { groupList } from '../../lib/store/groups';
import { dayAttribute } from '../../lib/store/login-counts';
import { DEPARTMENTS_COUNTER } from '../../lib/store/stats';
import { cellCode, cellOf, departmentCopyItem, loginMonth, membershipOf, toUser, userItem } from '../../lib/store/users';
import { compareCodePoints, foldCase } from '../../lib/text';
import { cellCounterName } from '../../lib/users/counters';
import { expectedGroupCounters, groupViolations } from './group-invariants';

type Item = Record<string, any>;

export async function scanTable(): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: startKey, ConsistentRead: true }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

const bump = (counts: Record<string, number>, key: string, by = 1) => (counts[key] = (counts[key] ?? 0) + by);

/** Compares counted values with stored ones (absent stored = 0), reporting each difference. */
function compareCounts(what: string, stored: Record<string, number>, counted: Record<string, number>, violations: string[]) {
  for (const key of new Set([...Object.keys(stored), ...Object.keys(counted)])) {
    if ((stored[key] ?? 0) !== (counted[key] ?? 0)) violations.push(`${what} ${key}=${stored[key] ?? 0}, expected ${counted[key] ?? 0}`);
  }
}

export async function invariantViolations(): Promise<string[]> {
  const items = await scanTable();
  const byType = (type: string) => items.filter((item) => item.type === type);
  const users = byType('user');
  const departments = new Map(byType('department').map((d) => [d.id as string, d]));
  const copies = new Map(byType('user-in-department').map((c) => [c.id as string, c]));
  const violations: string[] = [];

  const reservations = openReservations(items);
  const members = new Map<string, Usage[]>();
  const departmentCells = new Map<string, Record<string, number>>();
  const departmentLogins = new Map<string, Record<string, number>>();
  const serviceCounters: Record<string, number> = { [DEPARTMENTS_COUNTER]: departments.size, ...expectedGroupCounters(items) };
  const logins: Record<string, number> = {};
  const names: Record<string, number> = {};
  for (const item of users) {
    const user = toUser(item);
    const membership = membershipOf(user.department_id);
    if (user.department_id !== null) {
      if (!departments.has(user.department_id)) violations.push(`user ${user.id} is in missing department ${user.department_id}`);
      members.set(user.department_id, [...(members.get(user.department_id) ?? []), usageOf(user)]);
      bump(
        (departmentCells.get(user.department_id) ?? departmentCells.set(user.department_id, {}).get(user.department_id))!,
        cellCode(cellOf(user)),
      );
      if (user.last_login) {
        bump(
          (departmentLogins.get(user.department_id) ?? departmentLogins.set(user.department_id, {}).get(user.department_id))!,
          loginMonth(user.last_login),
        );
      }
      const { pk: _pk, sk: _sk, ...expectedCopy } = departmentCopyItem({ ...user, department_id: user.department_id });
      const copy = copies.get(user.id);
      if (!copy) violations.push(`user ${user.id} of department ${user.department_id} has no department copy`);
      else
        for (const [name, value] of Object.entries(expectedCopy)) {
          if (JSON.stringify(copy[name]) !== JSON.stringify(value))
            violations.push(`the department copy of ${user.id} has ${name}=${copy[name]}, expected ${value}`);
        }
    } else if (copies.has(user.id)) violations.push(`user ${user.id} is in no department but keeps a department copy`);
    const expected = userItem(user, Number(item.version));
    for (const name of ['gsi1pk', 'gsi1sk', 'gsi4sk', 'gsi5pk', 'gsi7sk', 'gsi8pk', 'gsi11pk', 'last_name_folded']) {
      if (item[name] !== expected[name]) violations.push(`user ${user.id} has ${name}=${item[name]}, expected ${expected[name]}`);
    }
    if (item.bulk_lock && !items.some((other) => partHolds(other, item.bulk_lock, user.id)))
      violations.push(`user ${user.id} is held by bulk move ${item.bulk_lock}, which does not hold it`);
    bump(serviceCounters, cellCounterName(membership, user));
    if (user.last_login) bump(logins, `${membership}|${user.last_login.slice(0, 7)}|${dayAttribute(user.last_login)}`);
    bump(names, `USERS#${membership}|${foldCase(user.last_name)}`);
    if (user.department_id) bump(names, `DEPT#${user.department_id}|${foldCase(user.last_name)}`);
  }
  for (const copy of copies.values()) {
    if (!users.some((user) => user.id === copy.id)) violations.push(`department copy of missing user ${copy.id}`);
  }
  for (const [id, item] of departments) {
    const department = toDepartment(item);
    // Open bulk moves hold their not-yet-applied additions as reservations (lib/departments/bulk-move/).
    const counted = sumUsage([...(members.get(id) ?? []), reservations.get(id) ?? NO_USAGE]);
    for (const quota of COUNTED_QUOTAS) {
      if (department.usage[quota] !== counted[quota])
        violations.push(`department ${id} counts ${quota}=${department.usage[quota]} but has ${counted[quota]}`);
    }
    compareCounts(`department ${id} cell`, department.cells, departmentCells.get(id) ?? {}, violations);
    compareCounts(`department ${id} logins in`, department.logins, departmentLogins.get(id) ?? {}, violations);
  }

  // Every claimed value belongs to exactly its user, and every user holds its claims.
  const usersById = new Map(users.map((u) => [u.id as string, u]));
  const CLAIMS = [
    { type: 'email', prefix: 'EMAIL#', value: (u: Item) => foldCase(String(u.email)) },
    { type: 'user_name', prefix: 'USERNAME#', value: (u: Item) => (u.user_name === undefined ? null : foldCase(String(u.user_name))) },
    { type: 'external_id', prefix: 'USEREXT#', value: (u: Item) => (u.external_id ? String(u.external_id) : null) },
  ];
  for (const { type, prefix, value } of CLAIMS) {
    const claims = byType(type);
    for (const claim of claims) {
      const owner = usersById.get(claim.user_id);
      if (!owner || `${prefix}${value(owner)}` !== claim.pk)
        violations.push(`${type} claim ${claim.pk} does not match user ${claim.user_id}`);
    }
    const holders = users.filter((u) => value(u) !== null).length;
    if (claims.length !== holders) violations.push(`${claims.length} ${type} claims for ${holders} users that hold one`);
  }

  const stored: Record<string, number> = {};
  for (const shard of items.filter((i) => i.pk === 'STATS')) {
    for (const [name, value] of Object.entries(shard)) if (typeof value === 'number') bump(stored, name, value);
  }
  compareCounts('service counter', stored, serviceCounters, violations);
  const storedLogins: Record<string, number> = {};
  for (const item of items.filter((i) => String(i.pk).startsWith('LOGINS#USERS#'))) {
    const membership = String(item.pk).slice('LOGINS#USERS#'.length);
    for (const [name, value] of Object.entries(item)) {
      if (/^d\d\d$/.test(name) && typeof value === 'number')
        bump(storedLogins, `${membership}|${String(item.sk).slice(0, 7)}|${name}`, value);
    }
  }
  compareCounts('login counter', storedLogins, logins, violations);
  const storedNames: Record<string, number> = {};
  for (const item of items.filter((i) => String(i.pk).startsWith('NAMES#'))) {
    bump(storedNames, `${String(item.pk).slice('NAMES#'.length)}|${item.sk}`, Number(item.n ?? 0));
  }
  compareCounts('last-name counter', storedNames, names, violations);
  violations.push(...groupViolations(items));
  violations.push(...(await countIndexViolations('department', departmentList.byCount(), [...departments.values()])));
  violations.push(
    ...(await countIndexViolations(
      'group',
      groupList.byCount(),
      byType('group').filter((g) => g.state === 'active'),
    )),
  );
  return violations;
}

/**
 * A count index partition holds each of `listed` once, sorted by its count
 * (the index's sort key, which the checks above compare with what it counts)
 * and then by id, and nothing else.
 */
async function countIndexViolations(what: string, query: IndexQuery, listed: Item[]): Promise<string[]> {
  const { sortKey } = query.index;
  const entries: Item[] = [];
  for await (const entry of queryStream(query)) entries.push(entry);
  const expected = [...listed].sort((a, b) => Number(a[sortKey]) - Number(b[sortKey]) || compareCodePoints(a.id, b.id));
  const show = (list: Item[]) => list.map((item) => `${item.id}:${item[sortKey]}`).join(' ');
  return show(entries) === show(expected)
    ? []
    : [`the ${what} count index holds ${show(entries)}, expected ${show(expected)} (${sortKey})`];
}
