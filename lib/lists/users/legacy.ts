/**
 * The user lists of a table the backfill has not finished yet (a table
 * written by the version before the list indexes: lib/lists/migration.ts).
 * They read only what every version keeps up to date — the users by
 * membership, by name (byName USERS#IN|OUT) — filter and sort the matching
 * users in memory and count them: correct, and as slow as the scope is
 * large, for the minutes the backfill takes.
 */
import { allOf, oneOf, readAll } from '../../db/query';
import { departmentNotFound } from '../../departments/errors';
import { findDepartment } from '../../store/departments';
import { membershipOf, toStoredUser, userFilters, userLists, type Membership, type StoredUser, type User } from '../../store/users';
import type { Item } from '../../db/table';
import { compareCodePoints, compareText } from '../../text';
import { loginFilter } from './plan';
import type { UserFilters, UserScope } from './scopes';
import type { Position } from '../streams';
import type { UserSortField } from '../../schemas/enums';
import type { SortOrder } from '../order';

/** The field a user is sorted by, as a string that compares like the field (a null login is the oldest). */
export function sortField(user: User, field: UserSortField): string {
  if (field === 'last_name') return user.last_name.toLowerCase();
  if (field === 'last_login') return user.last_login ?? '';
  if (field === 'activated') return String(user.activated);
  return user.account_role;
}

/**
 * The matching users in list order, each with its position: its sort field and id, or — members first (SCIM's
 * order, lib/lists/users/index.ts) — its membership and name key, as the indexed list places it, so that a
 * cursor goes on across the end of the backfill.
 */
export async function legacyUsers(
  scope: UserScope,
  filters: UserFilters,
  sort: SortOrder<UserSortField>,
  membershipFirst = false,
): Promise<Array<{ user: StoredUser; position: Position }>> {
  if (scope.kind === 'department' && !(await findDepartment(scope.departmentId))) throw departmentNotFound(scope.departmentId);
  const memberships: Membership[] = scope.kind === 'all' && !filters.departmentIds ? ['IN', 'OUT'] : ['IN'];
  const departments =
    scope.kind === 'department'
      ? [scope.departmentId].filter((id) => !filters.departmentIds || filters.departmentIds.includes(id))
      : filters.departmentIds;
  if (departments?.length === 0) return [];
  const filter = allOf([
    departments ? oneOf('department_id', departments, 'dept') : undefined,
    filters.roles ? userFilters.roles(filters.roles) : undefined,
    filters.activated === undefined ? undefined : userFilters.activated(filters.activated),
    filters.lastLogin ? loginFilter(filters.lastLogin) : undefined,
    filters.lastNamePrefixes ? userFilters.lastNamePrefixes(filters.lastNamePrefixes) : undefined,
  ]);
  const items = await readAll(
    memberships.flatMap((membership) => userLists.all({ membership }, 'name').map((query) => ({ ...query, filter }))),
  );
  const sign = sort.direction === 'desc' ? -1 : 1;
  const positionOf = (item: Item, user: User): Position =>
    membershipFirst
      ? { field: membershipOf(user.department_id), id: String(item.gsi1sk) }
      : { field: sortField(user, sort.field), id: user.id };
  return items
    .map((item) => {
      const user = toStoredUser(item);
      return { user, position: positionOf(item, user) };
    })
    .sort((a, b) => sign * compareText(a.position.field, b.position.field) || compareCodePoints(a.position.id, b.position.id));
}
