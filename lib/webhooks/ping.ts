/**
 * A test ping (POST /v2/webhooks/{id}/test): a `ping` event sent now, whatever
 * the webhook's status, signed like every delivery, with the same checks;
 * the attempt is answered and kept in the delivery log. It does not count
 * toward the webhook's health: a test says nothing of the changes' deliveries.
 */
import { newId } from '../ids';
import type { WebhookDelivery } from '../schemas/responses';
import { findWebhook, recordAttempt } from '../store/webhooks';
import { attemptDelivery, deployedAttemptDeps, type AttemptDeps } from './attempt';
import { webhookNotFound } from './webhooks';

export async function pingWebhook(id: string, deps: AttemptDeps = deployedAttemptDeps()): Promise<WebhookDelivery> {
  const webhook = await findWebhook(id);
  if (!webhook) throw webhookNotFound(id);
  const at = deps.now().toISOString();
  const pingId = `ping_${newId()}`;
  const outcome = await attemptDelivery(webhook, pingId, { type: 'ping', timestamp: at, data: { webhook_id: id } }, deps);
  const delivery: WebhookDelivery = {
    id: newId(),
    change_id: pingId,
    at,
    attempt: 1,
    status_code: outcome.status_code,
    duration_ms: outcome.duration_ms,
    error: outcome.error,
    next_attempt_at: null,
  };
  await recordAttempt({ ...delivery, webhook_id: id });
  return delivery;
}
