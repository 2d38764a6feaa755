/**
 * The delivery function's work, one queue message at a time (the shapes:
 * lib/webhooks/messages.ts). At least once, never lost:
 *
 * - A `change` is attempted at once for every webhook that receives it
 *   (filters match, not disabled, not left to a replay). A failed attempt
 *   sends its retry (`attempt` n + 1, due per lib/webhooks/schedule.ts) to the
 *   queue BEFORE the message is done with: any error before that (the
 *   database, the queue) fails the message, which SQS delivers again, so
 *   every webhook is attempted again. That repeats attempts that went
 *   through (a duplicate with the same `webhook-id`, which the receiver can
 *   drop) and loses none.
 * - A retry received before it is due is sent again with the rest of its
 *   wait (SQS delays 15 minutes at most). The last attempt's failure records
 *   the delivery as failed; the feed still holds the change.
 * - Pause: a change at or after `paused_at` of a paused webhook is not
 *   attempted, and a change in the window [paused_at, resumed_at) of a
 *   resumed one is not attempted by the fan-out: the replay of that window
 *   (lib/webhooks/replay.ts) delivers it, from the change feed, which never
 *   skips one, until the replay has reached the feed's end; from then on
 *   the fan-out delivers the window's changes that reach it late. The two
 *   sides split the changes by the same `at` bounds, read from the same
 *   webhook item, so each change is the fan-out's or the replay's (or, at
 *   the hand-over, both: it arrives twice). A change made before the pause is still delivered, and
 *   retried, while paused: it is not new. A retry of a change held by a
 *   pause is dropped: the replay delivers it.
 * - A disabled webhook gets nothing; deleting a webhook drops its retries.
 */
import type { AuditEntry } from '../schemas/responses';
import {
  findWebhook,
  findWebhookHealth,
  listStoredWebhooks,
  recordAttempt,
  webhookHealths,
  type StoredWebhook,
  type WebhookHealth,
} from '../store/webhooks';
import { newId } from '../ids';
import { recordMetric } from '../metrics';
import { attemptDelivery, type AttemptDeps } from './attempt';
import { matchesFilters } from './filters';
import { noteFailure, noteSuccess } from './health';
import type { AttemptMessage, Enqueue, WebhookMessage } from './messages';
import { replayChanges, type ChangeFeed } from './replay';
import { nextAttemptAt, queueDelaySeconds } from './schedule';
import { changeEvent } from './signing';

export interface DeliveryDeps extends AttemptDeps {
  enqueue: Enqueue;
  feed: ChangeFeed;
}

/** A retry received within this of its due time is attempted (SQS delays by whole seconds). */
const DUE_SLACK_MS = 1000;

/**
 * Whether the fan-out leaves a change of this time to a replay: made while paused, or in the window a resume
 * replays, until that replay has reached the feed's end (`replayedUntil`, lib/webhooks/replay.ts).
 */
export function leftToReplay(
  webhook: Pick<StoredWebhook, 'status' | 'paused_at' | 'resumed_at'>,
  at: string,
  replayedUntil: string | null = null,
): boolean {
  if (webhook.paused_at === null) return false;
  if (webhook.status === 'paused') return at >= webhook.paused_at;
  return webhook.resumed_at !== null && webhook.paused_at <= at && at < webhook.resumed_at && replayedUntil !== webhook.resumed_at;
}

/** Whether a pause holds a retry of a change of this time (the replay at the resume delivers it). */
const heldByPause = (webhook: StoredWebhook, at: string) =>
  webhook.status === 'paused' && webhook.paused_at !== null && at >= webhook.paused_at;

export async function handleMessage(message: WebhookMessage, deps: DeliveryDeps): Promise<void> {
  switch (message.kind) {
    case 'change':
      return fanOut(message.change, deps);
    case 'attempt':
      return retry(message, deps);
    case 'replay':
      return replayChanges(message, deps);
  }
}

async function fanOut(change: AuditEntry, deps: DeliveryDeps): Promise<void> {
  const webhooks = await listStoredWebhooks();
  if (webhooks.length === 0) return;
  const healths = await webhookHealths(webhooks.map((webhook) => webhook.id));
  const receivers = webhooks.filter((webhook) => {
    const health = healths.get(webhook.id)!;
    return !health.disabled_at && matchesFilters(webhook, change) && !leftToReplay(webhook, change.at, health.replayed_until);
  });
  // Every receiver is attempted even when one fails to record: the message fails after, and is delivered again.
  const settled = await Promise.allSettled(receivers.map((webhook) => deliver(webhook, healths.get(webhook.id)!, change, 1, deps)));
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

async function retry(message: AttemptMessage, deps: DeliveryDeps): Promise<void> {
  const now = deps.now();
  const due = new Date(message.due_at);
  if (due.getTime() - now.getTime() > DUE_SLACK_MS) {
    await deps.enqueue([{ body: message, delaySeconds: queueDelaySeconds(due, now) }]);
    return;
  }
  const [webhook, health] = await Promise.all([findWebhook(message.webhook_id), findWebhookHealth(message.webhook_id)]);
  if (!webhook || health.disabled_at || !matchesFilters(webhook, message.change) || heldByPause(webhook, message.change.at)) return;
  await deliver(webhook, health, message.change, message.attempt, deps);
}

/** Attempt `attempt` of one change to one webhook: recorded, and on failure its retry queued or the webhook disabled. */
async function deliver(
  webhook: StoredWebhook,
  health: WebhookHealth,
  change: AuditEntry,
  attempt: number,
  deps: DeliveryDeps,
): Promise<void> {
  const at = deps.now();
  const outcome = await attemptDelivery(webhook, change.id, changeEvent(change), deps);
  recordMetric('webhookAttempts', 1, { Outcome: outcome.ok ? 'delivered' : 'failed' });
  let next: Date | null = null;
  if (outcome.ok) await noteSuccess(webhook.id, health);
  else {
    const now = deps.now();
    const disabled = await noteFailure(webhook.id, at, now);
    next = disabled ? null : nextAttemptAt(attempt, now);
    if (next) {
      const retryMessage: AttemptMessage = {
        kind: 'attempt',
        webhook_id: webhook.id,
        change,
        attempt: attempt + 1,
        due_at: next.toISOString(),
      };
      await deps.enqueue([{ body: retryMessage, delaySeconds: queueDelaySeconds(next, now) }]);
    }
  }
  await recordAttempt({
    id: newId(),
    webhook_id: webhook.id,
    change_id: change.id,
    at: at.toISOString(),
    attempt,
    status_code: outcome.status_code,
    duration_ms: outcome.duration_ms,
    error: outcome.error,
    next_attempt_at: next?.toISOString() ?? null,
  });
}
