/**
 * User lists — GET /v2/users, E1 and one department's users — with the E1
 * parameters (the OpenAPI document), a page at the cost of its own items whatever the
 * filters, the sort and the number of users:
 *
 * - scopes.ts: the scopes a list reads and their counters;
 * - plan.ts: which index partitions each scope is read from (cells, months,
 *   or whole), chosen from the counters;
 * - cost.ts: the cost model plan.ts compares those ways by;
 * - totals.ts: `total` from counters, and the combinations they cannot know;
 * - ../streams.ts: the page in order, after a cursor or an offset;
 * - skip.ts: an offset by name placed by the last-name counters.
 */
import type { NameScope } from '../../store/name-counts';
import type { Item } from '../../db/table';
import { toStoredUser, userLists, userSortKeys, type Membership, type ScopeKey, type StoredUser, type User } from '../../store/users';
import { userRepresentation } from '../../users/user';
import type { UserSortField } from '../../schemas/enums';
import { compareCodePoints } from '../../text';
import { decodeCursor, encodeCursor } from '../cursor';
import type { SortOrder } from '../order';
import { readPage, type Position, type Source } from '../streams';
import { planSources } from './plan';
import { matchablePrefixes } from '../prefixes';
import { scopesOf, type ScopeView, type UserFilters, type UserScope } from './scopes';
import { skipByNames } from './skip';
import { totalOf } from './totals';

export type { LoginFilter, UserFilters, UserScope } from './scopes';

export interface UserListRequest {
  count: number;
  offset: number;
  /** A `next_cursor` of the same list (offset then is where it stands). */
  cursor?: string;
  sort: SortOrder<UserSortField>;
  filters: UserFilters;
  /**
   * Everyone unfiltered by name, ascending, members of a department first, then the others (SCIM, whose lists
   * have no order of their own): each page reads one partition (two where the members end), where a merge of
   * both memberships by name reads ahead in both. Ignored for any other list.
   */
  membershipFirst?: boolean;
}

export interface UserPage {
  users: User[];
  total: number;
  count: number;
  offset: number;
  next_cursor: string | null;
}

/** What a cursor is bound to: the scope, the sort and the filters, normalised. */
/** The filters as a cursor is bound to them: the same filters in any order give the same identity. */
export function filtersIdentity(filters: UserFilters): unknown[] {
  const sorted = (values?: string[]) => values && [...values].sort(compareCodePoints);
  return [
    sorted(filters.roles),
    sorted(filters.lastNamePrefixes),
    sorted(filters.departmentIds),
    filters.activated ?? null,
    filters.lastLogin ?? null,
  ];
}

function listIdentity(scope: UserScope, request: UserListRequest): string {
  const { sort, filters } = request;
  return JSON.stringify([
    'users',
    scope.kind === 'department' ? `department:${scope.departmentId}` : scope.kind,
    sort.field,
    sort.direction,
    ...filtersIdentity(filters),
    membershipFirst(scope, request),
  ]);
}

export async function listUsers(scope: UserScope, request: UserListRequest): Promise<UserPage> {
  const page = await listStoredUsers(scope, request);
  return { ...page, users: page.users.map(userRepresentation) };
}

/** The same page, each user with its version (SCIM answers it as `meta.version`). */
export async function listStoredUsers(
  scope: UserScope,
  request: UserListRequest,
): Promise<Omit<UserPage, 'users'> & { users: StoredUser[] }> {
  const list = listIdentity(scope, request);
  const state = request.cursor === undefined ? undefined : decodeCursor(list, request.cursor);
  const offset = state?.offset ?? request.offset;
  const skip = state ? 0 : request.offset;
  const prefixes = request.filters.lastNamePrefixes && matchablePrefixes(request.filters.lastNamePrefixes);
  if (prefixes?.length === 0) {
    // Prefixes longer than any last name: nothing to read (but a department list still answers 404 for an unknown one).
    if (scope.kind === 'department') await scopesOf(scope, {});
    return { users: [], total: 0, count: 0, offset, next_cursor: null };
  }
  const page = await indexedPage(scope, { ...request, filters: { ...request.filters, lastNamePrefixes: prefixes } }, skip, state?.after);
  const users = page.items;
  const next_cursor = page.next ? encodeCursor(list, { after: page.next, offset: offset + users.length }) : null;
  return { users, total: page.total, count: users.length, offset, next_cursor };
}

interface Found {
  items: StoredUser[];
  total: number;
  next?: Position;
}

async function indexedPage(scope: UserScope, request: UserListRequest, skip: number, after: Position | undefined): Promise<Found> {
  if (membershipFirst(scope, request)) return membershipFirstPage(request, skip, after);
  if (skip > 0 && request.sort.field === 'last_name' && unfiltered(request.filters)) {
    // The last-name counters place the offset: the page starts at the name that holds it.
    const start = await skipByNames(nameScopesOf(scope), skip, request.sort.direction);
    if (!start) return { items: [], total: await totalOf(await scopesOf(scope, request.filters), request.filters) };
    ({ after, skip } = start);
  }
  const direct = wholeScope(scope, request);
  if (direct) {
    // Nothing for the counters to choose: the page and the counters (for the total, and a department's 404) in parallel.
    const [views, page] = await Promise.all([
      scopesOf(scope, request.filters),
      readPage({ sources: [direct.source], direction: request.sort.direction, sortKey: direct.sortKey, after, skip, take: request.count }),
    ]);
    return { items: page.items.map(toStoredUser), total: await totalOf(views, request.filters), next: page.next };
  }
  const views = await scopesOf(scope, request.filters);
  const plan = planSources(views, request.filters, request.sort.field, skip + request.count + 1);
  const [page, total] = await Promise.all([
    readPage({ sources: plan.sources, direction: request.sort.direction, sortKey: plan.sortKey, after, skip, take: request.count }),
    totalOf(views, request.filters),
  ]);
  return { items: page.items.map(toStoredUser), total, next: page.next };
}

const membershipFirst = (scope: UserScope, { membershipFirst, filters, sort }: UserListRequest) =>
  membershipFirst === true && scope.kind === 'all' && unfiltered(filters) && sort.field === 'last_name' && sort.direction === 'asc';

/** The memberships in the order of `membershipFirst`, each a segment of its users by name. */
const MEMBERSHIPS = ['IN', 'OUT'] as const satisfies Membership[];

async function membershipFirstPage(request: UserListRequest, skip: number, after: Position | undefined): Promise<Found> {
  const total = async (views?: ScopeView[]) => totalOf(views ?? (await scopesOf({ kind: 'all' }, request.filters)), request.filters);
  let views: ScopeView[] | undefined;
  if (skip > 0) {
    // The counters say which membership the offset falls in; its last-name counters, where in it.
    views = await scopesOf({ kind: 'all' }, request.filters);
    const members = views[0].wholeUsers[0];
    const membership = skip < members ? 'IN' : 'OUT';
    const within = membership === 'IN' ? skip : skip - members;
    const start = within > 0 ? await skipByNames([{ membership }], within, 'asc') : { after: { field: '', id: '' }, skip: 0 };
    if (!start) return { items: [], total: await total(views) };
    // After "nothing" of the name: every key of that name (`<name><SEP><id>`) is above the name alone.
    after = { field: membership, id: start.after.field };
    skip = start.skip;
  }
  const sources: Source[] = userLists
    .all({ everyone: true }, 'name')
    .map((query, i) => ({ query, segment: MEMBERSHIPS[i], expected: 1, selectivity: 1 }));
  const [page, all] = await Promise.all([
    readPage({ sources, direction: 'asc', sortKey: userSortKeys.name, after, skip, take: request.count }),
    total(views),
  ]);
  return { items: page.items.map(toStoredUser), total: all, next: page.next };
}

const unfiltered = (filters: UserFilters) =>
  !filters.roles && !filters.lastNamePrefixes && !filters.departmentIds && filters.activated === undefined && !filters.lastLogin;

/** Whose last-name counters count a scope's users. */
const nameScopesOf = (scope: UserScope): NameScope[] =>
  scope.kind === 'department'
    ? [{ department: scope.departmentId }]
    : scope.kind === 'all'
      ? [{ membership: 'IN' }, { membership: 'OUT' }]
      : [{ membership: 'IN' }];

/** An unfiltered list of one scope in name or login order reads the scope whole, whatever the counters say. */
function wholeScope(scope: UserScope, request: UserListRequest): { source: Source; sortKey: (item: Item) => string } | undefined {
  const { filters, sort } = request;
  if (!unfiltered(filters) || scope.kind === 'all' || (sort.field !== 'last_name' && sort.field !== 'last_login')) return undefined;
  const key: ScopeKey = scope.kind === 'department' ? { department: scope.departmentId } : { membership: 'IN' };
  const order = sort.field === 'last_name' ? 'name' : 'time';
  return {
    source: { query: userLists.all(key, order)[0], expected: 1, selectivity: 1 },
    sortKey: order === 'name' ? userSortKeys.name : userSortKeys.time,
  };
}
