import { operation } from '../lib/http/operation';
import { webhookParams } from '../lib/schemas/webhooks';
import { rotateWebhookSecret } from '../lib/webhooks/webhooks';

/** The new secret is in this answer only; the old one signs too for 24 hours. */
export const handler = operation('rotateWebhookSecret', { params: webhookParams }, async ({ params, ctx }) => ({
  body: await rotateWebhookSecret(ctx, params.webhook_id),
}));
