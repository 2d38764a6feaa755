/**
 * GET /v2/changes: the audit trail oldest first, by a cursor that is never
 * null, for systems that follow every change.
 *
 * The guarantee is that a walk by cursor never skips and never repeats an
 * entry. The trail is ordered by `<at><SEP><id>` (lib/store/audit.ts), and a
 * cursor is a place in that order: each page returns entries strictly after
 * it. Repeats are impossible, since an entry has one place. A skip would be an
 * entry that commits at a place a reader has already passed. Two things could
 * cause one: transactions commit out of the order of their `at`, and the
 * functions that stamp `at` have clocks of their own. So a page reads only the
 * settled part of the trail, entries with `at` at least FEED_SETTLE_MS before
 * the reader's now. Three facts make that part final:
 *
 * 1. `at` is stamped when the transaction is sent, again on every attempt
 *    (lib/db/transact.ts). Work done before the send (a bulk move's parts,
 *    say) does not age it.
 * 2. An entry commits within AUDIT_COMMIT_BUDGET_MS (4 s) of its stamp.
 *    DynamoDB answers a transaction in milliseconds. A commit that does take
 *    longer is logged as an error ("a stamped item committed later than
 *    promised"), which is how this assumption is watched in production.
 * 3. Clocks differ by at most CLOCK_ALLOWANCE_MS (1 s). Lambda hosts keep
 *    time through the Amazon Time Sync Service, within a millisecond.
 *
 * So when a reader's clock says `now`, every entry stamped at or before
 * `now - FEED_SETTLE_MS` has committed, or never will. The reader reads the
 * table's own key strongly consistent (an index could lag behind the
 * commit), so it sees them all.
 *
 * The trail is AUDIT_SHARDS partitions. A page reads each shard forward from
 * the cursor, with about its share of the page, and merges them. Every shard
 * has then been read up to the *frontier*: the smallest of the places where
 * the shards that have more stopped. The page is the entries up to the
 * frontier, and the next cursor is the frontier, or the page's last entry
 * when the page is full. A page costs its entries and one Query per shard,
 * however long the trail. The filters (`resource_type`, `exclude_actor`) apply
 * as the shards are read. A page that they thin out still moves the cursor
 * past what it read, so a consumer whose changes are rare pages through the
 * rest at the cost of reading it, never stuck and never lost.
 */
import { allOf, oneOf, queryPage, type Filter } from '../db/query';
import type { Item } from '../db/table';
import { decodeCursor, encodeCursor } from '../lists/cursor';
import { MAX_KEY_CHAR, splitKey, type Position } from '../lists/streams';
import { validationError } from '../problems';
import { ID_PATTERN } from '../schemas/common';
import { AUDIT_COMMIT_BUDGET_MS, auditShards, auditSortKey, toAuditEntry, type AuditEntry } from '../store/audit';
import { compareCodePoints, KEY_SEPARATOR } from '../text';

/** The most two of the service's clocks may differ by (see the top of this file). */
export const CLOCK_ALLOWANCE_MS = 1_000;

/** How old an entry must be before the feed returns it: later, nothing can commit at or before its place. */
export const FEED_SETTLE_MS = AUDIT_COMMIT_BUDGET_MS + CLOCK_ALLOWANCE_MS;

export interface ChangeFeedRequest {
  count: number;
  cursor?: string;
  /** An ISO time (entries at or after it), or `now` (an empty page whose cursor is the request's time). */
  since?: string;
  /** Only entries of these resource types (none: every type). */
  resourceTypes: string[];
  /** Not the entries of these actors. */
  excludeActors: string[];
}

export interface ChangePage {
  changes: AuditEntry[];
  count: number;
  next_cursor: string;
}

const keyOf = (position: Position) => `${position.field}${KEY_SEPARATOR}${position.id}`;

/** A time as the trail stamps it (`toISOString`), which is also what `since` is made into. */
const STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A cursor's place, if it is one a page gives: an entry's (time, id), a time with '' (a `since`) or with
 * MAX_KEY_CHAR (a horizon), or the very start. The digest catches a cursor altered by mistake, not one made on
 * purpose (it holds no secret), and a place of any other shape could be a key DynamoDB refuses (over 1,024 bytes).
 */
function placeOf(position: Position): Position {
  const { field, id } = position;
  const start = field === '' && id === '';
  if (start || (STAMP.test(field) && (id === '' || id === MAX_KEY_CHAR || ID_PATTERN.test(id)))) return position;
  throw validationError(
    [{ field: 'cursor', message: 'is not a next_cursor of this feed; start again with since' }],
    'The cursor is not valid for this list.',
  );
}

/** Where the walk starts: after a cursor's place, or before the first entry at `since`. */
function startOf(request: ChangeFeedRequest, list: string, now: Date): Position {
  if (request.cursor !== undefined && request.since !== undefined) {
    throw validationError([{ field: 'since', message: 'give since or cursor, not both: a cursor already holds its place' }]);
  }
  if (request.cursor !== undefined) return placeOf(decodeCursor(list, request.cursor).after);
  if (request.since === 'now') return { field: now.toISOString(), id: '' };
  // '' sorts before every id: the first entry at `since` comes after this place.
  return { field: request.since ?? '', id: '' };
}

function filterOf(request: ChangeFeedRequest): Filter | undefined {
  const excluded = request.excludeActors.length
    ? (({ expression, ...rest }: Filter) => ({ ...rest, expression: `NOT (${expression})` }))(oneOf('actor', request.excludeActors, 'xa'))
    : undefined;
  return allOf([request.resourceTypes.length ? oneOf('resource_type', request.resourceTypes, 'rt') : undefined, excluded]);
}

/** One page of the feed; `now` is the reader's clock. */
export async function readChanges(request: ChangeFeedRequest, now: Date): Promise<ChangePage> {
  const list = JSON.stringify(['changes', [...request.resourceTypes].sort(), [...request.excludeActors].sort()]);
  const start = startOf(request, list, now);
  const settled = new Date(now.getTime() - FEED_SETTLE_MS).toISOString();
  // Every entry stamped at or before `settled`, whatever its id.
  const horizon = `${settled}${KEY_SEPARATOR}${MAX_KEY_CHAR}`;
  const startKey = keyOf(start);
  const page = (changes: AuditEntry[], to: Position): ChangePage => ({
    changes,
    count: changes.length,
    next_cursor: encodeCursor(list, { after: to, offset: 0 }),
  });
  if (compareCodePoints(startKey, horizon) >= 0) return page([], start);

  const filter = filterOf(request);
  const shards = auditShards();
  // Each shard's share of the page, and some over: shards hold entries at random.
  const perShard = Math.min(1000, Math.ceil((request.count * 1.25) / shards.length) + 2);
  const reads = await Promise.all(
    shards.map(async (shard) => {
      const { items, next } = await queryPage(
        { ...shard, sortKeyBetween: { to: horizon }, filter, consistent: true },
        { limit: perShard, startKey: { pk: shard.partition, sk: startKey } },
      );
      // A shard with more was read up to where it stopped; one without, up to the horizon.
      return { items, readTo: next ? String(next.sk) : horizon };
    }),
  );
  let frontier = reads.map((read) => read.readTo).reduce((a, b) => (compareCodePoints(b, a) < 0 ? b : a));
  const sorted = reads
    .flatMap((read) => read.items)
    .map((item): [string, Item] => [auditSortKey(item), item])
    .filter(([key]) => compareCodePoints(key, frontier) <= 0)
    .sort(([a], [b]) => compareCodePoints(a, b));
  const taken = sorted.slice(0, request.count);
  if (sorted.length > request.count) frontier = taken[taken.length - 1][0];
  return page(
    taken.map(([, item]) => toAuditEntry(item)),
    splitKey(frontier),
  );
}
