import { sendToWebhookQueue } from '../lib/aws/sqs';
import { operation } from '../lib/http/operation';
import { updateWebhookBody, webhookParams } from '../lib/schemas/webhooks';
import { updateWebhook } from '../lib/webhooks/update';

/** A resume sends the replay of the paused window to the delivery queue. */
export const handler = operation('updateWebhook', { params: webhookParams, body: updateWebhookBody }, async ({ params, body, ctx }) => ({
  body: await updateWebhook(ctx, params.webhook_id, body, { enqueue: sendToWebhookQueue }),
}));
