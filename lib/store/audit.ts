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
import { put, type Write } from '../db/transact';
import { newId } from '../ids';
import type { AuditEntry } from '../schemas/responses';
import { KEY_SEPARATOR } from '../text';

export type { AuditEntry };

export const auditKey = (id: string): Key => ({ pk: `AUDIT#${id}`, sk: 'AUDIT' });
const AUDIT_PARTITION = 'AUDIT';

export type AuditAttribute = 'actor' | 'operation' | 'resource_id';

const PARTITIONS: Record<AuditAttribute, { index: IndexQuery['index']; attribute: string; prefix: string }> = {
  actor: { index: INDEXES.cellByName, attribute: 'gsi5pk', prefix: 'AUDIT#A#' },
  operation: { index: INDEXES.monthByName, attribute: 'gsi8pk', prefix: 'AUDIT#O#' },
  resource_id: { index: INDEXES.byResource, attribute: 'gsi2pk', prefix: 'AUDIT#R#' },
};

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
  return put({ ...auditKey(id), type: 'audit', id, ...entry, ...auditIndexAttributes({ id, ...entry }) });
}

export const toAuditEntry = (item: Item): AuditEntry => ({
  id: String(item.id),
  at: String(item.at),
  actor: String(item.actor),
  operation: String(item.operation),
  resource_type: item.resource_type as AuditEntry['resource_type'],
  resource_id: String(item.resource_id),
  changes: (item.changes as Record<string, unknown>) ?? {},
});

/** The whole trail, or the entries of one value of an attribute. */
export function auditList(filter?: { attribute: AuditAttribute; value: string }): IndexQuery {
  if (!filter) return { index: INDEXES.byName, partition: AUDIT_PARTITION };
  const { index, prefix } = PARTITIONS[filter.attribute];
  return { index, partition: `${prefix}${filter.value}` };
}

/** The sort key of an entry in any of its lists. */
export const auditSortKey = (item: Item) => String(item.gsi1sk);
