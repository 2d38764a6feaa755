/**
 * Audit entries: `AUDIT#<id>` / `AUDIT`, each put in the transaction of the
 * change it records, and listed newest first from these index partitions,
 * all sorted by `<at><SEP><id>`:
 *
 * | list                 | index (lib/db/table.ts) | partition               |
 * |----------------------|-------------------------|-------------------------|
 * | the whole trail      | byName                  | AUDIT                   |
 * | one actor            | cellByName              | AUDIT#A#<actor>         |
 * | one operation        | monthByName             | AUDIT#O#<operation id>  |
 * | one resource         | byResource              | AUDIT#R#<resource id>   |
 *
 * so that a filtered page reads only its own entries, however long the trail.
 */
import type { IndexQuery } from '../db/query';
import { INDEXES, type Item, type Key } from '../db/table';
import * as attr from '../db/item-kind';
import { put, type Write } from '../db/transact';
import { newId } from '../ids';
import { RESOURCE_TYPES } from '../schemas/enums';
import type { AuditEntry } from '../schemas/responses';
import { KEY_SEPARATOR } from '../text';

export type { AuditEntry };

/** The partition keys of audit entries start with this (the stack lets no function change one by it). */
export const AUDIT_KEY_PREFIX = 'AUDIT#';

const auditKind = attr.itemKind({
  type: 'audit',
  key: (id: string): Key => ({ pk: `${AUDIT_KEY_PREFIX}${id}`, sk: 'AUDIT' }),
  attributes: {
    id: attr.string,
    at: attr.string,
    actor: attr.string,
    operation: attr.string,
    resource_type: attr.oneOf(RESOURCE_TYPES),
    resource_id: attr.string,
    changes: attr.orElse(attr.map, Object.freeze({})),
    request_id: attr.optional(attr.string),
  },
  indexAttributes: {
    gsi1pk: attr.string,
    gsi1sk: attr.string,
    gsi5pk: attr.string,
    gsi8pk: attr.string,
    gsi2pk: attr.string,
    gsi2sk: attr.string,
  },
});

export const auditKey = auditKind.key;
const AUDIT_PARTITION = 'AUDIT';

export type AuditAttribute = 'actor' | 'operation' | 'resource_id';

const PARTITIONS = {
  actor: { index: INDEXES.cellByName, attribute: 'gsi5pk', prefix: 'AUDIT#A#' },
  operation: { index: INDEXES.monthByName, attribute: 'gsi8pk', prefix: 'AUDIT#O#' },
  resource_id: { index: INDEXES.byResource, attribute: 'gsi2pk', prefix: 'AUDIT#R#' },
} as const satisfies Record<AuditAttribute, { index: IndexQuery['index']; attribute: string; prefix: string }>;

export interface AuditInput extends Omit<AuditEntry, 'id'> {
  request_id: string;
}

/** The index attributes of an entry. */
export function auditIndexAttributes(entry: { id: string; at: string; actor: string; operation: string; resource_id: string }) {
  const sortKey = `${entry.at}${KEY_SEPARATOR}${entry.id}`;
  return {
    gsi1pk: AUDIT_PARTITION,
    gsi1sk: sortKey,
    [PARTITIONS.actor.attribute]: `${PARTITIONS.actor.prefix}${entry.actor}`,
    [PARTITIONS.operation.attribute]: `${PARTITIONS.operation.prefix}${entry.operation}`,
    [PARTITIONS.resource_id.attribute]: `${PARTITIONS.resource_id.prefix}${entry.resource_id}`,
    gsi2sk: sortKey,
  };
}

export function auditPut(entry: AuditInput): Write {
  const id = newId();
  return put(auditKind.item(auditKey(id), { id, ...entry, ...auditIndexAttributes({ id, ...entry }) }));
}

export function toAuditEntry(item: Item): AuditEntry {
  const { request_id: _, ...entry } = auditKind.read(item);
  return entry;
}

/** The whole trail, or the entries of one value of an attribute. */
export function auditList(filter?: { attribute: AuditAttribute; value: string }): IndexQuery {
  if (!filter) return { index: INDEXES.byName, partition: AUDIT_PARTITION };
  const { index, prefix } = PARTITIONS[filter.attribute];
  return { index, partition: `${prefix}${filter.value}` };
}

/** The sort key of an entry in any of its lists. */
export const auditSortKey = (item: Item) => auditKind.attribute(item, 'gsi1sk');
