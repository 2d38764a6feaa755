import { listAudit } from '../lib/audit/list';
import { auditListRequest } from '../lib/http/list-params';
import { operation } from '../lib/http/operation';
import { auditListQuery } from '../lib/schemas/audit';

/** The audit trail, newest first. */
export const handler = operation('listAudit', { query: auditListQuery }, async ({ query }) => ({
  body: await listAudit(auditListRequest(query)),
}));
