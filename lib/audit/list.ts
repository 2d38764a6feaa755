/**
 * GET /v2/audit: the audit trail newest first. `since`/`before` become a key
 * range, so a bounded window reads only its own entries; the filters
 * (actor, operation, resource_id) are applied over that window. The total
 * counts the matching entries of the window: without `since`, that is the
 * whole trail, so scripts that page through a large trail should bound it.
 */
import { countMatches, orderedPage } from '../db/query';
import { validationError } from '../problems';
import { auditList, auditTime, toAuditEntry, type AuditFilters } from '../store/audit';

export interface AuditListRequest {
  count: number;
  offset: number;
  filters: AuditFilters;
  since?: string;
  before?: string;
}

export async function listAudit(request: AuditListRequest) {
  const { since, before } = request;
  if (since !== undefined && before !== undefined && since >= before) {
    throw validationError([{ field: 'before', message: 'must be later than since' }]);
  }
  const query = auditList({ since, before }, request.filters);
  const [items, total] = await Promise.all([
    orderedPage({ queries: [query], offset: request.offset, count: request.count, descending: true, sortGroup: auditTime }),
    countMatches([query]),
  ]);
  const entries = items.map(toAuditEntry);
  return { entries, total, count: entries.length, offset: request.offset };
}
