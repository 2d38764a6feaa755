/**
 * A webhook's health, kept by the delivery function in its own item
 * (lib/store/webhooks.ts): the first failed attempt since the last success
 * starts `failing_since` (set only if absent), a success clears it, and an
 * endpoint whose every attempt failed for 24 hours is disabled: one
 * transaction sets `disabled_at` under the condition that it is not set and
 * the failures began 24 hours ago, and puts the audit entry that says so
 * (actor `system`), so concurrent deliveries disable it once, audited once.
 */
import { recordChange } from '../audit/context';
import { isSignal, signal } from '../db/errors';
import { transactWrite } from '../db/transact';
import { newId } from '../ids';
import { recordMetric } from '../metrics';
import { SYSTEM_ACTOR } from '../schemas/enums';
import { findWebhookHealth, recordWebhookFailure, recordWebhookSuccess, webhookDisable, type WebhookHealth } from '../store/webhooks';
import { DISABLE_AFTER_FAILING_MS, failedTooLong } from './schedule';

export async function noteSuccess(webhookId: string, health: WebhookHealth): Promise<void> {
  if (health.failing_since !== null) await recordWebhookSuccess(webhookId);
}

/** Records a failed attempt made at `at`; answers whether the webhook is now disabled (by this failure or another). */
export async function noteFailure(webhookId: string, at: Date, now: Date): Promise<boolean> {
  const health = await recordWebhookFailure(webhookId, at.toISOString());
  if (health.disabled_at !== null) return true;
  if (health.failing_since === null || !failedTooLong(health.failing_since, now)) return false;
  const disabledAt = now.toISOString();
  try {
    await transactWrite([
      webhookDisable(webhookId, disabledAt, new Date(now.getTime() - DISABLE_AFTER_FAILING_MS).toISOString(), () => signal('not-disabled')),
      recordChange(
        { actor: SYSTEM_ACTOR, operationId: 'disableWebhook', requestId: `webhook-delivery-${newId()}` },
        {
          resourceType: 'webhook',
          resourceId: webhookId,
          changes: {
            status: { from: 'active', to: 'disabled' },
            failing_since: health.failing_since,
            reason: 'every delivery attempt failed for 24 hours',
          },
        },
      ),
    ]);
    recordMetric('webhooksDisabled', 1, {});
    return true;
  } catch (error) {
    if (!isSignal(error, 'not-disabled')) throw error;
    // Another delivery disabled it first, or a success or a re-enabling came between.
    return (await findWebhookHealth(webhookId)).disabled_at !== null;
  }
}
