/**
 * A group's users page by page (GET /v2/groups/{group_id}/users), and the
 * bound on the users a group answer carries (G1, G3, the group PATCH): the
 * first 1,000 in G1's order, with the cursor of this list after them.
 *
 * Two ways to read, by what the member partition holds. A membership is
 * keyed by user id and nothing else (a user's last-name change never
 * rewrites its memberships), so:
 * - `sort=id` (either direction, no filter) reads the page straight from the
 *   member partition, then the page's users: a page costs its own items, at
 *   any depth;
 * - `sort=last_name` (the default, G1's order) and any filter read every
 *   member and sort and filter them here: a page costs the group (at most
 *   10,000 users), whatever its position. The OpenAPI document says so.
 * Other orders of E1 (role, activation, last login) are refused.
 *
 * To make `last_name` cost a page too, the group side of a membership would
 * carry the member's name key on the byName index (`gsi1pk` the member
 * partition, `gsi1sk` nameSortKey), written by every membership put with a
 * condition on the user's last name, and a rename would rewrite the user's
 * memberships after its commit, each in a transaction conditioned on the name
 * it writes (so the last rename wins), with read-repair for a rename that died
 * half-way. Not built yet: its cost is every membership path and every rename.
 */
import { filtersIdentity, type UserFilters } from '../lists/users';
import { decodeCursor, encodeCursor } from '../lists/cursor';
import type { SortOrder } from '../lists/order';
import type { GroupUserSortField } from '../schemas/enums';
import { validationError } from '../problems';
import { memberIdsPage } from '../store/memberships';
import { compareCodePoints, compareText, foldCase } from '../text';
import type { User } from '../users/user';
import { getGroup, membersOf, readUsers, type Group, type GroupWithUsers } from './groups';

/** A group answer carries at most this many users; the rest are read from the list of its users. */
export const ANSWERED_GROUP_USERS = 1000;

export interface GroupUserListRequest {
  count: number;
  offset: number;
  cursor?: string;
  sort: SortOrder<GroupUserSortField>;
  filters: UserFilters;
}

export interface GroupUserPage {
  users: User[];
  total: number;
  count: number;
  offset: number;
  next_cursor: string | null;
}

const DEFAULT_REQUEST: Omit<GroupUserListRequest, 'count' | 'offset'> = { sort: { field: 'last_name', direction: 'asc' }, filters: {} };

const isUnfiltered = (filters: UserFilters) =>
  !filters.roles && !filters.lastNamePrefixes && !filters.departmentIds && filters.activated === undefined && !filters.lastLogin;

/** What a cursor is bound to: the group, the sort and the filters, normalised. */
function listIdentity(groupId: string, { sort, filters }: Pick<GroupUserListRequest, 'sort' | 'filters'>): string {
  return JSON.stringify(['group-users', groupId, sort.field, sort.direction, ...filtersIdentity(filters)]);
}

/** The users of a group, a page at a time; 404 for an unknown group. */
export async function listGroupUsers(groupId: string, request: GroupUserListRequest): Promise<GroupUserPage> {
  if (request.sort.field === 'id' && !isUnfiltered(request.filters)) {
    throw validationError(
      [{ field: 'query', message: 'filters are served with sort=last_name only: in id order they would read past the page' }],
      'This combination of parameters is not served.',
    );
  }
  const list = listIdentity(groupId, request);
  const state = request.cursor === undefined ? undefined : decodeCursor(list, request.cursor);
  const offset = state?.offset ?? request.offset;
  const group = await getGroup(groupId);
  if (request.sort.field === 'id') {
    const descending = request.sort.direction === 'desc';
    // An offset reads the member keys it skips (small items); a cursor starts after its id.
    const ids = await memberIdsPage(group, { after: state?.after.id, descending, limit: (state ? 0 : request.offset) + request.count + 1 });
    const pageIds = ids.slice(state ? 0 : request.offset, (state ? 0 : request.offset) + request.count);
    const found = await readUsers(pageIds);
    const users = pageIds.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
    const more = ids.length > (state ? 0 : request.offset) + request.count;
    const last = pageIds.at(-1);
    const next_cursor =
      more && last !== undefined ? encodeCursor(list, { after: { field: last, id: last }, offset: offset + pageIds.length }) : null;
    return { users, total: group.user_count, count: users.length, offset, next_cursor };
  }
  const matching = (await membersOf(group)).filter((user) => matches(user, request.filters));
  if (request.sort.direction === 'desc') matching.reverse();
  const start = state ? matching.findIndex((user) => isAfter(user, state.after, request.sort.direction)) : request.offset;
  const from = start < 0 ? matching.length : start;
  const users = matching.slice(from, from + request.count);
  const next_cursor = from + users.length < matching.length ? cursorAfter(list, users.at(-1)!, offset + users.length) : null;
  return { users, total: matching.length, count: users.length, offset, next_cursor };
}

/** In G1's order (last name case-insensitively, then id), whether `user` comes after the position, in `direction`. */
function isAfter(user: User, after: { field: string; id: string }, direction: 'asc' | 'desc'): boolean {
  const order = compareText(user.last_name, after.field) || compareCodePoints(user.id, after.id);
  return direction === 'asc' ? order > 0 : order < 0;
}

const cursorAfter = (list: string, user: User, offset: number) =>
  encodeCursor(list, { after: { field: user.last_name, id: user.id }, offset });

/** E1's filters, on users already read. */
function matches(user: User, filters: UserFilters): boolean {
  if (filters.roles && !filters.roles.includes(user.account_role)) return false;
  if (filters.activated !== undefined && user.activated !== filters.activated) return false;
  if (filters.departmentIds && (user.department_id === null || !filters.departmentIds.includes(user.department_id))) return false;
  if (filters.lastNamePrefixes && !filters.lastNamePrefixes.some((prefix) => foldCase(user.last_name).startsWith(prefix))) return false;
  const login = filters.lastLogin;
  if (login?.kind === 'never' && user.last_login !== null) return false;
  if (login?.kind === 'since' && (user.last_login === null || user.last_login < login.time)) return false;
  if (login?.kind === 'before' && (user.last_login === null || user.last_login >= login.time)) return false;
  return true;
}

/**
 * A group answer: the group with its first 1,000 users of `sortedUsers` (G1's
 * order) and `users_next_cursor`, the cursor of the default list of its
 * users after the last one answered (null when all are there).
 */
export function withUsers(group: Group, sortedUsers: User[]): GroupWithUsers {
  const { id, name, description, external_id, user_count, rule, rule_status, bulk_status, created_at, updated_at } = group;
  const users = sortedUsers.slice(0, ANSWERED_GROUP_USERS);
  const users_next_cursor =
    sortedUsers.length > users.length ? cursorAfter(listIdentity(id, DEFAULT_REQUEST), users.at(-1)!, users.length) : null;
  return {
    id,
    name,
    description,
    external_id,
    user_count,
    rule,
    rule_status,
    bulk_status,
    users,
    users_next_cursor,
    created_at,
    updated_at,
  };
}
