/**
 * Audit entries: `AUDIT#<id>` / `AUDIT`, listed newest first from index
 * partition AUDIT (byName), sorted by `<at>#<id>`. Each is put in the
 * transaction of the change it records.
 */
import type { Filter, IndexQuery } from '../db/query';
import { INDEXES, type Item, type Key } from '../db/table';
import { put, type Write } from '../db/transact';
import { newId } from '../ids';
import type { AuditEntry } from '../schemas/responses';

export type { AuditEntry };

export const auditKey = (id: string): Key => ({ pk: `AUDIT#${id}`, sk: 'AUDIT' });
const AUDIT_PARTITION = 'AUDIT';

export interface AuditInput extends Omit<AuditEntry, 'id'> {
  request_id: string;
}

export function auditPut(entry: AuditInput): Write {
  const id = newId();
  return put({ ...auditKey(id), type: 'audit', id, ...entry, gsi1pk: AUDIT_PARTITION, gsi1sk: `${entry.at}#${id}` });
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

/** Attributes a list may filter on, each a set of accepted values (OR), all of them (AND). */
export type AuditFilters = Partial<Record<'actor' | 'operation' | 'resource_id', string[]>>;

function auditFilter(filters: AuditFilters): Filter | undefined {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const clauses = Object.entries(filters).map(([attribute, wanted], a) => {
    names[`#f${a}`] = attribute;
    const either = wanted.map((value, v) => {
      values[`:f${a}_${v}`] = value;
      return `#f${a} = :f${a}_${v}`;
    });
    return `(${either.join(' OR ')})`;
  });
  return clauses.length > 0 ? { expression: clauses.join(' AND '), names, values } : undefined;
}

/** The trail, `since` (inclusive) to `before` (exclusive), filtered. */
export function auditList(window: { since?: string; before?: string }, filters: AuditFilters): IndexQuery {
  const lastIncluded = window.before === undefined ? undefined : new Date(Date.parse(window.before) - 1).toISOString();
  return {
    index: INDEXES.byName,
    partition: AUDIT_PARTITION,
    sortKeyBetween: { from: window.since, to: lastIncluded === undefined ? undefined : `${lastIncluded}#\uffff` },
    filter: auditFilter(filters),
  };
}

/** The part of the index sort key that is the entry's time (ties are runs of equal times). */
export const auditTime = (item: Item) => String(item.at);
