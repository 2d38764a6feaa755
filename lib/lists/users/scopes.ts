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
import { countNames } from '../../store/name-counts';
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
  /** Users per login period: days (`YYYY-MM-DD`) for a membership, months (`YYYY-MM`) for a department. Read when a login range is asked. */
  logins?: Map<string, number>;
  /** Users whose last name starts with the prefix, when the counters know (a membership). */
  prefixCounts?: Map<string, number>;
}

/** The scopes of a request; a department scope or filter reads its departments (404 for a department list of an unknown one). */
export async function scopesOf(scope: UserScope, filters: UserFilters): Promise<ScopeView[]> {
  if (scope.kind === 'department') {
    const department = await findDepartment(scope.departmentId);
    if (!department) throw departmentNotFound(scope.departmentId);
    const excluded = filters.departmentIds && !filters.departmentIds.includes(department.id);
    return excluded ? [] : [departmentView(department, filters)];
  }
  if (filters.departmentIds) {
    const departments = await Promise.all(filters.departmentIds.map((id) => findDepartment(id)));
    return departments.filter((d): d is StoredDepartment => d !== undefined).map((department) => departmentView(department, filters));
  }
  const memberships: Membership[] = scope.kind === 'all' ? ['IN', 'OUT'] : ['IN'];
  const counters = await readCounters();
  return Promise.all(memberships.map((membership) => membershipView(membership, counters, filters)));
}

function departmentView(department: StoredDepartment, filters: UserFilters): ScopeView {
  return {
    key: { department: department.id },
    cells: department.cells,
    logins: filters.lastLogin && filters.lastLogin.kind !== 'never' ? new Map(Object.entries(department.logins)) : undefined,
  };
}

async function membershipView(membership: Membership, counters: Record<string, number>, filters: UserFilters): Promise<ScopeView> {
  const key: ScopeKey = { membership };
  const cells = Object.fromEntries(ALL_CELLS.map((cell) => [cellCode(cell), counters[`${scopePrefix(key)}#${cellCode(cell)}`] ?? 0]));
  const range = filters.lastLogin;
  const [logins, prefixCounts] = await Promise.all([
    range && range.kind !== 'never'
      ? loginsByDay(
          membership,
          range.kind === 'since' ? range.time.slice(0, 7) : '0000-01',
          range.kind === 'since' ? '9999-12' : range.time.slice(0, 7),
        )
      : undefined,
    filters.lastNamePrefixes
      ? Promise.all(filters.lastNamePrefixes.map(async (prefix) => [prefix, await countNames(membership, prefix)] as const)).then(
          (e) => new Map(e),
        )
      : undefined,
  ]);
  return { key, cells, logins, prefixCounts };
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
