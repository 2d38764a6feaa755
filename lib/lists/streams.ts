/**
 * Reading one page of a list in its order, from index partitions, without
 * reading what the page does not need.
 *
 * Every list orders its items by a field, in either direction, and breaks
 * ties by id, ascending. A *source* is one index partition whose
 * sort key is `<field><SEP><id>` (key order), or whose items all share one
 * field value (a *segment*, e.g. one role), in the order of their sort key
 * (the id, or any key that ends with it: SCIM's members-first order lists
 * each membership by name). A page merges the sources in that order,
 * starting after a position (a cursor) or after skipping an offset:
 *
 * - ascending, a source is one forward Query from the position on;
 * - descending, ties must still go by id ascending, so a source is read
 *   backwards run by run: a run of equal fields that the backward read has
 *   seen whole is sorted by id; the last run of each backward page, which
 *   may go on below what was read, is read forwards from its start instead
 *   (a run may be thousands long: the users who never logged in) — only
 *   when the page needs its items: for the look-ahead that tells whether
 *   another page follows, that the run holds items is enough;
 * - segments go one after the other in field order, each a merge of its
 *   sources by id.
 *
 * Each source reads about its share of the page: the first Query asks for
 * the share its expected count gives it, and one to look ahead (`firstReads`); later
 * ones for twice that share of what the page still lacks; each divided by the
 * share of what it reads that its residual filter lets through, and in a
 * merge at least what the read unit a Query pays anyway holds. Whether
 * another page follows, any source's next item says: the source the page
 * ended in reads on for it only when no other source has one.
 */
import { firstReads, queryPage, type IndexQuery } from '../db/query';
import type { Item } from '../db/table';
import type { Direction } from '../schemas/enums';
import { compareCodePoints, KEY_SEPARATOR } from '../text';

/**
 * Items of a list that one eventually consistent read unit (4 KB) holds when each is at most 585 bytes: user items
 * and members' department copies are stored in 380–575 bytes in the bench's datasets.
 */
const ITEMS_PER_READ_UNIT = 7;

/** Above every character a field or an id may hold. */
export const MAX_KEY_CHAR = '\u{10FFFF}';

/** Where a list stands: the field and id of the last item returned. */
export interface Position {
  field: string;
  id: string;
}

export interface Source {
  /** The partition, and the residual filter of what its key cannot select. */
  query: IndexQuery;
  /** Inclusive bounds of the sort key (a prefix is `{ from: p, to: p + MAX_KEY_CHAR }`). */
  bounds?: { from?: string; to?: string };
  /** Key order (`<field><SEP><id>`), or a segment: every item's field is `segment`, and its sort key orders it within. */
  segment?: string;
  /** Its items that the list may include, for sizing its reads (approximate is fine). */
  expected: number;
  /** The share of the items it reads that its filter lets through (1 without a filter). */
  selectivity: number;
}

export interface PageRequest {
  sources: Source[];
  direction: Direction;
  /** The index sort key of an item (key-ordered sources). */
  sortKey: (item: Item) => string;
  after?: Position;
  /** Items to skip (an `offset`), read and dropped. */
  skip: number;
  take: number;
}

export interface Page {
  items: Item[];
  /** The position of the last item, when another follows it. */
  next?: Position;
}

/** Field and id of a key-ordered sort key. */
export function splitKey(key: string): Position {
  const separator = key.lastIndexOf(KEY_SEPARATOR);
  return { field: key.slice(0, separator), id: key.slice(separator + 1) };
}

const keyOf = (position: Position) => `${position.field}${KEY_SEPARATOR}${position.id}`;
const minKey = (a: string | undefined, b: string) => (a === undefined || compareCodePoints(b, a) < 0 ? b : a);
const maxKey = (a: string | undefined, b: string) => (a === undefined || compareCodePoints(b, a) > 0 ? b : a);
/** Nothing can lie within: DynamoDB refuses an empty string in a key condition, and '' is below every key. */
const empty = (bounds: { from?: string; to?: string }) =>
  bounds.to === '' || (bounds.from !== undefined && bounds.to !== undefined && compareCodePoints(bounds.from, bounds.to) > 0);

type Limit = () => number;

/**
 * A run the backward read has seen part of, in its place: its items (every id
 * above '') follow it, read only if the page needs them.
 */
class OpenRun {
  constructor(readonly field: string) {}
}

/** Items of `source` within `bounds`, in key order, each Query sized by `limit`. */
async function* forward(source: Source, bounds: { from?: string; to?: string }, limit: Limit): AsyncGenerator<Item> {
  if (empty(bounds)) return;
  const query = { ...source.query, sortKeyBetween: { from: bounds.from || undefined, to: bounds.to } };
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await queryPage(query, { limit: limit(), startKey });
    yield* page.items;
    startKey = page.next;
  } while (startKey);
}

/** A key-ordered source in (field descending, id ascending) order, after `after`. */
async function* backward(
  source: Source,
  sortKey: PageRequest['sortKey'],
  after: Position | undefined,
  limit: Limit,
): AsyncGenerator<Item | OpenRun> {
  const { from, to } = source.bounds ?? {};
  // The key of a field's run ends below this; keys <= `field` are exactly the smaller fields.
  const runEnd = (field: string) => `${field}${KEY_SEPARATOR}${MAX_KEY_CHAR}`;
  let upper = to;
  // Where a page the filter emptied left off, below `upper`.
  let startKey: Record<string, unknown> | undefined;
  if (after) {
    yield* forward(source, { from: maxKey(from, `${keyOf(after)}${KEY_SEPARATOR}`), to: minKey(to, runEnd(after.field)) }, limit);
    upper = minKey(to, after.field);
  }
  for (;;) {
    if (empty({ from, to: upper })) return;
    const page = await queryPage(
      { ...source.query, sortKeyBetween: { from: from || undefined, to: upper } },
      { descending: true, limit: limit(), startKey },
    );
    startKey = undefined;
    const runs: Item[][] = [];
    for (const item of page.items) {
      const field = splitKey(sortKey(item)).field;
      const run = runs[runs.length - 1];
      if (run && splitKey(sortKey(run[0])).field === field) run.push(item);
      else runs.push([item]);
    }
    // A run the page ends in may go on below it; every other run was read whole.
    const open = page.next ? runs.pop() : undefined;
    for (const run of runs) yield* run.sort((a, b) => compareCodePoints(splitKey(sortKey(a)).id, splitKey(sortKey(b)).id));
    if (!open) {
      if (!page.next) return;
      // Every run was whole; what the filter let through was yielded: go on below the page.
      startKey = page.next;
      continue;
    }
    const field = splitKey(sortKey(open[0])).field;
    yield new OpenRun(field);
    yield* forward(source, { from: maxKey(from, `${field}${KEY_SEPARATOR}`), to: minKey(to, runEnd(field)) }, limit);
    upper = minKey(to, field);
  }
}

/** A segment source in sort key order, ascending, after the sort key `afterKey`. */
function inSegment(source: Source, afterKey: string | undefined, limit: Limit): AsyncGenerator<Item> {
  const from = afterKey === undefined ? source.bounds?.from : maxKey(source.bounds?.from, `${afterKey}${KEY_SEPARATOR}`);
  return forward(source, { from, to: source.bounds?.to }, limit);
}

/**
 * An item with its place in the order, or without an item only a sign that items follow: an open run's place
 * (id '', before every item of its run) or the look-ahead of a full page.
 */
interface Entry {
  item?: Item;
  position: Position;
}

/**
 * Merges streams that each follow `compare`. Once the page is `full`, what follows only has to exist: another
 * stream's head says so, and the stream the last item came from is not read on for it.
 */
async function* merge(
  streams: AsyncGenerator<Entry>[],
  compare: (a: Entry, b: Entry) => number,
  full: () => boolean,
): AsyncGenerator<Entry> {
  const heads = await Promise.all(streams.map((s) => s.next()));
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) {
      if (heads[i].done) continue;
      if (best < 0 || compare(heads[i].value as Entry, heads[best].value as Entry) < 0) best = i;
    }
    if (best < 0) return;
    yield heads[best].value as Entry;
    const other = full() ? heads.find((head, i) => i !== best && !head.done) : undefined;
    if (other) yield { position: (other.value as Entry).position };
    heads[best] = await streams[best].next();
  }
}

/**
 * Reads one page of the merged order. An offset is walked first with only the
 * keys of the skipped items in the answers (it costs the same units, but
 * answers a tenth of the bytes), then the page is read as if after a cursor.
 */
export function readPage(request: PageRequest): Promise<Page> {
  return request.skip === 0 ? walk(request) : skipThenWalk(request);
}

async function skipThenWalk(request: PageRequest): Promise<Page> {
  const keysOnly = request.sources.map((source) => ({
    ...source,
    query: { ...source.query, attributes: [source.query.index.sortKey, 'id'] },
  }));
  const skipped = await walk({ ...request, sources: keysOnly, take: request.skip, skip: 0 });
  if (!skipped.next) return { items: [] };
  return walk({ ...request, after: skipped.next, skip: 0 });
}

async function walk(request: PageRequest): Promise<Page> {
  const { sources, direction, sortKey, after, skip, take } = request;
  const need = skip + take + 1; // one more tells whether another page follows
  let emitted = 0;
  const full = () => emitted >= skip + take;
  const sign = direction === 'desc' ? -1 : 1;
  // In a segment, the place of an item is its sort key (for segments by id, the id).
  const positionOf = (item: Item, source: Source) =>
    source.segment === undefined ? splitKey(sortKey(item)) : { field: source.segment, id: String(item[source.query.index.sortKey]) };
  // Key-ordered sources share the page from the start; a segment's sources share what the page still lacks when
  // the list reaches that segment (sized then, below), so a later segment does not read ahead for nothing.
  const firsts = sources.map(() => need);
  // A source that reads on has given more than its share: it reads twice its share of what the page still lacks
  // (and two to look ahead), never more than all of it — a third read is cheaper than many items for nothing.
  const shares = sources.map(() => 1);
  const shareAmong = (members: number[], wanted: number) => {
    const reads = firstReads(
      wanted,
      members.map((i) => sources[i].expected),
      members.length,
    );
    const all = members.reduce((n, i) => n + sources[i].expected, 0);
    members.forEach((i, k) => {
      firsts[i] = reads[k];
      shares[i] = all > 0 && members.length > 1 ? sources[i].expected / all : 1;
    });
  };
  const later = (i: number) => {
    const lacking = need - emitted;
    return Math.min(lacking + 1, Math.ceil(2 * shares[i] * lacking) + 2);
  };
  const limits = sources.map((source, i) => {
    let first = true;
    return () => {
      const wanted = first ? firsts[i] : later(i);
      first = false;
      const items = Math.ceil(wanted / Math.max(source.selectivity, 0.01));
      // A Query costs a read unit at least: in a merge, where a source that runs short costs another Query, a small
      // read takes what that unit holds. A larger one is not rounded up: where its last unit ends depends on the
      // sizes of items not read yet, and every item it reads past the page is paid.
      const filled = sources.length > 1 ? Math.max(items, ITEMS_PER_READ_UNIT) : items;
      return Math.min(1000, Math.max(1, filled));
    };
  });

  // Key-ordered sources merge into one run of the whole order; segments go one after the other.
  const tagged = async function* (stream: AsyncGenerator<Item | OpenRun>, source: Source): AsyncGenerator<Entry> {
    for await (const read of stream) {
      yield read instanceof OpenRun ? { position: { field: read.field, id: '' } } : { item: read, position: positionOf(read, source) };
    }
  };
  const compare = ({ position: x }: Entry, { position: y }: Entry) =>
    sign * compareCodePoints(x.field, y.field) || compareCodePoints(x.id, y.id);
  const streamOf = (source: Source, i: number, afterHere: Position | undefined) => {
    if (source.segment !== undefined) return inSegment(source, afterHere?.field === source.segment ? afterHere.id : undefined, limits[i]);
    if (direction === 'asc') {
      const from = afterHere ? maxKey(source.bounds?.from, `${keyOf(afterHere)}${KEY_SEPARATOR}`) : source.bounds?.from;
      return forward(source, { from, to: source.bounds?.to }, limits[i]);
    }
    return backward(source, sortKey, afterHere, limits[i]);
  };
  async function* ordered(): AsyncGenerator<Entry> {
    const keyed = sources.map((source, i) => ({ source, i })).filter(({ source }) => source.segment === undefined);
    shareAmong(
      keyed.map(({ i }) => i),
      need,
    );
    if (keyed.length > 0)
      yield* merge(
        keyed.map(({ source, i }) => tagged(streamOf(source, i, after), source)),
        compare,
        full,
      );
    const segments = [...new Set(sources.flatMap((s) => (s.segment === undefined ? [] : [s.segment])))].sort(
      (a, b) => sign * compareCodePoints(a, b),
    );
    for (const segment of segments) {
      if (after && sign * compareCodePoints(segment, after.field) < 0) continue;
      const members = sources.map((source, i) => ({ source, i })).filter(({ source }) => source.segment === segment);
      shareAmong(
        members.map(({ i }) => i),
        need - emitted,
      );
      yield* merge(
        members.map(({ source, i }) => tagged(streamOf(source, i, after), source)),
        compare,
        full,
      );
    }
  }

  const items: Item[] = [];
  let last: Position | undefined;
  let more = false;
  const stream = ordered();
  for await (const { item, position } of stream) {
    // An item or a sign of one: either way another item follows the page.
    if (full()) {
      more = true;
      break;
    }
    if (!item) continue; // its items come next, in order
    if (emitted >= skip) items.push(item);
    last = position;
    emitted++;
  }
  await stream.return(undefined);
  return { items, next: more ? last : undefined };
}
