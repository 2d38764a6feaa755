/**
 * GET /v2/audit: the audit trail newest first, read from index partition
 * AUDIT (sorted by `<at>#<id>`). `since`/`before` become a key range, so a
 * bounded window reads only its own entries; `query` filters (actor,
 * operation, resource_id) are filter expressions over that window. The total
 * counts the matching entries of the window: without `since`, that is the
 * whole trail, so scripts that page through a large trail should bound it.
 */
import { AUDIT_PARTITION } from '../db/keys';
import { countMatches, orderedPage, type Filter, type IndexQuery, type Item } from '../db/query';
import { INDEXES } from '../db/table';
import { validationError } from '../errors';
import { parseFilter } from '../list-params';

export const AUDIT_FILTER_ATTRIBUTES = ['actor', 'operation', 'resource_id'] as const;

export interface AuditListParams {
  count: number;
  offset: number;
  query?: string;
  since?: string;
  before?: string;
}

export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  operation: string;
  resource_type: string;
  resource_id: string;
  changes: Record<string, unknown>;
}

const toEntry = (item: Item): AuditEntry => ({
  id: String(item.id),
  at: String(item.at),
  actor: String(item.actor),
  operation: String(item.operation),
  resource_type: String(item.resource_type),
  resource_id: String(item.resource_id),
  changes: (item.changes as Record<string, unknown>) ?? {},
});

function auditFilter(raw: string | undefined): Filter | undefined {
  const filters = parseFilter(raw, AUDIT_FILTER_ATTRIBUTES);
  if (filters.size === 0) return undefined;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const clauses = [...filters].map(([attribute, wanted], a) => {
    names[`#f${a}`] = attribute;
    const either = wanted.map((value, v) => {
      values[`:f${a}_${v}`] = value;
      return `#f${a} = :f${a}_${v}`;
    });
    return `(${either.join(' OR ')})`;
  });
  return { expression: clauses.join(' AND '), names, values };
}

/** The key range for `since` (inclusive) and `before` (exclusive), as `<at>#<id>` bounds. */
function window(since?: string, before?: string): IndexQuery['sortKeyBetween'] {
  if (since !== undefined && before !== undefined && since >= before) {
    throw validationError([{ field: 'before', message: 'must be later than since' }]);
  }
  const lastIncluded = before === undefined ? undefined : new Date(Date.parse(before) - 1).toISOString();
  return { from: since, to: lastIncluded === undefined ? undefined : `${lastIncluded}#\uffff` };
}

export async function listAudit(params: AuditListParams) {
  const query: IndexQuery = {
    index: INDEXES.byName,
    partition: AUDIT_PARTITION,
    sortKeyBetween: window(params.since, params.before),
    filter: auditFilter(params.query),
  };
  const [items, total] = await Promise.all([
    orderedPage({ queries: [query], offset: params.offset, count: params.count, descending: true, sortGroup: (item) => String(item.at) }),
    countMatches([query]),
  ]);
  const entries = items.map(toEntry);
  return { entries, total, count: entries.length, offset: params.offset };
}
