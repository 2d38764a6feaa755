import { listAudit } from '../lib/audit/list';
import { auditListRequest } from '../lib/http/list-params';
import { nextLink } from '../lib/http/link';
import { operation } from '../lib/http/operation';
import { auditListQuery } from '../lib/schemas/audit';

/** The audit trail, newest first. */
export const handler = operation('listAudit', { query: auditListQuery }, async ({ query, path, rawQuery }) => {
  const page = await listAudit(auditListRequest(query));
  return { body: page, headers: nextLink(path, rawQuery, page.next_cursor) };
});
