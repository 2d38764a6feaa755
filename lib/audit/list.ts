/**
 * GET /v2/audit: the audit trail, newest first, by cursor (a log that only
 * grows has no total and no offset). The whole trail is a merge of its
 * shards; each filter value is an index partition of its own
 * (lib/store/audit.ts), so a page reads its own entries whatever the length
 * of the trail: several values of one attribute merge their partitions; with
 * several attributes, the partitions of the first of resource_id, actor,
 * operation are read and the others filter them (that read grows with how
 * few of its entries the others keep). `since`/`before` are a key range.
 */
import { allOf, oneOf, type IndexQuery } from '../db/query';
import { decodeCursor, encodeCursor } from '../lists/cursor';
import { readPage } from '../lists/streams';
import { validationError } from '../problems';
import { auditList, auditShards, auditSortKey, toAuditEntry, type AuditAttribute, type AuditEntry } from '../store/audit';

export interface AuditListRequest {
  count: number;
  cursor?: string;
  /** Accepted values per attribute: any value of an attribute (OR), every attribute (AND). */
  filters: Partial<Record<AuditAttribute, string[]>>;
  since?: string;
  before?: string;
}

export interface AuditPage {
  entries: AuditEntry[];
  count: number;
  next_cursor: string | null;
}

/** The attribute whose partitions a filtered list reads: the likeliest to be narrow first. */
const READ_ORDER: AuditAttribute[] = ['resource_id', 'actor', 'operation'];

export async function listAudit(request: AuditListRequest): Promise<AuditPage> {
  const { since, before, filters } = request;
  if (since !== undefined && before !== undefined && since >= before) {
    throw validationError([{ field: 'before', message: 'must be later than since' }]);
  }
  const list = JSON.stringify(['audit', since ?? null, before ?? null, READ_ORDER.map((a) => [...(filters[a] ?? [])].sort())]);
  const state = request.cursor === undefined ? undefined : decodeCursor(list, request.cursor);
  const readBy = READ_ORDER.find((attribute) => filters[attribute]?.length);
  const residual = allOf(
    READ_ORDER.filter((attribute) => attribute !== readBy && filters[attribute]?.length).map((attribute, i) =>
      oneOf(attribute, filters[attribute]!, `f${i}`),
    ),
  );
  // Keys are `<at><SEP><id>`: `since` includes its time, `before` excludes its own.
  const bounds = { from: since, to: before };
  const partitions: IndexQuery[] = readBy ? filters[readBy]!.map((value) => auditList({ attribute: readBy, value })) : auditShards();
  const sources = partitions.map((query) => ({
    query: { ...query, filter: residual },
    bounds,
    // The shards share the trail evenly; one filter value's partition is the list.
    expected: 1,
    selectivity: residual ? 0.5 : 1,
  }));
  const page = await readPage({ sources, direction: 'desc', sortKey: auditSortKey, after: state?.after, skip: 0, take: request.count });
  const entries = page.items.map(toAuditEntry);
  return {
    entries,
    count: entries.length,
    next_cursor: page.next ? encodeCursor(list, { after: page.next, offset: 0 }) : null,
  };
}
