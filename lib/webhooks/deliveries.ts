/**
 * A webhook's delivery log (GET /v2/webhooks/{id}/deliveries): its attempts
 * of the last 30 days, newest first, by cursor. A page is one Query of the
 * webhook's own partition, however long the log.
 */
import { decodeCursor, encodeCursor } from '../lists/cursor';
import { validationError } from '../problems';
import type { WebhookDelivery } from '../schemas/responses';
import { attemptPage, findWebhook, isAttemptSortKey } from '../store/webhooks';
import { webhookNotFound } from './webhooks';

export interface DeliveryPage {
  deliveries: WebhookDelivery[];
  count: number;
  next_cursor: string | null;
}

export async function webhookDeliveries(id: string, request: { count: number; cursor?: string }): Promise<DeliveryPage> {
  const list = JSON.stringify(['webhook-deliveries', id]);
  const after = request.cursor === undefined ? undefined : decodeCursor(list, request.cursor).after.field;
  if (after !== undefined && !isAttemptSortKey(after)) throw validationError([{ field: 'cursor', message: 'cannot be read' }]);
  if (!(await findWebhook(id))) throw webhookNotFound(id);
  const page = await attemptPage(id, request.count, after);
  const deliveries = page.attempts.map(({ webhook_id: _webhook, ...delivery }) => delivery);
  return {
    deliveries,
    count: deliveries.length,
    next_cursor: page.last === undefined ? null : encodeCursor(list, { after: { field: page.last, id }, offset: 0 }),
  };
}
