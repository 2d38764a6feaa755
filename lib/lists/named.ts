/**
 * Lists of named resources (departments, groups): paging by offset
 * or cursor, sort by `name` (byName), `created_at` (byTime) or `user_count`
 * (a count index: lib/lists/by-count.ts), each a key order read page by page,
 * and case-insensitive `name` prefixes (a key range sorted by name, a
 * residual filter sorted by creation).
 *
 * Two things read more than a page, both bounded by the number of
 * departments or groups, never by users: a total under a name prefix counts
 * the matching keys (no counter per prefix), and a prefix sorted by
 * `user_count` reads those same matches once, for its total and its page (a
 * prefix and a count order cannot both be key conditions).
 */
import { countMatches, queryStream, type Filter, type IndexQuery } from '../db/query';
import type { Item } from '../db/table';
import type { NamedSortField } from '../schemas/enums';
import { readCounters } from '../store/stats';
import { pickByCount, readCountPage } from './by-count';
import { decodeCursor, encodeCursor } from './cursor';
import type { SortOrder } from './order';
import { matchablePrefixes, outermostPrefixes, prefixBounds } from './prefixes';
import { readPage, type Position, type Source } from './streams';

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
  list: {
    byName: () => IndexQuery;
    byCreation: () => IndexQuery;
    /** By `user_count`, then id (a count index). */
    byCount: () => IndexQuery;
    namePrefixes: (prefixes: string[]) => Filter;
  };
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

export async function listNamed<T>(source: NamedListSource<T>, request: NamedListRequest): Promise<NamedPage<T>> {
  const { sort, namePrefixes } = request;
  const prefixes = namePrefixes && outermostPrefixes(matchablePrefixes(namePrefixes));
  const list = JSON.stringify([source.kind, sort.field, sort.direction, prefixes ? [...prefixes].sort() : null]);
  const state = request.cursor === undefined ? undefined : decodeCursor(list, request.cursor);
  const offset = state?.offset ?? request.offset;
  const skip = state ? 0 : request.offset;
  // Prefixes longer than any name: nothing to read.
  const { items, next, total } =
    prefixes?.length === 0
      ? { items: [], total: 0 }
      : await readNamed(source, sort, prefixes, { after: state?.after, skip, take: request.count });
  const resources = items.map(source.toResource);
  return {
    items: resources,
    total,
    count: resources.length,
    offset,
    next_cursor: next ? encodeCursor(list, { after: next, offset: offset + resources.length }) : null,
  };
}

/**
 * The page and the total, read together: both are started before either is
 * awaited, under one Promise.all, so that a failing read never leaves the
 * other's rejection unhandled.
 */
async function readNamed<T>(
  source: NamedListSource<T>,
  sort: SortOrder<NamedSortField>,
  prefixes: string[] | undefined,
  page: { after?: Position; skip: number; take: number },
): Promise<{ items: Item[]; next?: Position; total: number }> {
  const counted = async () => (await readCounters())[source.counter] ?? 0;
  const prefixRanges = (prefixes ?? []).map((p) => ({ ...source.list.byName(), sortKeyBetween: prefixBounds(p) }));
  if (sort.field === 'user_count') {
    const byCount = { direction: sort.direction, ...page };
    if (!prefixes) {
      const query = source.list.byCount();
      const [total, read] = await Promise.all([counted(), readCountPage({ query, ...byCount })]);
      return { ...read, total };
    }
    // The prefix's matches, once, for the page and the total.
    const countOf = (item: Item) => source.toResource(item).user_count;
    const picked = await pickByCount(matches(prefixRanges), countOf, byCount);
    return { items: picked.items, next: picked.next, total: picked.matched };
  }
  const sources: Source[] =
    sort.field === 'name'
      ? (prefixes ?? [undefined]).map((p) => ({
          query: source.list.byName(),
          bounds: p === undefined ? undefined : prefixBounds(p),
          expected: 1,
          selectivity: 1,
        }))
      : [{ query: { ...source.list.byCreation(), filter: prefixes && source.list.namePrefixes(prefixes) }, expected: 1, selectivity: 1 }];
  const sortKey = (item: Item) => String(sort.field === 'name' ? item.gsi1sk : item.gsi4sk);
  const [total, read] = await Promise.all([
    prefixes ? countMatches(prefixRanges) : counted(),
    readPage({ sources, direction: sort.direction, sortKey, ...page }),
  ]);
  return { ...read, total };
}

/** Every item of these key ranges, one range after another. */
async function* matches(queries: IndexQuery[]): AsyncGenerator<Item> {
  for (const query of queries) yield* queryStream(query, { pageSize: 1000 });
}
