import { operation } from '../lib/http/operation';
import { webhookParams } from '../lib/schemas/webhooks';
import { webhook } from '../lib/webhooks/webhooks';

export const handler = operation('getWebhook', { params: webhookParams }, async ({ params }) => ({
  body: await webhook(params.webhook_id),
}));
