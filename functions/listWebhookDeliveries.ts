import { nextLink } from '../lib/http/link';
import { operation } from '../lib/http/operation';
import { webhookDeliveriesQuery, webhookParams } from '../lib/schemas/webhooks';
import { webhookDeliveries } from '../lib/webhooks/deliveries';

/** A webhook's delivery attempts, newest first. */
export const handler = operation(
  'listWebhookDeliveries',
  { params: webhookParams, query: webhookDeliveriesQuery },
  async ({ params, query, path, rawQuery }) => {
    const page = await webhookDeliveries(params.webhook_id, query);
    return { body: page, headers: nextLink(path, rawQuery, page.next_cursor) };
  },
);
