/**
 * The scopes a user list reads and what the counters say about each: users
 * per cell, and per login day (a membership) or login month (a department).
 * Scopes are `USERS#IN` / `USERS#OUT` for the service-wide lists and one per
 * department for a department's users or a `department_id` filter.
 */
import { departmentNotFound } from '../../departments/errors';
import type { AccountRole } from '../../schemas/enums';
import { findDepartment, type StoredDepartment } from '../../store/departments';
import { loginsByDay } from '../../store/login-counts';
import { countNames, type NameScope } from '../../store/name-counts';
import { readCounters } from '../../store/stats';
import { ALL_CELLS, cellCode, scopePrefix, type CellOf, type Membership, type ScopeKey } from '../../store/users';

/** Whose users: everybody, members of any department (E1), or one department. */
export type UserScope = { kind: 'all' } | { kind: 'in-department' } | { kind: 'department'; departmentId: string };

export type LoginFilter = { kind: 'never' } | { kind: 'since' | 'before'; time: string };

export interface UserFilters {
  roles?: AccountRole[];
  /** Case-folded, without repeats. */
  lastNamePrefixes?: string[];
  departmentIds?: string[];
  activated?: boolean;
  lastLogin?: LoginFilter;
}

/** One scope of a list, with its counters. */
export interface ScopeView {
  key: ScopeKey;
  /** Users per cell code. */
  cells: Record<string, number>;
  /** Users per cell code in the partitions the scope's cells share with the other membership (a membership's). */
  sharedCells?: Record<string, number>;
  /** Users of each of the scope's whole partitions (userLists.all: one per membership for everyone). */
  wholeUsers: number[];
  /** Users per login period: days (`YYYY-MM-DD`) for a membership, months (`YYYY-MM`) for a department. Read when a login range is asked. */
  logins?: Map<string, number>;
  /** Users whose last name starts with each prefix asked, from the last-name counters. */
  prefixCounts?: Map<string, number>;
}

/** The scopes of a request; a department scope or filter reads its departments (404 for a department list of an unknown one). */
export async function scopesOf(scope: UserScope, filters: UserFilters): Promise<ScopeView[]> {
  if (scope.kind === 'department') {
    const department = await findDepartment(scope.departmentId);
    if (!department) throw departmentNotFound(scope.departmentId);
    const excluded = filters.departmentIds && !filters.departmentIds.includes(department.id);
    return excluded ? [] : [await departmentView(department, filters)];
  }
  if (filters.departmentIds) {
    const departments = await Promise.all(filters.departmentIds.map((id) => findDepartment(id)));
    const found = departments.filter((d): d is StoredDepartment => d !== undefined);
    return Promise.all(found.map((department) => departmentView(department, filters)));
  }
  const counters = await readCounters();
  if (scope.kind === 'all') {
    const [inside, outside] = await Promise.all(
      (['IN', 'OUT'] as const).map((membership) => membershipView(membership, counters, filters)),
    );
    return [everyoneView(inside, outside)];
  }
  const inside = await membershipView('IN', counters, filters);
  return [{ ...inside, sharedCells: sumCells(inside.cells, cellCounts('OUT', counters)) }];
}

const cellCounts = (membership: Membership, counters: Record<string, number>) =>
  Object.fromEntries(ALL_CELLS.map((cell) => [cellCode(cell), counters[`${scopePrefix({ membership })}#${cellCode(cell)}`] ?? 0]));

const sumCells = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(ALL_CELLS.map(cellCode).map((code) => [code, (a[code] ?? 0) + (b[code] ?? 0)]));

function sumMaps(a: Map<string, number> | undefined, b: Map<string, number> | undefined): Map<string, number> | undefined {
  if (!a || !b) return a ?? b;
  const sum = new Map(a);
  for (const [key, n] of b) sum.set(key, (sum.get(key) ?? 0) + n);
  return sum;
}

/** Everybody: both memberships' counters added up. */
function everyoneView(inside: ScopeView, outside: ScopeView): ScopeView {
  return {
    key: { everyone: true },
    cells: sumCells(inside.cells, outside.cells),
    wholeUsers: [...inside.wholeUsers, ...outside.wholeUsers],
    logins: sumMaps(inside.logins, outside.logins),
    prefixCounts: sumMaps(inside.prefixCounts, outside.prefixCounts),
  };
}

async function departmentView(department: StoredDepartment, filters: UserFilters): Promise<ScopeView> {
  return {
    key: { department: department.id },
    cells: department.cells,
    wholeUsers: [Object.values(department.cells).reduce((a, b) => a + b, 0)],
    logins: filters.lastLogin && filters.lastLogin.kind !== 'never' ? new Map(Object.entries(department.logins)) : undefined,
    prefixCounts: await prefixCounts({ department: department.id }, filters),
  };
}

/** Users of the scope per last-name prefix asked, from the last-name counters. */
async function prefixCounts(scope: NameScope, filters: UserFilters): Promise<Map<string, number> | undefined> {
  const prefixes = filters.lastNamePrefixes;
  if (!prefixes) return undefined;
  return new Map(await Promise.all(prefixes.map(async (prefix) => [prefix, await countNames(scope, prefix)] as const)));
}

async function membershipView(membership: Membership, counters: Record<string, number>, filters: UserFilters): Promise<ScopeView> {
  const key: ScopeKey = { membership };
  const cells = cellCounts(membership, counters);
  const range = filters.lastLogin;
  const [logins, prefixes] = await Promise.all([
    range && range.kind !== 'never'
      ? loginsByDay(
          membership,
          range.kind === 'since' ? range.time.slice(0, 7) : '0000-01',
          range.kind === 'since' ? '9999-12' : range.time.slice(0, 7),
        )
      : undefined,
    prefixCounts({ membership }, filters),
  ]);
  return { key, cells, wholeUsers: [Object.values(cells).reduce((a, b) => a + b, 0)], logins, prefixCounts: prefixes };
}

/** The cells a request's equality filters select. */
export function matchingCells(filters: UserFilters): CellOf[] {
  return ALL_CELLS.filter(
    (cell) =>
      (!filters.roles || filters.roles.includes(cell.role)) &&
      (filters.activated === undefined || filters.activated === cell.activated) &&
      (!filters.lastLogin || cell.loggedIn === (filters.lastLogin.kind !== 'never')),
  );
}

export const usersIn = (view: ScopeView, cells: CellOf[]) => cells.reduce((n, cell) => n + (view.cells[cellCode(cell)] ?? 0), 0);
