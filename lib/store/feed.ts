/**
 * The change feed's items: per audit shard k, the entries in the order the
 * sequencer appended them (lib/changes/sequencer.ts, lib/changes/feed.ts).
 *
 * | item          | key                                              | holds                              |
 * |---------------|--------------------------------------------------|------------------------------------|
 * | feed entry    | `FEED#<k>` / `<sequenced_at><SEP><seq, 12 digits>` | a copy of the audit entry, `seq` |
 * | head of shard | `FEEDHEAD#<k>` / `HEAD`                          | `next` (its next number), `last`   |
 *
 * A shard's numbers are consecutive from 1, and `sequenced_at` never goes
 * back within a shard, so the sort key orders a shard by number and lets a
 * reader seek by time. The head is written in the transaction that appends
 * its numbers, on the condition that `next` is still what the writer read.
 * The feed is in no index: it is read only by its own key, strongly
 * consistent.
 */
import { Condition, Update } from '../db/expression';
import * as attr from '../db/item-kind';
import { getItem } from '../db/items';
import { queryPage } from '../db/query';
import { PRIMARY_KEY, type Item, type Key } from '../db/table';
import { put, update, type Write } from '../db/transact';
import type { AuditEntry } from '../schemas/responses';
import { AUDIT_ENTRY_ATTRIBUTES } from './audit';
import { KEY_SEPARATOR } from '../text';

/** Partition keys of feed entries and of the shards' heads (the stack lets only the sequencers write them). */
export const FEED_KEY_PREFIX = 'FEED#';
export const FEED_HEAD_KEY_PREFIX = 'FEEDHEAD#';

const SEQ_DIGITS = 12;

/** A place in one shard: the sort key of an entry, or '' (before its first). */
export type FeedPosition = string;

/** The sort key of number `seq`, appended at `sequencedAt`. */
export const feedPosition = (sequencedAt: string, seq: number): FeedPosition =>
  `${sequencedAt}${KEY_SEPARATOR}${String(seq).padStart(SEQ_DIGITS, '0')}`;

const POSITION = new RegExp(`^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z${KEY_SEPARATOR}\\d{${SEQ_DIGITS}}$`);

/** Whether a string (out of a cursor, say) is a place a page gives. */
export const isFeedPosition = (text: string) => text === '' || POSITION.test(text);

/** The number at a place: 0 before the first. */
export const seqAt = (position: FeedPosition) => (position === '' ? 0 : Number(position.slice(-SEQ_DIGITS)));

const feedKind = attr.itemKind({
  type: 'feed',
  key: (shard: number, position: FeedPosition): Key => ({ pk: `${FEED_KEY_PREFIX}${shard}`, sk: position }),
  attributes: { seq: attr.number, ...AUDIT_ENTRY_ATTRIBUTES },
  indexAttributes: {},
});

const headKind = attr.itemKind({
  type: 'feed-head',
  key: (shard: number): Key => ({ pk: `${FEED_HEAD_KEY_PREFIX}${shard}`, sk: 'HEAD' }),
  attributes: { next: attr.number, last: attr.string },
  indexAttributes: {},
});

/** A shard's head: the number its next entry gets, and when its last entries were appended ('' for none yet). */
export interface FeedHead {
  next: number;
  last: string;
}

const EMPTY_HEAD: FeedHead = { next: 1, last: '' };

/** An entry of the feed as a page reads it. */
export interface FeedEntry {
  shard: number;
  seq: number;
  position: FeedPosition;
  entry: AuditEntry;
}

/** The entry with number `seq` of a shard, appended at `sequencedAt`. */
export function feedItem(shard: number, seq: number, sequencedAt: string, entry: AuditEntry): Item {
  const { id, at, actor, operation, resource_type, resource_id, changes } = entry;
  return feedKind.item(feedKind.key(shard, feedPosition(sequencedAt, seq)), {
    seq,
    ...{ id, at, actor, operation, resource_type, resource_id, changes },
  });
}

/** Its put: a number is given once (the head's condition already ensures it; this says so at the item too). */
export const feedItemPut = (shard: number, seq: number, sequencedAt: string, entry: AuditEntry): Write =>
  put(feedItem(shard, seq, sequencedAt, entry), new Condition().whenAbsent());

/** A shard's head as stored (for a dataset loaded directly). */
export const feedHeadItem = (shard: number, head: FeedHead): Item => headKind.item(headKind.key(shard), head);

/** Moves a shard's head from `read` (as the writer read it) to `next`, in the transaction that appends the numbers between. */
export function headAdvance(shard: number, read: FeedHead, next: FeedHead): Write {
  const changes = new Update().setAll({ type: headKind.type, next: next.next, last: next.last });
  // No head yet is the first writer's; after it, `next` only grows.
  if (read.next === EMPTY_HEAD.next) changes.whenAbsent();
  else changes.whenEquals('next', read.next);
  return update(headKind.key(shard), changes);
}

const headOf = (item: Item | undefined): FeedHead => (item ? headKind.read(item) : EMPTY_HEAD);

/** A shard's head, read strongly consistent (the transaction that moved it has committed every entry below it). */
export const readHead = async (shard: number): Promise<FeedHead> => headOf(await getItem(headKind.key(shard)));

/** Every shard's head, strongly consistent: a read by key each, at once (a batch costs the same units, and needs a grant more). */
export const readHeads = (shards: number): Promise<FeedHead[]> =>
  Promise.all(Array.from({ length: shards }, (_, shard) => readHead(shard)));

/** The place of the last entry of a head (where a reader starts to get only what comes after). */
export const headPosition = (head: FeedHead): FeedPosition => (head.next > 1 ? feedPosition(head.last, head.next - 1) : '');

const toFeedEntry = (shard: number, item: Item): FeedEntry => {
  const { seq, ...entry } = feedKind.read(item);
  return { shard, seq, position: String(item.sk), entry };
};

/** Up to `limit` entries of a shard after a place, in order, strongly consistent; `more`: the read stopped at its limit. */
export async function readShard(shard: number, after: FeedPosition, limit: number): Promise<{ entries: FeedEntry[]; more: boolean }> {
  const partition = `${FEED_KEY_PREFIX}${shard}`;
  const { items, next } = await queryPage(
    { index: PRIMARY_KEY, partition, consistent: true },
    { limit, startKey: after === '' ? undefined : { pk: partition, sk: after } },
  );
  return { entries: items.map((item) => toFeedEntry(shard, item)), more: next !== undefined };
}

/** The place of a shard's last entry appended before `time` ('' if none): a walk from there gives what came at or after it. */
export async function positionBefore(shard: number, time: string): Promise<FeedPosition> {
  // Every place of an entry appended at `time` is `time` followed by the separator, so `<= time` is "before it".
  const { items } = await queryPage(
    { index: PRIMARY_KEY, partition: `${FEED_KEY_PREFIX}${shard}`, sortKeyBetween: { to: time }, consistent: true, attributes: ['sk'] },
    { descending: true, limit: 1 },
  );
  return items.length ? String(items[0].sk) : '';
}

/** Whether a stored item (a stream record's image) is a feed entry; its shard and entry. */
export function feedEntryOf(item: Item | undefined): FeedEntry | undefined {
  if (!feedKind.is(item)) return undefined;
  const shard = Number(String(item.pk).slice(FEED_KEY_PREFIX.length));
  return toFeedEntry(shard, item);
}
