/**
 * Lists of named resources (departments, groups): API.md's paging, sort by
 * `name` (index order), `created_at` or `user_count` (in memory: these lists
 * are small), and a case-insensitive `name` prefix filter.
 */
import { INDEXES } from '../db/table';
import { countMatches, orderedPage, readAll, type Filter, type IndexQuery, type Item } from '../db/query';
import { validationError } from '../errors';
import { parseFilter, parseSort } from '../list-params';
import { compareCodePoints, foldCase } from '../text';
import { readCounters } from './stats';

export const NAMED_SORT_FIELDS = ['name', 'created_at', 'user_count'] as const;
type NamedSortField = (typeof NAMED_SORT_FIELDS)[number];

export interface NamedListParams {
  count: number;
  offset: number;
  sort?: string;
  query?: string;
}

export interface NamedListSource<T> {
  /** Partition of the byName index that holds the resources. */
  partition: string;
  /** Service counter that holds how many there are. */
  counter: string;
  toResource: (item: Item) => T & { id: string; name: string; created_at: string; user_count: number };
}

function prefixFilter(prefixes: string[]): Filter {
  return {
    expression: prefixes.map((_, i) => `begins_with(#nf, :np${i})`).join(' OR '),
    names: { '#nf': 'name_folded' },
    values: Object.fromEntries(prefixes.map((p, i) => [`:np${i}`, p])),
  };
}

export async function listNamed<T>(source: NamedListSource<T>, params: NamedListParams) {
  const sort = parseSort(params.sort, NAMED_SORT_FIELDS, 'name');
  const prefixes = parseFilter(params.query, ['name'] as const)
    .get('name')
    ?.map(foldCase);
  if (prefixes?.some((p) => p === '')) throw validationError([{ field: 'query', message: 'name needs a prefix' }]);
  const uniquePrefixes = prefixes && [...new Set(prefixes)];
  const keyPrefix = sort.field === 'name' && uniquePrefixes?.length === 1 ? uniquePrefixes[0] : undefined;
  const query: IndexQuery = {
    index: INDEXES.byName,
    partition: source.partition,
    sortKeyPrefix: keyPrefix,
    filter: uniquePrefixes && keyPrefix === undefined ? prefixFilter(uniquePrefixes) : undefined,
  };

  if (sort.field !== 'name') {
    const sign = sort.direction === 'desc' ? -1 : 1;
    const field: Exclude<NamedSortField, 'name'> = sort.field;
    const all = (await readAll([query])).map(source.toResource);
    all.sort((a, b) => {
      const byField = field === 'user_count' ? a.user_count - b.user_count : compareCodePoints(a.created_at, b.created_at);
      return sign * byField || compareCodePoints(a.id, b.id);
    });
    const page = all.slice(params.offset, params.offset + params.count);
    return { items: page, total: all.length, count: page.length, offset: params.offset };
  }
  const [items, total] = await Promise.all([
    orderedPage({
      queries: [query],
      offset: params.offset,
      count: params.count,
      descending: sort.direction === 'desc',
      sortGroup: (item) => String(item.name_folded),
    }),
    uniquePrefixes ? countMatches([query]) : readCounters().then((c) => c[source.counter] ?? 0),
  ]);
  const page = items.map(source.toResource);
  return { items: page, total, count: page.length, offset: params.offset };
}
