/**
 * Reading lists from the indexes: single Queries and paginated streams,
 * counting, and whole-partition reads for sorts no index holds (the merge of
 * several partitions into one order is lib/lists/streams.ts). Nothing here
 * scans the table.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import type { IndexDefinition, Item } from './table';

/** DynamoDB's limit on a sort key's value, and so on a value a key condition compares it with. */
export const MAX_SORT_KEY_BYTES = 1024;

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
  sortKeyBetween?: { from?: string | number; to?: string | number };
  /**
   * A multi-attribute sort key (`index.thenBy`): its first attribute equal to
   * this, and `sortKeyBetween`, if any, then on the second.
   */
  sortKeyEquals?: string | number;
  filter?: Filter;
  /** Only these attributes in the answer (the read costs the same; the answer is smaller and parses faster). */
  attributes?: string[];
  /** A strongly consistent read (twice the read units): only of the table's own key (PRIMARY_KEY), never an index. */
  consistent?: boolean;
}

/** `attribute` is one of `values`. */
export function oneOf(attribute: string, values: unknown[], tag: string): Filter {
  return {
    expression: `#${tag} IN (${values.map((_, i) => `:${tag}${i}`).join(', ')})`,
    names: { [`#${tag}`]: attribute },
    values: Object.fromEntries(values.map((v, i) => [`:${tag}${i}`, v])),
  };
}

/** `attribute` is none of `values` (an absent or null attribute is none of them). */
export function notOneOf(attribute: string, values: unknown[], tag: string): Filter {
  const { expression, names, values: bound } = oneOf(attribute, values, tag);
  return { expression: `NOT (${expression})`, names, values: bound };
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

/** `attribute` holds a string. */
export function isString(attribute: string, tag: string): Filter {
  return { expression: `attribute_type(#${tag}, :${tag}Type)`, names: { [`#${tag}`]: attribute }, values: { [`:${tag}Type`]: 'S' } };
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
  let ranged = index.sortKey;
  if (query.sortKeyEquals !== undefined) {
    if (index.thenBy === undefined) throw new Error(`${index.name} has a single sort key attribute`);
    names['#iskeq'] = index.sortKey;
    values[':iskeq'] = query.sortKeyEquals;
    keyCondition += ' AND #iskeq = :iskeq';
    ranged = index.thenBy;
  }
  const { from, to } = query.sortKeyBetween ?? {};
  if (from !== undefined || to !== undefined) {
    names['#isk'] = ranged;
    if (from !== undefined) values[':from'] = from;
    if (to !== undefined) values[':to'] = to;
    if (from !== undefined && to !== undefined) keyCondition += ' AND #isk BETWEEN :from AND :to';
    else keyCondition += from !== undefined ? ' AND #isk >= :from' : ' AND #isk <= :to';
  }
  const projection = query.attributes?.map((attribute, i) => {
    names[`#p${i}`] = attribute;
    return `#p${i}`;
  });
  return {
    TableName: tableName(),
    IndexName: index.name === '' ? undefined : index.name,
    ConsistentRead: query.consistent,
    KeyConditionExpression: keyCondition,
    ProjectionExpression: projection?.join(', '),
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

/**
 * Limits of the first Query of each partition of a merge that needs `need`
 * items in all. Without counts every partition could hold the whole page, so
 * each reads `need`. With counts, a partition holding the share f of the items
 * gives about need·f of them (names do not depend on the partition): it reads
 * that, and one to look ahead. A partition that turns out to hold more of the
 * page reads on (a later Query sized to what the page still lacks): one more
 * Query, never a wrong page. No spread is read ahead for that chance: read
 * units are what a page is billed, and a spread of one standard deviation cost
 * every merged page about one more unit (listUsers: 7 RCU against 6 for its
 * own items) to save a Query on some.
 */
export function firstReads(need: number, expectedCounts: number[] | undefined, partitions: number): number[] {
  const all = expectedCounts?.reduce((sum, n) => sum + n, 0) ?? 0;
  if (!expectedCounts || expectedCounts.length !== partitions || partitions === 1 || all === 0) return Array(partitions).fill(need);
  return expectedCounts.map((n) => {
    const share = n / all;
    const mean = need * share;
    return Math.min(need, n + 1, Math.ceil(mean) + 1);
  });
}
