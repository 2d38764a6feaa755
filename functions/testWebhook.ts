import { operation } from '../lib/http/operation';
import { webhookParams } from '../lib/schemas/webhooks';
import { pingWebhook } from '../lib/webhooks/ping';

export const handler = operation('testWebhook', { params: webhookParams }, async ({ params }) => ({
  body: await pingWebhook(params.webhook_id),
}));
