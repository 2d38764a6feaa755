/**
 * One attempt to deliver one event to one webhook: the address checked
 * again (a refused one is a failed attempt that says why), the event signed
 * at the attempt's time with the secrets that sign then, and posted.
 */
import { config } from '../config';
import type { StoredWebhook } from '../store/webhooks';
import { RefusedAddressError, systemResolver, type Resolver } from './address-guard';
import { deliveryAddress } from './endpoint';
import { ATTEMPT_TIMEOUT_MS, postDelivery, type AttemptOutcome } from './post';
import { signDelivery, signingSecrets, type WebhookEvent } from './signing';

/** What an attempt depends on, injected by tests: the clock, the resolver, the deployment's setting, the time limit. */
export interface AttemptDeps {
  now: () => Date;
  resolver: Resolver;
  allowLocal: boolean;
  timeoutMs: number;
}

/** The deployment's: the real clock and resolver, WEBHOOKS_ALLOW_LOCAL, 10 s. */
export const deployedAttemptDeps = (): AttemptDeps => ({
  now: () => new Date(),
  resolver: systemResolver,
  allowLocal: config().webhooksAllowLocal,
  timeoutMs: ATTEMPT_TIMEOUT_MS,
});

/** `messageId` is the `webhook-id`: the change's id, the same on every retry. */
export async function attemptDelivery(
  webhook: StoredWebhook,
  messageId: string,
  event: WebhookEvent,
  deps: AttemptDeps,
): Promise<AttemptOutcome> {
  const url = new URL(webhook.url);
  let address;
  try {
    address = await deliveryAddress(url, { allowLocal: deps.allowLocal, resolver: deps.resolver });
  } catch (error) {
    if (!(error instanceof RefusedAddressError)) throw error;
    return { ok: false, status_code: null, duration_ms: 0, error: `refused: ${error.message}` };
  }
  const now = deps.now();
  return postDelivery(url, address, signDelivery(messageId, event, signingSecrets(webhook, now), now), deps.timeoutMs);
}
