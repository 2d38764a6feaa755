/**
 * The change feed's sequencer: gives each committed audit entry the next
 * number of its shard (lib/changes/feed.ts says why, lib/store/feed.ts what
 * is written). It runs on the table's stream (the StreamRouter), on the
 * entries the stream left behind (the maintenance sweep), and locally as a
 * poller of the entries still pending.
 *
 * One transaction appends a batch of one shard's entries: the head moves from
 * the `next` it was read at (its condition), each entry gets its number and a
 * copy in the feed, and each entry's pending mark comes off (its condition:
 * still there). A head that moved meanwhile (another writer appended) is read
 * again; an entry whose mark is gone already has its place (a duplicate
 * delivery, or the sweep and the stream at once) and leaves the batch.
 * Nothing else fails but the database, and that is retried.
 */
import { MAX_TRANSACTION_ITEMS, transactWriteOrRefusals } from '../db/transact';
import { queryPage } from '../db/query';
import type { Item } from '../db/table';
import { ContentionError, DatabaseBusyError } from '../db/errors';
import { MAX_KEY_CHAR } from '../lists/streams';
import { AUDIT_SHARDS, auditSortKey, pendingEntries, pendingMarkRemoval, shardOfAuditItem, toAuditEntry } from '../store/audit';
import { feedItemPut, headAdvance, readHead, type FeedHead } from '../store/feed';
import { KEY_SEPARATOR } from '../text';

/** Entries a transaction appends at most: two items each (the copy, the mark), and the head. */
const BATCH_ENTRIES = Math.floor((MAX_TRANSACTION_ITEMS - 1) / 2);
/** Bytes of entries a transaction appends at most, each counted twice (its copy, and the entry the update rewrites): under 4 MB. */
const BATCH_BYTES = 1_500_000;
/** Pending entries one sweep reads of a shard at a time. */
const SWEEP_PAGE = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sizeOf = (item: Item) => JSON.stringify(item).length;
const latest = (times: string[]) => times.reduce((a, b) => (b > a ? b : a), '');

/** Splits one shard's entries, oldest `at` first, into batches a transaction holds. */
function batches(entries: Item[]): Item[][] {
  const sorted = [...entries].sort((a, b) => (auditSortKey(a) < auditSortKey(b) ? -1 : 1));
  const out: Item[][] = [];
  let batch: Item[] = [];
  let bytes = 0;
  for (const entry of sorted) {
    const size = sizeOf(entry);
    if (batch.length > 0 && (batch.length === BATCH_ENTRIES || bytes + size > BATCH_BYTES)) {
      out.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(entry);
    bytes += size;
  }
  if (batch.length > 0) out.push(batch);
  return out;
}

/** The writes that append `entries` after `head`, all at `sequencedAt`. */
function appendWrites(shard: number, head: FeedHead, entries: Item[], sequencedAt: string) {
  return [
    headAdvance(shard, head, { next: head.next + entries.length, last: sequencedAt }),
    ...entries.flatMap((entry, i) => [feedItemPut(shard, head.next + i, sequencedAt, toAuditEntry(entry)), pendingMarkRemoval(entry)]),
  ];
}

/** Appends one batch of one shard; answers how many of its entries it gave a place (the others had one). */
async function appendBatch(shard: number, entries: Item[], deadline: number): Promise<number> {
  let left = entries;
  for (let attempt = 0; left.length > 0; attempt++) {
    if (Date.now() > deadline) throw new DatabaseBusyError(`the change feed's shard ${shard} could not be appended to in time`);
    const head = await readHead(shard);
    // Never back in the shard, and never before an entry's own time: `since` then finds every entry stamped after it.
    const sequencedAt = latest([new Date().toISOString(), head.last, ...left.map((entry) => String(entry.at))]);
    let refusals;
    try {
      refusals = await transactWriteOrRefusals(appendWrites(shard, head, left, sequencedAt));
    } catch (error) {
      if (!(error instanceof ContentionError || error instanceof DatabaseBusyError)) throw error;
      await sleep(Math.min(1000, 20 * 2 ** attempt));
      continue;
    }
    if (refusals.length === 0) return left.length;
    // Places 2i + 2 are the marks: those entries have their place already.
    const placed = new Set(refusals.filter(({ index }) => index > 0 && index % 2 === 0).map(({ index }) => index / 2 - 1));
    const before = left.length;
    left = left.filter((_, i) => !placed.has(i));
    // Only the head refused: another writer appended meanwhile; read it again.
    if (left.length === before) await sleep(Math.random() * Math.min(200, 10 * 2 ** attempt));
  }
  return 0;
}

/**
 * Gives audit entries (as stored: a stream record's image, or the pending index's copy) their places, shard by
 * shard in parallel; answers how many it placed (an entry already placed is not counted). Retries the database
 * until `deadlineMs` from now, then throws: the entries stay pending, for the next try or the sweep.
 */
export async function sequenceEntries(entries: Item[], { deadlineMs = 60_000 }: { deadlineMs?: number } = {}): Promise<number> {
  const deadline = Date.now() + deadlineMs;
  const byShard = new Map<number, Item[]>();
  for (const entry of entries) {
    const shard = shardOfAuditItem(entry);
    byShard.set(shard, [...(byShard.get(shard) ?? []), entry]);
  }
  const placed = await Promise.all(
    [...byShard].map(async ([shard, shardEntries]) => {
      let count = 0;
      for (const batch of batches(shardEntries)) count += await appendBatch(shard, batch, deadline);
      return count;
    }),
  );
  return placed.reduce((a, b) => a + b, 0);
}

/**
 * Places the entries still pending that were stamped at least `olderThanMs` ago (the maintenance sweep: those the
 * stream did not bring; the local poller: 0, every one); answers how many it placed.
 */
export async function sequencePending({ olderThanMs = 0, now = Date.now() }: { olderThanMs?: number; now?: number } = {}): Promise<number> {
  const to = olderThanMs > 0 ? `${new Date(now - olderThanMs).toISOString()}${KEY_SEPARATOR}${MAX_KEY_CHAR}` : undefined;
  const counts = await Promise.all(
    Array.from({ length: AUDIT_SHARDS }, async (_, shard) => {
      let count = 0;
      for (let startKey: Record<string, unknown> | undefined, pages = 0; pages < 50; pages++) {
        const { items, next } = await queryPage({ ...pendingEntries(shard), sortKeyBetween: { to } }, { limit: SWEEP_PAGE, startKey });
        if (items.length > 0) count += await sequenceEntries(items);
        if (!next) break;
        startKey = next;
      }
      return count;
    }),
  );
  return counts.reduce((a, b) => a + b, 0);
}
