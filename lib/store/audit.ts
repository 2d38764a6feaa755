/**
 * Audit entries, each put in the transaction of the change it records.
 *
 * The whole trail lives in the table's own key, spread over AUDIT_SHARDS
 * partitions `AUDIT#<shard>` (the shard follows from the entry's random id),
 * each sorted by `<at><SEP><id>`: a list of the whole trail, in either
 * direction, merges the shards (lib/audit/list.ts, lib/changes/feed.ts), and
 * the change feed reads them strongly consistent. No single partition takes
 * every change: each takes about 1/AUDIT_SHARDS of them (docs/safety.md, "How many
 * changes a second").
 *
 * The filtered lists read index partitions of their own, sorted the same way:
 *
 * | list                 | index (lib/db/table.ts) | partition               |
 * |----------------------|-------------------------|-------------------------|
 * | one actor            | cellByName              | AUDIT#A#<actor>         |
 * | one operation        | monthByName             | AUDIT#O#<operation id>  |
 * | one resource         | byResource              | AUDIT#R#<resource id>   |
 *
 * so that a filtered page reads only its own entries, however long the trail.
 *
 * An entry is put once and its contents never change. Until the change feed
 * has given it its place (lib/changes/sequencer.ts) it also carries a pending
 * mark, `gsi1pk` = `FEEDQ#<shard>`, which puts it in a sparse partition of
 * byName sorted by `<at><SEP><id>` (the entry's `gsi1sk`): the sequencer's
 * sweep finds there what the table's stream did not bring. Taking the mark
 * off, in the transaction that appends the entry to the feed, is the one
 * update an entry ever gets (only the sequencers may make it: infra/access.ts),
 * and its condition (the mark is still there) is what keeps a duplicate
 * delivery from giving one entry two places. No other index would take the
 * entry for its `gsi1pk`: byTime, departmentsByCount and groupsByCount sort
 * on attributes an entry lacks.
 */
import { PRIMARY_KEY, type Item, type Key } from '../db/table';
import { INDEXES } from '../db/table';
import type { IndexQuery } from '../db/query';
import * as attr from '../db/item-kind';
import { Update } from '../db/expression';
import { put, update, type Write } from '../db/transact';
import { newId } from '../ids';
import { RESOURCE_TYPES } from '../schemas/enums';
import type { AuditEntry } from '../schemas/responses';
import { KEY_SEPARATOR } from '../text';

export type { AuditEntry };

/** The partition keys of audit entries start with this (the stack lets no function change one by it). */
export const AUDIT_KEY_PREFIX = 'AUDIT#';

/**
 * Partitions of the whole trail: 4 × ~500 transactional entry writes a second is 2,000 changes a second, above
 * what other partitions a change writes already allow (one actor's or operation's index partition ~1,000, the
 * counters' ~500: docs/safety.md, "How many changes a second"); every shard costs each page of a whole-trail list one more
 * Query. Raising it needs no migration (readers read every shard below it, old entries included; cursors hold
 * places, not shards); lowering it would hide the entries of the shards dropped.
 */
export const AUDIT_SHARDS = 4;

/** The shard of an entry: from its id, random, so entries spread evenly. */
export function auditShard(id: string): number {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) >>> 0;
  return hash % AUDIT_SHARDS;
}

const auditSortKeyOf = (at: string, id: string) => `${at}${KEY_SEPARATOR}${id}`;

/** An entry's attributes as the lists give them: of the trail's items, and of the change feed's copies (lib/store/feed.ts). */
export const AUDIT_ENTRY_ATTRIBUTES = {
  id: attr.string,
  at: attr.string,
  actor: attr.string,
  operation: attr.string,
  resource_type: attr.oneOf(RESOURCE_TYPES),
  resource_id: attr.string,
  changes: attr.orElse(attr.map, Object.freeze({})),
};

const auditKind = attr.itemKind({
  type: 'audit',
  key: (at: string, id: string): Key => ({ pk: `${AUDIT_KEY_PREFIX}${auditShard(id)}`, sk: auditSortKeyOf(at, id) }),
  attributes: { ...AUDIT_ENTRY_ATTRIBUTES, request_id: attr.optional(attr.string) },
  indexAttributes: {
    gsi1pk: attr.optional(attr.string),
    gsi1sk: attr.string,
    gsi5pk: attr.string,
    gsi8pk: attr.string,
    gsi2pk: attr.string,
    gsi2sk: attr.string,
  },
});

export const auditKey = auditKind.key;

export type AuditAttribute = 'actor' | 'operation' | 'resource_id';

const PARTITIONS = {
  actor: { index: INDEXES.cellByName, attribute: 'gsi5pk', prefix: 'AUDIT#A#' },
  operation: { index: INDEXES.monthByName, attribute: 'gsi8pk', prefix: 'AUDIT#O#' },
  resource_id: { index: INDEXES.byResource, attribute: 'gsi2pk', prefix: 'AUDIT#R#' },
} as const satisfies Record<AuditAttribute, { index: IndexQuery['index']; attribute: string; prefix: string }>;

export interface AuditInput extends Omit<AuditEntry, 'id' | 'at'> {
  request_id: string;
}

/** Where an entry waits for its place in the change feed: a partition of byName per shard. */
const PENDING_PREFIX = 'FEEDQ#';

/** The index attributes of an entry: the whole trail is in the table's key; byName holds only entries still pending. */
function auditIndexAttributes(entry: { id: string; at: string; actor: string; operation: string; resource_id: string }) {
  const sortKey = auditSortKeyOf(entry.at, entry.id);
  return {
    gsi1pk: `${PENDING_PREFIX}${auditShard(entry.id)}`,
    gsi1sk: sortKey,
    [PARTITIONS.actor.attribute]: `${PARTITIONS.actor.prefix}${entry.actor}`,
    [PARTITIONS.operation.attribute]: `${PARTITIONS.operation.prefix}${entry.operation}`,
    [PARTITIONS.resource_id.attribute]: `${PARTITIONS.resource_id.prefix}${entry.resource_id}`,
    gsi2sk: sortKey,
  };
}

/** An entry as stored, pending mark included. */
export function auditItem(entry: AuditInput, at = new Date().toISOString(), id = newId()): Item {
  return auditKind.item(auditKey(at, id), { id, at, ...entry, ...auditIndexAttributes({ id, at, ...entry }) });
}

/** The entry's put, in the transaction of the change it records; `at` is when the change's writes are made. */
export const auditPut = (entry: AuditInput): Write => put(auditItem(entry));

export function toAuditEntry(item: Item): AuditEntry {
  const { request_id: _, ...entry } = auditKind.read(item);
  return entry;
}

/** Whether a stored item (a stream record's image, say) is an audit entry. */
export const isAuditItem = (item: Item | undefined): item is Item => auditKind.is(item);

/** The shard of a stored entry (its key says it). */
export const shardOfAuditItem = (item: Item) => auditShard(auditKind.attribute(item, 'id'));

/** The entries of one shard still waiting for their place in the change feed, oldest `at` first (byName: eventually consistent). */
export const pendingEntries = (shard: number): IndexQuery => ({ index: INDEXES.byName, partition: `${PENDING_PREFIX}${shard}` });

/** Takes an entry's pending mark off, only if it is still there (a failed condition: the entry has its place already). */
export function pendingMarkRemoval(item: Item): Write {
  const key = auditKey(auditKind.attribute(item, 'at'), auditKind.attribute(item, 'id'));
  return update(key, new Update().remove('gsi1pk').whenExists('gsi1pk'));
}

/** The shards of the whole trail. */
export function auditShards(): IndexQuery[] {
  return Array.from({ length: AUDIT_SHARDS }, (_, shard) => ({ index: PRIMARY_KEY, partition: `${AUDIT_KEY_PREFIX}${shard}` }));
}

/** The entries of one value of an attribute. */
export function auditList(filter: { attribute: AuditAttribute; value: string }): IndexQuery {
  const { index, prefix } = PARTITIONS[filter.attribute];
  return { index, partition: `${prefix}${filter.value}` };
}

/** The sort key of an entry in any of its lists (the table's `sk` holds the same). */
export const auditSortKey = (item: Item) => auditKind.attribute(item, 'gsi1sk');

/** An entry's place in the trail's order: its sort key, split. */
export const auditPosition = (at: string, id: string) => auditSortKeyOf(at, id);
