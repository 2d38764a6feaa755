/**
 * When a failed delivery is tried again: Standard Webhooks' recommended
 * schedule, at once, then 5 seconds, 5 minutes, 30 minutes, 2, 5, 10 and 10
 * hours after each failure (8 attempts over 27 hours and a half, more than
 * the 24 hours the contract asks), then the change is recorded as failed
 * (the change feed still holds it). An endpoint whose every attempt failed
 * for 24 hours is disabled.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The wait after failed attempt n (1-based) before attempt n + 1. */
export const RETRY_DELAYS_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** An endpoint that failed every attempt for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 24 * HOUR;

/** When attempt `attempt + 1` is due after attempt `attempt` failed at `failedAt`; null when it was the last. */
export function nextAttemptAt(attempt: number, failedAt: Date): Date | null {
  const delay = RETRY_DELAYS_MS[attempt - 1];
  return delay === undefined ? null : new Date(failedAt.getTime() + delay);
}

/** SQS delays a message at most 15 minutes: a later attempt is re-sent on receipt until it is due. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/** The delay to send a message due at `due` with, at `now`. */
export function queueDelaySeconds(due: Date, now: Date): number {
  return Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil((due.getTime() - now.getTime()) / SECOND)));
}

/** Whether an endpoint failing since `failingSince` has failed long enough to be disabled at `now`. */
export const failedTooLong = (failingSince: string, now: Date) => now.getTime() - Date.parse(failingSince) >= DISABLE_AFTER_FAILING_MS;
