/**
 * Reading lists from the indexes: paginated Query streams, a k-way merge of
 * several sorted partitions, counting, and whole-partition reads for sorts no
 * index holds. Nothing here scans the table.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { compareCodePoints } from '../text';
import { db, tableName } from './client';
import type { IndexDefinition, Item } from './table';

export interface Filter {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

export interface IndexQuery {
  index: IndexDefinition;
  partition: string;
  /** Key condition on the index sort key: a prefix, or an inclusive range. */
  sortKeyPrefix?: string;
  sortKeyBetween?: { from?: string; to?: string };
  filter?: Filter;
}

/** `attribute` is one of `values`. */
export function oneOf(attribute: string, values: unknown[], tag: string): Filter {
  return {
    expression: `#${tag} IN (${values.map((_, i) => `:${tag}${i}`).join(', ')})`,
    names: { [`#${tag}`]: attribute },
    values: Object.fromEntries(values.map((v, i) => [`:${tag}${i}`, v])),
  };
}

/** `attribute` starts with one of `prefixes`. */
export function startsWithOneOf(attribute: string, prefixes: string[], tag: string): Filter {
  return {
    expression: prefixes.map((_, i) => `begins_with(#${tag}, :${tag}${i})`).join(' OR '),
    names: { [`#${tag}`]: attribute },
    values: Object.fromEntries(prefixes.map((p, i) => [`:${tag}${i}`, p])),
  };
}

/** `attribute <operator> value`, e.g. `>=`. */
export function compare(attribute: string, operator: '=' | '<' | '>=', value: unknown, tag: string): Filter {
  return { expression: `#${tag} ${operator} :${tag}`, names: { [`#${tag}`]: attribute }, values: { [`:${tag}`]: value } };
}

/** `attribute` holds null. */
export function isNull(attribute: string, tag: string): Filter {
  return { expression: `attribute_type(#${tag}, :${tag}Type)`, names: { [`#${tag}`]: attribute }, values: { [`:${tag}Type`]: 'NULL' } };
}

/** Joins filters with AND (undefined when there are none). */
export function allOf(filters: Array<Filter | undefined>): Filter | undefined {
  const present = filters.filter((f): f is Filter => f !== undefined);
  if (present.length === 0) return undefined;
  // DynamoDB refuses redundant parentheses, so one filter stays as it is.
  if (present.length === 1) return present[0];
  return {
    expression: present.map((f) => `(${f.expression})`).join(' AND '),
    names: Object.assign({}, ...present.map((f) => f.names)),
    values: Object.assign({}, ...present.map((f) => f.values)),
  };
}

function queryInput(query: IndexQuery, descending: boolean): QueryCommandInput {
  const { index } = query;
  const names: Record<string, string> = { '#ipk': index.partitionKey, ...query.filter?.names };
  const values: Record<string, unknown> = { ':ipk': query.partition, ...query.filter?.values };
  let keyCondition = '#ipk = :ipk';
  if (query.sortKeyPrefix !== undefined) {
    names['#isk'] = index.sortKey;
    values[':isk'] = query.sortKeyPrefix;
    keyCondition += ' AND begins_with(#isk, :isk)';
  }
  const { from, to } = query.sortKeyBetween ?? {};
  if (from !== undefined || to !== undefined) {
    names['#isk'] = index.sortKey;
    if (from !== undefined) values[':from'] = from;
    if (to !== undefined) values[':to'] = to;
    if (from !== undefined && to !== undefined) keyCondition += ' AND #isk BETWEEN :from AND :to';
    else keyCondition += from !== undefined ? ' AND #isk >= :from' : ' AND #isk <= :to';
  }
  return {
    TableName: tableName(),
    IndexName: index.name,
    KeyConditionExpression: keyCondition,
    FilterExpression: query.filter?.expression,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: !descending,
  };
}

const clampLimit = (n: number | undefined) => (n === undefined ? undefined : Math.min(Math.max(Math.ceil(n), 1), 1000));

/** One Query request: up to `limit` items evaluated (before the filter), and where to go on from, if anywhere. */
export async function queryPage(
  query: IndexQuery,
  options: { descending?: boolean; limit?: number; startKey?: Record<string, unknown> } = {},
): Promise<{ items: Item[]; next?: Record<string, unknown> }> {
  const input = queryInput(query, options.descending ?? false);
  const page = await db().send(new QueryCommand({ ...input, Limit: clampLimit(options.limit), ExclusiveStartKey: options.startKey }));
  return { items: page.Items ?? [], next: page.LastEvaluatedKey };
}

export interface StreamOptions {
  descending?: boolean;
  /** Limit of the first Query. */
  pageSize?: number;
  /** Limit of each later Query, asked when it is about to be sent (default: pageSize). */
  nextPageSize?: () => number;
}

/** Items of one index partition in index order, fetched page by page as they are consumed. */
export async function* queryStream(query: IndexQuery, options: StreamOptions = {}): AsyncGenerator<Item> {
  const input = queryInput(query, options.descending ?? false);
  let limit = clampLimit(options.pageSize);
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(new QueryCommand({ ...input, Limit: limit, ExclusiveStartKey: startKey }));
    yield* page.Items ?? [];
    startKey = page.LastEvaluatedKey;
    if (options.nextPageSize) limit = clampLimit(options.nextPageSize());
  } while (startKey);
}

/** Number of items the queries match (reads them all: used only where no counter knows). */
export async function countMatches(queries: IndexQuery[]): Promise<number> {
  const counts = await Promise.all(
    queries.map(async (query) => {
      const input = queryInput(query, false);
      let total = 0;
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await db().send(new QueryCommand({ ...input, Select: 'COUNT', ExclusiveStartKey: startKey }));
        total += page.Count ?? 0;
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return total;
    }),
  );
  return counts.reduce((a, b) => a + b, 0);
}

/** Every item the queries match. */
export async function readAll(queries: IndexQuery[]): Promise<Item[]> {
  const parts = await Promise.all(
    queries.map(async (query) => {
      const items: Item[] = [];
      for await (const item of queryStream(query)) items.push(item);
      return items;
    }),
  );
  return parts.flat();
}

/** Merges sorted streams into one, by `key`, ascending or descending. */
async function* mergeSorted(streams: AsyncGenerator<Item>[], key: (item: Item) => string, descending: boolean): AsyncGenerator<Item> {
  const sign = descending ? -1 : 1;
  const heads = await Promise.all(streams.map((s) => s.next()));
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) {
      if (heads[i].done) continue;
      if (best < 0 || sign * compareCodePoints(key(heads[i].value), key(heads[best].value)) < 0) best = i;
    }
    if (best < 0) return;
    yield heads[best].value as Item;
    heads[best] = await streams[best].next();
  }
}

/**
 * Re-orders runs of items with equal `group` so that ties are by id
 * ascending, also when the index is read backwards (API.md: ties are broken
 * by id ascending whatever the direction).
 */
async function* tiesByIdAscending(items: AsyncGenerator<Item>, group: (item: Item) => string): AsyncGenerator<Item> {
  let run: Item[] = [];
  const flush = function* () {
    run.sort((a, b) => compareCodePoints(String(a.id), String(b.id)));
    yield* run;
    run = [];
  };
  for await (const item of items) {
    if (run.length > 0 && group(run[0]) !== group(item)) yield* flush();
    run.push(item);
  }
  yield* flush();
}

export interface OrderedPageRequest {
  queries: IndexQuery[];
  offset: number;
  count: number;
  descending: boolean;
  /** The part of the index sort key that is the sort field (the rest is the id). */
  sortGroup: (item: Item) => string;
  /** How many items each query matches, when counters know: sizes a merge's reads (see firstReads). */
  expectedCounts?: number[];
}

/**
 * Limits of the first Query of each partition of a merge that needs `need`
 * items in all. Without counts every partition could hold the whole page, so
 * each reads `need`. With counts, a partition holding the share f of the items
 * gives about need·f of them (names do not depend on the partition): it reads
 * that plus one standard deviation of it, and one to look ahead. A partition
 * that turns out to hold more of the page reads on (queryStream's later pages,
 * sized to what the page still lacks): one more Query, never a wrong page.
 */
export function firstReads(need: number, expectedCounts: number[] | undefined, partitions: number): number[] {
  const all = expectedCounts?.reduce((sum, n) => sum + n, 0) ?? 0;
  if (!expectedCounts || expectedCounts.length !== partitions || partitions === 1 || all === 0) return Array(partitions).fill(need);
  return expectedCounts.map((n) => {
    const share = n / all;
    const mean = need * share;
    return Math.min(need, n + 1, Math.ceil(mean + Math.sqrt(mean * (1 - share))) + 1);
  });
}

/**
 * One page of the items of several index partitions in index-key order:
 * reads at most `offset + count` items of each partition (plus one run of
 * ties when descending), never the whole partition.
 */
export async function orderedPage(request: OrderedPageRequest): Promise<Item[]> {
  const wanted = request.offset + request.count;
  const sortKey = (item: Item) => String(item[request.queries[0].index.sortKey]);
  // One ascending partition needs exactly `wanted` items; a merge, or ties re-sorted when descending, looks one further.
  const lookAhead = request.queries.length === 1 && !request.descending ? 0 : 1;
  const sizes = firstReads(wanted + lookAhead, request.expectedCounts, request.queries.length);
  let position = 0;
  // A partition reading on needs at most what the page still lacks, and one to look ahead.
  const stillNeeded = () => wanted - position + 1;
  const streams = request.queries.map((query, i) =>
    queryStream(query, { descending: request.descending, pageSize: sizes[i], nextPageSize: stillNeeded }),
  );
  let ordered = mergeSorted(streams, sortKey, request.descending);
  if (request.descending) ordered = tiesByIdAscending(ordered, request.sortGroup);
  const page: Item[] = [];
  for await (const item of ordered) {
    if (position >= request.offset) page.push(item);
    position++;
    if (position >= wanted) break;
  }
  await Promise.all(streams.map((s) => s.return(undefined)));
  return page;
}
