/**
 * Which index partitions a user list reads, chosen per scope from the
 * counters so that a page costs about what its own items cost.
 *
 * Sorted by name or by last login, a scope can be read three ways:
 * - whole (byName/byTime), the equality filters as a residual filter: one
 *   Query, fine when most of the scope matches;
 * - by cell (cellByName/cellByTime): one Query per matching cell (role ×
 *   activated × logged in) with users, each reading its share of the page;
 * - by login month (monthByName), for a `since`/`before` range sorted by
 *   name: one Query per month in range with users; `never` is one more
 *   such partition;
 * - deactivated users (inactiveByName), for `activated=false` sorted by
 *   name: one Query, whichever cells they are in.
 * A `last_name` prefix (sorted by name) or a login range (sorted by login)
 * is a key range; anything else the partition does not select is a
 * residual filter. Each way is priced by the cost model of cost.ts (its
 * Queries and the items it reads, from the counters' shares); the cheapest
 * wins. Sorted by role or by activation, the list is the cells by id, one
 * segment per value (lib/lists/streams.ts). Nothing here reads: the
 * counters come in (scopes.ts), the sources go out (index.ts reads them).
 */
import { allOf, type Filter } from '../../db/query';
import type { Item } from '../../db/table';
import type { UserSortField } from '../../schemas/enums';
import { cellCode, userFilters, userLists, userSortKeys, type CellOf, type ScopeKey } from '../../store/users';
import { KEY_SEPARATOR } from '../../text';
import { MAX_KEY_CHAR, type Source } from '../streams';
import { outermostPrefixes, prefixBounds } from '../prefixes';
import { cheapestWay } from './cost';
import { matchingCells, usersIn, type LoginFilter, type ScopeView, type UserFilters } from './scopes';

/**
 * Assumed share of a scope each last-name prefix matches where no counter says. Every scope has last-name
 * counters since departments got theirs, so this is a fallback for a view without them; chosen (a tenth per
 * prefix), never measured.
 */
const UNKNOWN_PREFIX_SHARE = 0.1;
/**
 * Of the users of the login period a `since`/`before` time falls in, the share assumed on either side of it:
 * logins spread evenly over the period (a day for a membership, a month for a department or a month partition).
 * Chosen, not measured; counting the boundary period's users on each side of the time would replace it.
 */
const BOUNDARY_PERIOD_SHARE = 0.5;

export interface Plan {
  sources: Source[];
  sortKey: (item: Item) => string;
  /** Matching users, as the counters estimate them (exact when `exact`). */
  expected: number;
}

type Bounds = { from?: string; to?: string } | undefined;

/** The login-key range of a `last_login` filter (byTime and cellByTime). */
export function loginBounds(filter: LoginFilter): Bounds {
  if (filter.kind === 'never') return { to: `${KEY_SEPARATOR}${MAX_KEY_CHAR}` };
  // Login times start with a digit: '0' is above every "never" key.
  return filter.kind === 'since' ? { from: filter.time } : { from: '0', to: filter.time };
}

export function loginFilter(filter: LoginFilter): Filter {
  if (filter.kind === 'never') return userFilters.neverLoggedIn();
  return filter.kind === 'since' ? userFilters.loggedInSince(filter.time) : userFilters.loggedInBefore(filter.time);
}

/** What each equality dimension leaves to a residual filter when the partition does not fix it. */
function cellFilter(filters: UserFilters): Filter | undefined {
  return allOf([
    filters.roles ? userFilters.roles(filters.roles) : undefined,
    filters.activated === undefined ? undefined : userFilters.activated(filters.activated),
  ]);
}

/** The first instant of the month of an ISO time. */
const monthStart = (time: string) => `${time.slice(0, 7)}-01T00:00:00.000Z`;

const sumWhere = (cells: Record<string, number>, wanted: (code: string) => boolean) =>
  Object.entries(cells).reduce((n, [code, count]) => n + (wanted(code) ? count : 0), 0);

/** Of the users in a cell's partition, the share that is the scope's (the rest: the other membership's). */
const cellShare = (view: ScopeView, code: string) =>
  view.sharedCells ? (view.cells[code] ?? 0) / Math.max(view.sharedCells[code] ?? 0, 1) : 1;

/** The share of a scope's logged-in users a login range holds, from its login counters. */
function rangeShare(view: ScopeView, filter: LoginFilter, loggedIn: number): number {
  if (filter.kind === 'never' || !view.logins || loggedIn === 0) return 1;
  const byDay = !('department' in view.key);
  const at = byDay ? filter.time.slice(0, 10) : filter.time.slice(0, 7);
  let inRange = 0;
  for (const [period, n] of view.logins) {
    const inside = filter.kind === 'since' ? period > at : period < at;
    if (inside) inRange += n;
    else if (period === at) inRange += n * BOUNDARY_PERIOD_SHARE;
  }
  return Math.min(1, inRange / loggedIn);
}

/** Users per login month of a scope in a range (months from days for a membership). */
function monthsInRange(view: ScopeView, filter: LoginFilter & { time: string }): Map<string, number> {
  const months = new Map<string, number>();
  const boundary = filter.time.slice(0, 7);
  // `before` the first instant of a month holds none of that month.
  const beforeMonthStart = filter.kind === 'before' && filter.time === monthStart(filter.time);
  for (const [period, n] of view.logins ?? []) {
    const month = period.slice(0, 7);
    const inside = filter.kind === 'since' ? month >= boundary : beforeMonthStart ? month < boundary : month <= boundary;
    if (inside && n > 0) months.set(month, (months.get(month) ?? 0) + n);
  }
  return months;
}

interface ScopeFacts {
  view: ScopeView;
  cells: CellOf[];
  users: number;
  /** Users the equality filters select. */
  selected: number;
  rangeShare: number;
  prefixShare: number;
  /** Matching users, estimated. */
  matching: number;
}

function factsOf(view: ScopeView, filters: UserFilters): ScopeFacts {
  const cells = matchingCells(filters).filter((cell) => (view.cells[cellCode(cell)] ?? 0) > 0);
  const users = Object.values(view.cells).reduce((a, b) => a + b, 0);
  const selected = usersIn(view, cells);
  const loggedIn = Object.entries(view.cells).reduce((n, [code, count]) => n + (code.endsWith('1') ? count : 0), 0);
  const range = filters.lastLogin ? rangeShare(view, filters.lastLogin, loggedIn) : 1;
  let prefix = 1;
  if (filters.lastNamePrefixes) {
    const counted = view.prefixCounts ? [...view.prefixCounts.values()].reduce((a, b) => a + b, 0) / Math.max(users, 1) : undefined;
    prefix = Math.min(1, counted ?? filters.lastNamePrefixes.length * UNKNOWN_PREFIX_SHARE);
  }
  return { view, cells, users, selected, rangeShare: range, prefixShare: prefix, matching: selected * range * prefix };
}

/** The ways to read one scope sorted by name or login, each a set of sources. */
function keyOrderedWays(facts: ScopeFacts, filters: UserFilters, order: 'name' | 'time'): Source[][] {
  const { view, cells, users, selected, matching } = facts;
  const key: ScopeKey = view.key;
  const range = filters.lastLogin;
  const prefixes = filters.lastNamePrefixes;
  // The key range of the sort field, and what the key cannot select.
  const keyBounds: Bounds[] =
    order === 'name' ? (prefixes ? outermostPrefixes(prefixes).map(prefixBounds) : [undefined]) : [range ? loginBounds(range) : undefined];
  const offKey = allOf([
    order === 'name' && range ? loginFilter(range) : undefined,
    order === 'time' && prefixes ? userFilters.lastNamePrefixes(prefixes) : undefined,
  ]);
  const offKeyShare = order === 'name' ? facts.rangeShare : facts.prefixShare;
  const inKeyShare = order === 'name' ? facts.prefixShare : facts.rangeShare;
  const perBound = (n: number) => n / keyBounds.length;

  const wholeParts = userLists.all(key, order);
  const whole: Source[] = wholeParts.flatMap((part, i) =>
    keyBounds.map((bounds) => ({
      query: { ...part, filter: allOf([part.filter, cellFilter(filters), offKey]) },
      bounds,
      expected: perBound(matching * ((view.wholeUsers[i] ?? 0) / Math.max(users, 1))),
      selectivity: (selected / Math.max(users, 1)) * offKeyShare,
    })),
  );
  const byCell: Source[] = cells.flatMap((cell) => {
    const query = userLists.cell(key, cell, order);
    return keyBounds.map((bounds) => ({
      query: { ...query, filter: allOf([query.filter, offKey]) },
      bounds,
      expected: perBound((view.cells[cellCode(cell)] ?? 0) * inKeyShare * offKeyShare),
      selectivity: offKeyShare * cellShare(view, cellCode(cell)),
    }));
  });
  const ways = [whole, byCell];
  if (order === 'name' && range?.kind === 'never') {
    // The never-logged-in users of the scope are one partition of monthByName, by name.
    const never = sumWhere(view.sharedCells ?? view.cells, (code) => code.endsWith('0'));
    const query = userLists.month(key, 'never');
    ways.push(
      keyBounds.map((bounds) => ({
        query: { ...query, filter: allOf([query.filter, cellFilter(filters)]) },
        bounds,
        expected: perBound(matching),
        selectivity: selected / Math.max(never, 1),
      })),
    );
  }
  if (order === 'name' && filters.activated === false) {
    // Every deactivated user of the scope (in shared partitions: of both memberships) in one partition, by name.
    // A cell code is `<role>.<activated><logged in>`.
    const inactive = sumWhere(view.sharedCells ?? view.cells, (code) => code.at(-2) === '0');
    const query = userLists.inactive(key);
    const roles = filters.roles && userFilters.roles(filters.roles);
    ways.push(
      keyBounds.map((bounds) => ({
        query: { ...query, filter: allOf([query.filter, roles, offKey]) },
        bounds,
        expected: perBound(matching),
        selectivity: (selected / Math.max(inactive, 1)) * offKeyShare,
      })),
    );
  }
  if (order === 'name' && range && range.kind !== 'never') {
    const months = monthsInRange(view, range);
    // The boundary month needs the range as a filter, unless the range starts it (`since:2026-05-01`).
    const boundary = range.time === monthStart(range.time) ? undefined : range.time.slice(0, 7);
    // Of a month's users (all logged in), those the equality filters select; in shared partitions, of this scope.
    const loggedIn = sumWhere(view.cells, (code) => code.endsWith('1'));
    const sharedLoggedIn = sumWhere(view.sharedCells ?? view.cells, (code) => code.endsWith('1'));
    const selectedShare = selected / Math.max(loggedIn, 1);
    const scopeShare = loggedIn / Math.max(sharedLoggedIn, 1);
    ways.push(
      [...months].flatMap(([month, n]) => {
        const query = userLists.month(key, month);
        return keyBounds.map((bounds) => ({
          query: { ...query, filter: allOf([query.filter, cellFilter(filters), month === boundary ? loginFilter(range) : undefined]) },
          bounds,
          expected: perBound(n * selectedShare * facts.prefixShare),
          selectivity: selectedShare * scopeShare * (month === boundary ? BOUNDARY_PERIOD_SHARE : 1),
        }));
      }),
    );
  }
  return ways;
}

/** Sorted by role or by activation: each matching cell by id, in the segment of its value. */
function segmentSources(facts: ScopeFacts, filters: UserFilters, field: 'account_role' | 'activated'): Source[] {
  const { view, cells } = facts;
  const residual = allOf([
    filters.lastLogin ? loginFilter(filters.lastLogin) : undefined,
    filters.lastNamePrefixes ? userFilters.lastNamePrefixes(filters.lastNamePrefixes) : undefined,
  ]);
  const share = facts.rangeShare * facts.prefixShare;
  return cells.map((cell) => {
    const query = userLists.cell(view.key, cell, 'id');
    return {
      query: { ...query, filter: allOf([query.filter, residual]) },
      segment: field === 'account_role' ? cell.role : String(cell.activated),
      expected: (view.cells[cellCode(cell)] ?? 0) * share,
      selectivity: share * cellShare(view, cellCode(cell)),
    };
  });
}

/** The sources of a list, `need` items into it. */
export function planSources(views: ScopeView[], filters: UserFilters, sort: UserSortField, need: number): Plan {
  const facts = views.map((view) => factsOf(view, filters)).filter((f) => f.cells.length > 0);
  const expected = facts.reduce((n, f) => n + f.matching, 0);
  if (sort === 'account_role' || sort === 'activated') {
    return { sources: facts.flatMap((f) => segmentSources(f, filters, sort)), sortKey: userSortKeys.id, expected };
  }
  const order = sort === 'last_name' ? 'name' : 'time';
  const sources = facts.flatMap((f) => {
    const scopeNeed = need * (f.matching / Math.max(expected, 1));
    const ways = keyOrderedWays(f, filters, order).filter((way) => way.length > 0);
    return cheapestWay(ways, scopeNeed);
  });
  return { sources, sortKey: order === 'name' ? userSortKeys.name : userSortKeys.time, expected };
}
