import { operation } from '../lib/http/operation';
import { webhooks } from '../lib/webhooks/webhooks';

export const handler = operation('listWebhooks', {}, async () => ({ body: { webhooks: await webhooks() } }));
