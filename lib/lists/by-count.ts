/**
 * Named lists (departments, groups) sorted by `user_count`, ties by id
 * ascending, in either direction.
 *
 * Indexed: a count index (lib/db/table.ts, departmentsByCount and
 * groupsByCount) sorts one list's partition on the count itself, a number,
 * then on the id: a key order that every membership change's blind ADD moves,
 * read like a key-ordered source of lib/lists/streams.ts. Ascending is one
 * forward Query from the position on (the rest of the position's run of equal
 * counts, by id, then every larger count). Descending keeps ties by id
 * ascending the way streams.ts does: a backward Query yields whole runs, each
 * sorted by id; the run the page ends in, which may go on below it, is read
 * forward from its start instead. An offset walks the order with only the
 * keys in the answers, then reads the page after where it ended.
 *
 * In memory: a name prefix cannot be a key condition of the count order, so
 * a prefixed list reads the prefix's name ranges (what its exact total has
 * to read anyway: there is no counter per prefix) and keeps the best
 * `skip + take + 1` of them in count order.
 */
import { queryPage, queryStream, type IndexQuery } from '../db/query';
import type { Item } from '../db/table';
import type { Direction } from '../schemas/enums';
import { compareCodePoints, KEY_SEPARATOR } from '../text';
import type { Page, Position } from './streams';

/** A count in a cursor's position: fixed width, so that the text order is the number order. */
export const countField = (count: number) => String(count).padStart(12, '0');

interface Entry {
  item: Item;
  count: number;
  id: string;
}

const compareEntries = (sign: number) => (a: Entry, b: Entry) => sign * (a.count - b.count) || compareCodePoints(a.id, b.id);

/** Whether `entry` comes after `after` in the order of `sign`. */
const isAfter = (entry: Entry, after: Position, sign: number) => {
  const count = Number(after.field);
  return sign * (entry.count - count) > 0 || (entry.count === count && compareCodePoints(entry.id, after.id) > 0);
};

export interface CountPageRequest {
  /** The list's partition of its count index (`index.sortKey` is the count, `index.thenBy` the id). */
  query: IndexQuery;
  direction: Direction;
  after?: Position;
  /** Items to skip (an `offset`). */
  skip: number;
  take: number;
}

/** One page of a count index partition in count order (see the top of this file). */
export function readCountPage(request: CountPageRequest): Promise<Page> {
  return request.skip === 0 ? walk(request) : skipThenWalk(request);
}

async function skipThenWalk(request: CountPageRequest): Promise<Page> {
  const { index } = request.query;
  const keysOnly = { ...request.query, attributes: [index.sortKey, index.thenBy ?? 'id'] };
  const skipped = await walk({ ...request, query: keysOnly, take: request.skip, skip: 0 });
  if (!skipped.next) return { items: [] };
  return walk({ ...request, after: skipped.next, skip: 0 });
}

async function walk(request: CountPageRequest): Promise<Page> {
  const { query, direction, after, skip, take } = request;
  const { index } = query;
  const idAttribute = index.thenBy ?? 'id';
  const entryOf = (item: Item): Entry => ({ item, count: Number(item[index.sortKey]), id: String(item[idAttribute]) });
  const need = skip + take + 1; // one more tells whether another page follows
  let emitted = 0;
  // Each Query asks for what the page still lacks (and one to look ahead).
  const limit = () => Math.min(1000, need - emitted + 1);
  const forward = (q: IndexQuery) => queryStream(q, { pageSize: limit(), nextPageSize: limit });
  /** The rest of the run of `count` after `id` (the whole run without one), by id. */
  const run = (count: number, afterId?: string) =>
    forward({ ...query, sortKeyEquals: count, sortKeyBetween: afterId === undefined ? undefined : { from: `${afterId}${KEY_SEPARATOR}` } });

  async function* ascending(): AsyncGenerator<Item> {
    if (!after) return yield* forward(query);
    const count = Number(after.field);
    yield* run(count, after.id);
    yield* forward({ ...query, sortKeyBetween: { from: count + 1 } });
  }

  async function* descending(): AsyncGenerator<Item> {
    let upper: number | undefined; // counts up to this one are left to read
    if (after) {
      const count = Number(after.field);
      yield* run(count, after.id);
      upper = count - 1;
    }
    for (;;) {
      const page = await queryPage(
        { ...query, sortKeyBetween: upper === undefined ? undefined : { to: upper } },
        { descending: true, limit: limit() },
      );
      const runs: Entry[][] = [];
      for (const entry of page.items.map(entryOf)) {
        const last = runs[runs.length - 1];
        if (last && last[0].count === entry.count) last.push(entry);
        else runs.push([entry]);
      }
      // The run the page ends in may go on below it; every other run was read whole.
      const open = page.next ? runs.pop() : undefined;
      for (const whole of runs) yield* whole.sort(compareEntries(1)).map((entry) => entry.item);
      if (!open) return;
      yield* run(open[0].count);
      upper = open[0].count - 1;
    }
  }

  const items: Item[] = [];
  let last: Position | undefined;
  let more = false;
  const stream = direction === 'asc' ? ascending() : descending();
  for await (const item of stream) {
    if (emitted >= skip + take) {
      more = true;
      break;
    }
    if (emitted >= skip) items.push(item);
    const entry = entryOf(item);
    last = { field: countField(entry.count), id: entry.id };
    emitted++;
  }
  await stream.return(undefined);
  return { items, next: more ? last : undefined };
}

/**
 * A page in count order chosen in memory from `items` (every item of the
 * list that matches), keeping no more than twice the page and what it skips.
 * Answers how many items there were, too.
 */
export async function pickByCount(
  items: AsyncIterable<Item>,
  countOf: (item: Item) => number,
  request: Omit<CountPageRequest, 'query'>,
): Promise<Page & { matched: number }> {
  const { direction, after, skip, take } = request;
  const sign = direction === 'desc' ? -1 : 1;
  const compare = compareEntries(sign);
  const keep = skip + take + 1;
  let best: Entry[] = [];
  let matched = 0;
  for await (const item of items) {
    matched++;
    const entry = { item, count: countOf(item), id: String(item.id) };
    if (after && !isAfter(entry, after, sign)) continue;
    best.push(entry);
    if (best.length >= 2 * keep) best = best.sort(compare).slice(0, keep);
  }
  best.sort(compare);
  const page = best.slice(skip, skip + take);
  const last = page[page.length - 1];
  return {
    items: page.map((entry) => entry.item),
    next: best.length > skip + take && last ? { field: countField(last.count), id: last.id } : undefined,
    matched,
  };
}
