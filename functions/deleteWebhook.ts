import { operation } from '../lib/http/operation';
import { webhookParams } from '../lib/schemas/webhooks';
import { deleteWebhook } from '../lib/webhooks/webhooks';

export const handler = operation('deleteWebhook', { params: webhookParams }, async ({ params, ctx }) => {
  await deleteWebhook(ctx, params.webhook_id);
  return { status: 204 };
});
