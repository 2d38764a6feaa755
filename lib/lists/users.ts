/**
 * User lists (GET /v2/users, E1, and one department's users) with the E1
 * parameters of API.md. The plan picks the narrowest index partitions
 * (lib/store/users.ts):
 *
 * | request                        | partitions read                      | total from                    |
 * |--------------------------------|--------------------------------------|-------------------------------|
 * | department(s)                  | the department's members             | department counters           |
 * | account_role filter            | role × membership                    | service counters              |
 * | otherwise                      | membership (IN[, OUT])               | service counters              |
 *
 * Other filters become filter expressions (read, then dropped), and a single
 * last_name prefix on the default sort becomes a key condition. Sorting by
 * last_name reads only offset+count items per partition; the other sort
 * fields have no index and read every matching item, then sort in memory.
 * Totals come from counters whenever the filters are ones the counters know;
 * otherwise the matching items are counted.
 *
 * Read cost of a page of 100 in an account of 100,000 users (all members),
 * with user index entries of ~0.45 KB: a Query costs 0.5 RCU per 4 KB read,
 * so 100 entries are ~5.5 RCU; the counters are one 0.5 RCU Query and a
 * department one 1 RCU GetItem. `o` is the offset: name-sorted pages read
 * `o + 100` entries per partition, so deep pages cost more.
 *
 * | parameters                                   | RCU at offset 0 | grows with                     |
 * |----------------------------------------------|-----------------|--------------------------------|
 * | default sort (last_name asc/desc)            | ~6              | o: +0.055 per entry skipped    |
 * | + department_id (or the per-department list) | ~6.5            | o                              |
 * | + account_role                               | ~6              | o                              |
 * | + one last_name prefix                       | ~6 + matches×0.0055 (count) | o, matches         |
 * | GET /v2/users (IN and OUT merged)            | ~6 (+0.5 when a partition reads on) | o, on both partitions |
 * | activated / last_login / several prefixes    | reads until 100 match, then counts the scope: ~5,500 | the scope size |
 * | sort by account_role / activated / last_login| reads the whole scope: ~5,500   | the scope size         |
 *
 * The common cases (default sort, department, role) are at the floor: one
 * page of index entries plus one counter read. A merge of partitions reads
 * the counters first and each partition in proportion to its share of them
 * (db/query.ts firstReads): one more round trip, ~40% fewer RCU.
 */
import { allOf, countMatches, orderedPage, readAll, type Filter, type IndexQuery } from '../db/query';
import type { Item } from '../db/table';
import { departmentNotFound } from '../departments/errors';
import { ACCOUNT_ROLES, type AccountRole, type UserSortField } from '../schemas/enums';
import { findDepartment, type StoredDepartment } from '../store/departments';
import { readCounters, userCounter } from '../store/stats';
import { toUser, userFilters, userLists, type Membership, type User } from '../store/users';
import { compareCodePoints, compareText } from '../text';
import type { SortOrder } from './order';

/** Whose users: everybody, members of any department (E1), or one department. */
export type UserScope = { kind: 'all' } | { kind: 'in-department' } | { kind: 'department'; departmentId: string };

export type LoginFilter = { kind: 'never' } | { kind: 'since' | 'before'; time: string };

export interface UserFilters {
  roles?: AccountRole[];
  /** Case-folded. */
  lastNamePrefixes?: string[];
  departmentIds?: string[];
  activated?: boolean;
  lastLogin?: LoginFilter;
}

export interface UserListRequest {
  count: number;
  offset: number;
  sort: SortOrder<UserSortField>;
  filters: UserFilters;
}

export interface UserPage {
  users: User[];
  total: number;
  count: number;
  offset: number;
}

function loginFilter(filter: LoginFilter): Filter {
  if (filter.kind === 'never') return userFilters.neverLoggedIn();
  return filter.kind === 'since' ? userFilters.loggedInSince(filter.time) : userFilters.loggedInBefore(filter.time);
}

interface Plan {
  queries: IndexQuery[];
  /** Departments read, when the plan is per department (their counters give totals). */
  departments?: StoredDepartment[];
}

async function planQueries(scope: UserScope, filters: UserFilters, sort: SortOrder<UserSortField>): Promise<Plan | 'empty'> {
  const singlePrefix = sort.field === 'last_name' && filters.lastNamePrefixes?.length === 1 ? filters.lastNamePrefixes[0] : undefined;
  let departmentIds = filters.departmentIds;
  const known = new Map<string, StoredDepartment>();
  if (scope.kind === 'department') {
    // One read serves both the 404 and the counters that give the total.
    const department = await findDepartment(scope.departmentId);
    if (!department) throw departmentNotFound(scope.departmentId);
    known.set(scope.departmentId, department);
    departmentIds = departmentIds ? departmentIds.filter((id) => id === scope.departmentId) : [scope.departmentId];
  }
  const memberships: Membership[] = scope.kind === 'all' ? ['IN', 'OUT'] : ['IN'];
  const residual: Filter[] = [];
  if (filters.lastNamePrefixes && !singlePrefix) residual.push(userFilters.lastNamePrefixes(filters.lastNamePrefixes));
  if (filters.activated !== undefined) residual.push(userFilters.activated(filters.activated));
  if (filters.lastLogin) residual.push(loginFilter(filters.lastLogin));

  if (departmentIds) {
    if (departmentIds.length === 0) return 'empty';
    const departments = (await Promise.all(departmentIds.map((id) => known.get(id) ?? findDepartment(id)))).filter(
      (d): d is StoredDepartment => d !== undefined,
    );
    if (filters.roles) residual.push(userFilters.roles(filters.roles));
    const filter = allOf(residual);
    const queries = departments.map((d) => ({ ...userLists.inDepartment(d.id), sortKeyPrefix: singlePrefix, filter }));
    return { queries, departments };
  }
  const filter = allOf(residual);
  if (filters.roles) {
    const queries = filters.roles.flatMap((role) =>
      memberships.map((m) => ({ ...userLists.withRole(role, m), sortKeyPrefix: singlePrefix, filter })),
    );
    return { queries };
  }
  return { queries: memberships.map((m) => ({ ...userLists.byName(m), sortKeyPrefix: singlePrefix, filter })) };
}

/** How many users each query of the plan matches, from counters, when the filters are ones the counters know. */
async function countedPerQuery(scope: UserScope, filters: UserFilters, plan: Plan): Promise<number[] | undefined> {
  if (filters.lastNamePrefixes || filters.lastLogin) return undefined;
  if (plan.departments) {
    // One query per department, in the same order.
    if (filters.activated === true && !filters.roles) return plan.departments.map((d) => d.usage.activated_users);
    if (filters.activated !== undefined) return undefined;
    const roles: readonly AccountRole[] = filters.roles ?? ACCOUNT_ROLES;
    return plan.departments.map(({ usage: u }) => {
      const byRole = { admin: u.admins, manager: u.managers, guest: u.guests, member: u.users - u.admins - u.managers - u.guests };
      return roles.reduce((n, role) => n + byRole[role], 0);
    });
  }
  if (filters.activated !== undefined) return undefined;
  const counters = await readCounters();
  const count = (roles: readonly AccountRole[], membership: Membership) =>
    roles.reduce((n, role) => n + (counters[userCounter(role, membership)] ?? 0), 0);
  const memberships: Membership[] = scope.kind === 'all' ? ['IN', 'OUT'] : ['IN'];
  // The same order as planQueries: per role, then per membership; or per membership.
  if (filters.roles) return filters.roles.flatMap((role) => memberships.map((m) => count([role], m)));
  return memberships.map((m) => count(ACCOUNT_ROLES, m));
}

const FIELD_COMPARATORS: Record<Exclude<UserSortField, 'last_name'>, (a: User, b: User) => number> = {
  account_role: (a, b) => compareText(a.account_role, b.account_role),
  activated: (a, b) => Number(a.activated) - Number(b.activated),
  // A null last_login counts as older than any time.
  last_login: (a, b) =>
    a.last_login === b.last_login
      ? 0
      : a.last_login === null
        ? -1
        : b.last_login === null
          ? 1
          : compareCodePoints(a.last_login, b.last_login),
};

function compareUsers(sort: SortOrder<UserSortField>) {
  const sign = sort.direction === 'desc' ? -1 : 1;
  const byField = sort.field === 'last_name' ? (a: User, b: User) => compareText(a.last_name, b.last_name) : FIELD_COMPARATORS[sort.field];
  return (a: User, b: User) => sign * byField(a, b) || compareCodePoints(a.id, b.id);
}

export async function listUsers(scope: UserScope, request: UserListRequest): Promise<UserPage> {
  const { sort, filters, offset, count } = request;
  const plan = await planQueries(scope, filters, sort);
  if (plan === 'empty' || plan.queries.length === 0) return { users: [], total: 0, count: 0, offset };

  if (sort.field !== 'last_name') {
    const all = (await readAll(plan.queries)).map(toUser).sort(compareUsers(sort));
    const users = all.slice(offset, offset + count);
    return { users, total: all.length, count: users.length, offset };
  }
  const page = (expectedCounts?: number[]) =>
    orderedPage({
      queries: plan.queries,
      offset,
      count,
      descending: sort.direction === 'desc',
      sortGroup: userLists.foldedName,
      expectedCounts,
    });
  let items: Item[];
  let counts: number[] | undefined;
  if (plan.queries.length > 1) {
    // A merge reads each partition in proportion to its share when the counters are read first (~40% fewer RCU
    // for GET /v2/users: about 6 instead of 10, for one more round trip of 0.5 RCU that the total needs anyway).
    counts = await countedPerQuery(scope, filters, plan);
    items = await page(counts);
  } else {
    [items, counts] = await Promise.all([page(), countedPerQuery(scope, filters, plan)]);
  }
  const total = counts ? counts.reduce((sum, n) => sum + n, 0) : await countMatches(plan.queries);
  const users = items.map(toUser);
  return { users, total, count: users.length, offset };
}
