/**
 * Lists of named resources (departments, groups): API.md's paging, sort by
 * `name` (index order), `created_at` or `user_count` (in memory: these lists
 * are small), and case-insensitive `name` prefixes.
 */
import { countMatches, orderedPage, readAll, type Filter, type IndexQuery } from '../db/query';
import type { Item } from '../db/table';
import type { NamedSortField } from '../schemas/enums';
import { readCounters } from '../store/stats';
import { compareCodePoints } from '../text';
import type { SortOrder } from './order';

export interface NamedListRequest {
  count: number;
  offset: number;
  sort: SortOrder<NamedSortField>;
  /** Case-folded name prefixes, any of which may match; absent: every item. */
  namePrefixes?: string[];
}

export interface NamedListSource<T> {
  /** Where the resources are listed by name (lib/store). */
  list: { byName: () => IndexQuery; foldedName: (item: Item) => string; namePrefixes: (prefixes: string[]) => Filter };
  /** Service counter that holds how many there are. */
  counter: string;
  toResource: (item: Item) => T & { id: string; name: string; created_at: string; user_count: number };
}

export async function listNamed<T>(source: NamedListSource<T>, request: NamedListRequest) {
  const { sort, namePrefixes: prefixes } = request;
  const keyPrefix = sort.field === 'name' && prefixes?.length === 1 ? prefixes[0] : undefined;
  const query: IndexQuery = {
    ...source.list.byName(),
    sortKeyPrefix: keyPrefix,
    filter: prefixes && keyPrefix === undefined ? source.list.namePrefixes(prefixes) : undefined,
  };

  if (sort.field !== 'name') {
    const sign = sort.direction === 'desc' ? -1 : 1;
    const field = sort.field;
    const all = (await readAll([query])).map(source.toResource);
    all.sort((a, b) => {
      const byField = field === 'user_count' ? a.user_count - b.user_count : compareCodePoints(a.created_at, b.created_at);
      return sign * byField || compareCodePoints(a.id, b.id);
    });
    const page = all.slice(request.offset, request.offset + request.count);
    return { items: page, total: all.length, count: page.length, offset: request.offset };
  }
  const [items, total] = await Promise.all([
    orderedPage({
      queries: [query],
      offset: request.offset,
      count: request.count,
      descending: sort.direction === 'desc',
      sortGroup: source.list.foldedName,
    }),
    prefixes ? countMatches([query]) : readCounters().then((c) => c[source.counter] ?? 0),
  ]);
  const page = items.map(source.toResource);
  return { items: page, total, count: page.length, offset: request.offset };
}
