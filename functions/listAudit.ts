import { listAudit } from '../lib/domain/audit-list';
import { operation } from '../lib/http/operation';
import { auditListQuery } from '../lib/schemas/audit';

/** The audit trail, newest first. */
export const handler = operation({ operationId: 'listAudit', query: auditListQuery }, async ({ query }) => ({
  body: await listAudit(query),
}));
