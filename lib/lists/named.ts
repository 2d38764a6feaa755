/**
 * Lists of named resources (departments, groups): API.md's paging by offset
 * or cursor, sort by `name` (byName) or `created_at` (byTime), each a key
 * order read page by page (lib/lists/streams.ts), and case-insensitive
 * `name` prefixes (a key range sorted by name, a residual filter otherwise).
 *
 * Two things read more than a page, both bounded by the number of
 * departments or groups, never by users: sort by `user_count` reads them all
 * and sorts in memory (a count moves with every membership change by a blind
 * ADD, which cannot move an index key with it), and a total under a name
 * prefix counts the matching keys (no counter per prefix).
 */
import { countMatches, readAll, type Filter, type IndexQuery } from '../db/query';
import type { Item } from '../db/table';
import type { NamedSortField } from '../schemas/enums';
import { readCounters } from '../store/stats';
import { compareCodePoints } from '../text';
import { decodeCursor, encodeCursor } from './cursor';
import type { SortOrder } from './order';
import { MAX_KEY_CHAR, readPage, type Position, type Source } from './streams';

export interface NamedListRequest {
  count: number;
  offset: number;
  cursor?: string;
  sort: SortOrder<NamedSortField>;
  /** Case-folded name prefixes, any of which may match; absent: every item. */
  namePrefixes?: string[];
}

export interface NamedListSource<T> {
  /** Which list (names the cursor): `departments` or `groups`. */
  kind: string;
  /** Where the resources are listed (lib/store). */
  list: { byName: () => IndexQuery; byCreation: () => IndexQuery; namePrefixes: (prefixes: string[]) => Filter };
  /** Service counter that holds how many there are. */
  counter: string;
  toResource: (item: Item) => T & { id: string; name: string; created_at: string; user_count: number };
}

export interface NamedPage<T> {
  items: T[];
  total: number;
  count: number;
  offset: number;
  next_cursor: string | null;
}

const outermost = (prefixes: string[]) => prefixes.filter((p) => !prefixes.some((q) => q !== p && p.startsWith(q)));

export async function listNamed<T>(source: NamedListSource<T>, request: NamedListRequest): Promise<NamedPage<T>> {
  const { sort, namePrefixes } = request;
  const prefixes = namePrefixes && outermost(namePrefixes);
  const list = JSON.stringify([source.kind, sort.field, sort.direction, prefixes ? [...prefixes].sort() : null]);
  const state = request.cursor === undefined ? undefined : decodeCursor(list, request.cursor);
  const offset = state?.offset ?? request.offset;
  const skip = state ? 0 : request.offset;
  const byName = (p?: string): Source => ({
    query: source.list.byName(),
    bounds: p === undefined ? undefined : { from: p, to: `${p}${MAX_KEY_CHAR}` },
    expected: 1,
    selectivity: 1,
  });
  const total = prefixes
    ? countMatches(prefixes.map((p) => ({ ...source.list.byName(), sortKeyBetween: { from: p, to: `${p}${MAX_KEY_CHAR}` } })))
    : readCounters().then((c) => c[source.counter] ?? 0);

  let items: Item[];
  let next: Position | undefined;
  if (sort.field === 'user_count') {
    ({ items, next } = await byCount(source, prefixes, sort.direction, state?.after, skip, request.count));
  } else {
    const sources =
      sort.field === 'name'
        ? (prefixes ?? [undefined]).map(byName)
        : [{ query: { ...source.list.byCreation(), filter: prefixes && source.list.namePrefixes(prefixes) }, expected: 1, selectivity: 1 }];
    const sortKey = (item: Item) => String(sort.field === 'name' ? item.gsi1sk : item.gsi4sk);
    ({ items, next } = await readPage({ sources, direction: sort.direction, sortKey, after: state?.after, skip, take: request.count }));
  }
  const resources = items.map(source.toResource);
  return {
    items: resources,
    total: await total,
    count: resources.length,
    offset,
    next_cursor: next ? encodeCursor(list, { after: next, offset: offset + resources.length }) : null,
  };
}

/** Sorted by `user_count`: every item read and sorted here (see the top of this file). */
async function byCount<T>(
  source: NamedListSource<T>,
  prefixes: string[] | undefined,
  direction: SortOrder<NamedSortField>['direction'],
  after: Position | undefined,
  skip: number,
  take: number,
): Promise<{ items: Item[]; next?: Position }> {
  const all = await readAll([{ ...source.list.byName(), filter: prefixes && source.list.namePrefixes(prefixes) }]);
  const sign = direction === 'desc' ? -1 : 1;
  const keyed = all
    .map((item) => ({ item, position: { field: String(source.toResource(item).user_count).padStart(12, '0'), id: String(item.id) } }))
    .sort((a, b) => sign * compareCodePoints(a.position.field, b.position.field) || compareCodePoints(a.position.id, b.position.id));
  const start = after
    ? keyed.findIndex(
        ({ position: p }) =>
          sign * compareCodePoints(p.field, after.field) > 0 || (p.field === after.field && compareCodePoints(p.id, after.id) > 0),
      )
    : skip;
  const from = start < 0 ? keyed.length : start;
  const page = keyed.slice(from, from + take);
  return { items: page.map((e) => e.item), next: from + take < keyed.length ? page[page.length - 1]?.position : undefined };
}
