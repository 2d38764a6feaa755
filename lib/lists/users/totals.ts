/**
 * The `total` of a user list, from counters wherever they know it:
 *
 * | filters                                      | total from                                            |
 * |----------------------------------------------|-------------------------------------------------------|
 * | role, activated, never (any mix), department | cell counters: exact, no item read                    |
 * | a `since`/`before` range alone               | login counters by day (a department: by month), plus the part of the boundary day (month) the counters cannot split, counted from the index |
 * | `last_name` prefixes alone, service-wide     | last-name counters: one per different name with the prefix |
 * | anything else (a range or a prefix with another filter, a prefix in a department) | counted from the index: the matching items' keys |
 *
 * The last row reads what it counts: it is the exception to "a total is
 * never counted by reading", which it cannot meet at bounded cost (counters for every
 * combination of a range or a prefix with the cells would be written by
 * every change), and docs/performance.md gives its measured cost.
 */
import { allOf, countMatches, type IndexQuery } from '../../db/query';
import { cellCode, userFilters, userLists, type ScopeKey } from '../../store/users';
import { outermostPrefixes, prefixBounds } from '../prefixes';
import { loginBounds, loginFilter } from './plan';
import { matchingCells, usersIn, type LoginFilter, type ScopeView, type UserFilters } from './scopes';

const DAY_MS = 86_400_000;

/** The boundary period of a range and the key range of its part inside the list. */
function boundary(
  filter: LoginFilter & { time: string },
  byDay: boolean,
): { period: string; start: string; bounds: { from: string; to: string } } {
  const at = new Date(filter.time);
  const start = byDay
    ? new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()))
    : new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = byDay ? new Date(start.getTime() + DAY_MS) : new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  const period = byDay ? filter.time.slice(0, 10) : filter.time.slice(0, 7);
  // Login keys are `<time><SEP><id>`: keys from a time up to (not including) another.
  const inside = filter.kind === 'since' ? { from: filter.time, to: end.toISOString() } : { from: start.toISOString(), to: filter.time };
  return { period, start: start.toISOString(), bounds: inside };
}

async function rangeTotal(view: ScopeView, filter: LoginFilter & { time: string }): Promise<number> {
  const byDay = !('department' in view.key);
  const { period, start, bounds } = boundary(filter, byDay);
  // A range from the very start of its period (`since:2026-05-01`) holds that whole period or none of it: the
  // counters know it, and no item is read.
  const aligned = filter.time === start;
  let total = 0;
  for (const [p, n] of view.logins ?? []) {
    const inside = filter.kind === 'since' ? p > period || (aligned && p === period) : p < period;
    if (inside) total += n;
  }
  if (!aligned && bounds.from < bounds.to) {
    total += await countMatches(userLists.all(view.key, 'time').map((query) => ({ ...query, sortKeyBetween: bounds })));
  }
  return total;
}

/** The matching items of one scope, counted from the narrowest index (the exception of the table above). */
function countingQueries(key: ScopeKey, view: ScopeView, filters: UserFilters, cellsRestricted: boolean): IndexQuery[] {
  // The matching cells when the equality filters select some, else the whole scope: one partition.
  const cells = matchingCells(filters).filter((cell) => (view.cells[cellCode(cell)] ?? 0) > 0);
  const partitions = (order: 'name' | 'time') =>
    cellsRestricted ? cells.map((cell) => userLists.cell(key, cell, order)) : userLists.all(key, order);
  const range = filters.lastLogin;
  if (range && range.kind !== 'never') {
    const prefix = filters.lastNamePrefixes ? userFilters.lastNamePrefixes(filters.lastNamePrefixes) : undefined;
    return partitions('time').map((partition) => ({
      ...partition,
      sortKeyBetween: loginBounds(range),
      filter: allOf([partition.filter, prefix]),
    }));
  }
  const prefixes = filters.lastNamePrefixes ? outermostPrefixes(filters.lastNamePrefixes) : [undefined];
  const residual = range ? loginFilter(range) : undefined;
  return partitions('name').flatMap((partition) =>
    prefixes.map((p) => ({
      ...partition,
      sortKeyBetween: p === undefined ? undefined : prefixBounds(p),
      filter: allOf([partition.filter, residual]),
    })),
  );
}

async function scopeTotal(view: ScopeView, filters: UserFilters): Promise<number> {
  const cells = matchingCells(filters);
  const range = filters.lastLogin && filters.lastLogin.kind !== 'never' ? filters.lastLogin : undefined;
  const prefixes = filters.lastNamePrefixes;
  const cellsRestricted = filters.roles !== undefined || filters.activated !== undefined || filters.lastLogin?.kind === 'never';
  if (!range && !prefixes) return usersIn(view, cells);
  if (range && !prefixes && !cellsRestricted) return rangeTotal(view, range);
  if (prefixes && !range && !cellsRestricted && view.prefixCounts) {
    return outermostPrefixes(prefixes).reduce((n, p) => n + (view.prefixCounts!.get(p) ?? 0), 0);
  }
  return countMatches(countingQueries(view.key, view, filters, cellsRestricted));
}

export async function totalOf(views: ScopeView[], filters: UserFilters): Promise<number> {
  const totals = await Promise.all(views.map((view) => scopeTotal(view, filters)));
  return totals.reduce((a, b) => a + b, 0);
}
