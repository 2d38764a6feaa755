/**
 * GET /v2/changes: the audit trail in the order it reached the feed, by a
 * cursor that is never null, for systems that follow every change.
 *
 * The guarantee is that a walk by cursor never skips and never repeats an
 * entry. Ordering entries by their `at` cannot give it: `at` is stamped
 * before the change's transaction commits, and nothing bounds how much
 * later it commits (a loaded host took 9 s; on AWS a paused function or the
 * SDK's retries can take longer), so a reader that has passed a time may
 * still see an entry commit behind it. The order is therefore given after
 * the commit: the sequencer (lib/changes/sequencer.ts) appends each
 * committed entry to the feed of its shard (one per audit shard,
 * lib/store/feed.ts) with the shard's next number, and this module reads
 * those feeds. No entry can ever appear behind a cursor:
 *
 * 1. A shard's numbers are consecutive and each is given once. The shard's
 *    head moves in the transaction that appends the numbers, on the
 *    condition that its `next` is still what the writer read: two writers
 *    cannot both move it from n, and number n + 1 exists only after the
 *    transaction holding n committed (its writer read the head that
 *    transaction wrote).
 * 2. A shard only grows at its end. Its sort key is `<sequenced_at><seq>`,
 *    where `sequenced_at` is the latest of the sequencer's clock, the head's
 *    last time and the entries' own `at`: never earlier than what the shard
 *    holds, so each new entry sorts after every one already there.
 * 3. A page reads each shard strongly consistent from its cursor's place and
 *    takes only the run of consecutive numbers right after it. A Query is
 *    read-committed: it may see one entry of a transaction still landing and
 *    not another, which shows as a gap in the numbers; the page stops that
 *    shard at the gap, and the next page picks the rest up.
 *
 * So what a page takes of a shard is exactly what the shard will ever hold
 * right after the cursor's place, and the next cursor is the place after it:
 * nothing skipped, nothing twice (the sequencer never gives one entry two
 * places: the entry's pending mark comes off in the same transaction, on the
 * condition that it is still there; lib/store/audit.ts).
 *
 * When the sequencer falls behind or fails, readers wait: entries not yet
 * appended are not in the feed, pages give what is, cursors stay where they
 * are, and the entries get their places later, after every cursor. The
 * table's stream brings each entry to the sequencer about a second after its
 * commit (the StreamRouter, lib/changes/stream.ts); an entry whose stream
 * record was lost or failed is still pending, and the maintenance sweep
 * appends it once it is 30 s old; locally a poller appends every pending
 * entry every 200 ms. The router's lag is alarmed (infra/alarms.ts).
 *
 * A cursor is one place per shard. A page reads each shard from its place,
 * about its share of the page and some over, and merges the shards' runs,
 * each in its own order, taking at each step the shard whose next entry is
 * the oldest by `at`; it stops where a shard that has more has given all it
 * read (what comes next there is not known). So each shard gives a prefix of
 * what follows its place; pages come in the order entries reached the feed
 * within a shard, and oldest `at` first across shards as far as that order
 * allows (an entry that reached the feed on an earlier page than an older
 * one of another shard stays before it). A page costs one Query per shard
 * and its entries, however long the trail. The filters (`resource_type`, `exclude_actor`) apply to
 * what was read, not as a filter expression (a filtered Query would hide
 * the numbers the run check needs; DynamoDB bills what a Query reads before
 * its filter either way), and a page they thin out still moves the cursor
 * past what it read.
 *
 * `since=<time>` starts each shard after its last entry appended before that
 * time (one more Query per shard): every entry that reached the feed at or
 * after it, a superset of those stamped at or after it (no entry is appended
 * before its `at`). `since=now` starts at each shard's head (one read of the
 * four heads): the end of the feed as it stands.
 */
import { decodePositionsCursor, encodePositionsCursor } from '../lists/cursor';
import { validationError } from '../problems';
import { AUDIT_SHARDS, type AuditEntry } from '../store/audit';
import {
  headPosition,
  isFeedPosition,
  positionBefore,
  readHeads,
  readShard,
  seqAt,
  type FeedEntry,
  type FeedPosition,
} from '../store/feed';
import { compareCodePoints, KEY_SEPARATOR } from '../text';

export interface ChangeFeedRequest {
  count: number;
  cursor?: string;
  /** An ISO time (entries that reached the feed at or after it), or `now` (an empty page whose cursor is the end). */
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

const badCursor = () =>
  validationError(
    [{ field: 'cursor', message: 'is not a next_cursor of this feed; start again with since' }],
    'The cursor is not valid for this list.',
  );

/** Each shard's place to read on from: a cursor's, or where `since` puts it, or the start. */
async function startPositions(request: ChangeFeedRequest, list: string): Promise<FeedPosition[]> {
  if (request.cursor !== undefined && request.since !== undefined) {
    throw validationError([{ field: 'since', message: 'give since or cursor, not both: a cursor already holds its place' }]);
  }
  if (request.cursor !== undefined) {
    const positions = decodePositionsCursor(list, request.cursor);
    if (positions.length > AUDIT_SHARDS || !positions.every(isFeedPosition)) throw badCursor();
    // A shard added since the cursor was made is read from its start.
    return Array.from({ length: AUDIT_SHARDS }, (_, shard) => positions[shard] ?? '');
  }
  if (request.since === 'now') return (await readHeads(AUDIT_SHARDS)).map(headPosition);
  const since = request.since;
  if (since === undefined) return Array<FeedPosition>(AUDIT_SHARDS).fill('');
  return Promise.all(Array.from({ length: AUDIT_SHARDS }, (_, shard) => positionBefore(shard, since)));
}

/** One shard read from `from`: the run of consecutive numbers right after it, and whether the shard may hold more. */
async function readRun(shard: number, from: FeedPosition, limit: number): Promise<{ run: FeedEntry[]; more: boolean }> {
  const { entries, more } = await readShard(shard, from, limit);
  const run: FeedEntry[] = [];
  for (const entry of entries) {
    // A gap: the entries of a transaction still landing (see the top of this file); the rest comes on a later page.
    if (entry.seq !== seqAt(from) + run.length + 1) return { run, more: true };
    run.push(entry);
  }
  return { run, more };
}

/** Across shards, the older entry first: by `at`, then id (each shard keeps its own order). */
const olderFirst = (a: FeedEntry, b: FeedEntry) =>
  compareCodePoints(`${a.entry.at}${KEY_SEPARATOR}${a.entry.id}`, `${b.entry.at}${KEY_SEPARATOR}${b.entry.id}`);

/**
 * A k-way merge of the shards' runs, each taken in its order: at each step the shard whose next entry is the oldest.
 * It stops when a shard that may hold more has given all it read (its next entry is not known), so every shard
 * gives a prefix of what follows its place.
 */
function* merge(reads: Array<{ run: FeedEntry[]; more: boolean }>): Generator<FeedEntry> {
  const next = reads.map(() => 0);
  for (;;) {
    let pick: number | undefined;
    for (const [shard, { run, more }] of reads.entries()) {
      const entry = run[next[shard]];
      if (entry === undefined) {
        if (more) return;
        continue;
      }
      if (pick === undefined || olderFirst(entry, reads[pick].run[next[pick]]) < 0) pick = shard;
    }
    if (pick === undefined) return;
    yield reads[pick].run[next[pick]++];
  }
}

/** One page of the feed. */
export async function readChanges(request: ChangeFeedRequest): Promise<ChangePage> {
  const list = JSON.stringify(['changes', [...request.resourceTypes].sort(), [...request.excludeActors].sort()]);
  const positions = await startPositions(request, list);
  const page = (changes: AuditEntry[]): ChangePage => ({
    changes,
    count: changes.length,
    next_cursor: encodePositionsCursor(list, positions),
  });
  if (request.since === 'now') return page([]);

  // Each shard's share of the page, and some over: shards hold entries at random.
  const perShard = Math.min(1000, Math.ceil((request.count * 1.25) / AUDIT_SHARDS) + 2);
  const reads = await Promise.all(positions.map((from, shard) => readRun(shard, from, perShard)));
  const types = new Set(request.resourceTypes);
  const excluded = new Set(request.excludeActors);
  const changes: AuditEntry[] = [];
  for (const { shard, position, entry } of merge(reads)) {
    if (changes.length === request.count) break;
    positions[shard] = position;
    if ((types.size === 0 || types.has(entry.resource_type)) && !excluded.has(entry.actor)) changes.push(entry);
  }
  return page(changes);
}
