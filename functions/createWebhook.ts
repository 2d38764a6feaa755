import { operation } from '../lib/http/operation';
import { createWebhookBody } from '../lib/schemas/webhooks';
import { createWebhook } from '../lib/webhooks/webhooks';

/** A new webhook; its signing secret is in this answer only. */
export const handler = operation('createWebhook', { body: createWebhookBody }, async ({ body, ctx }) => {
  const webhook = await createWebhook(ctx, body);
  return { status: 201, body: webhook, headers: { location: `/v2/webhooks/${webhook.id}` } };
});
