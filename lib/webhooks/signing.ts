/**
 * What a delivery carries, as the Standard Webhooks specification says, signed
 * with its maintainers' library (`standardwebhooks`), the one receivers verify
 * with: the body `{"type", "timestamp", "data"}`, and the headers
 * `webhook-id` (the change's id, so the same on every retry and a receiver
 * can drop a repeat), `webhook-timestamp` (when this attempt was signed:
 * receivers refuse one more than 5 minutes off, so each retry is signed
 * afresh) and `webhook-signature`: `v1,<base64 HMAC-SHA256>` by each secret
 * that signs now, space-separated (the current one, and for 24 hours after a
 * rotation the previous one, so a receiver can switch at any moment).
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { AuditEntry } from '../schemas/responses';

/** How long the secret before a rotation still signs. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/** A new signing secret as Standard Webhooks writes one: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** What a webhook signs with; the previous secret until it expires. */
export interface SigningSecrets {
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
}

/** The secrets that sign at `now`. */
export function signingSecrets(webhook: SigningSecrets, now: Date): string[] {
  const { secret, previous_secret, previous_secret_expires_at } = webhook;
  const previousValid =
    previous_secret !== null && previous_secret_expires_at !== null && now.getTime() < Date.parse(previous_secret_expires_at);
  return previousValid ? [secret, previous_secret] : [secret];
}

/** The events a webhook receives. */
export type WebhookEvent =
  { type: 'change.recorded'; timestamp: string; data: AuditEntry } | { type: 'ping'; timestamp: string; data: { webhook_id: string } };

/** A change as its event: `timestamp` is the change's own time, the same on every retry. */
export const changeEvent = (change: AuditEntry): WebhookEvent => ({ type: 'change.recorded', timestamp: change.at, data: change });

export interface SignedDelivery {
  body: string;
  headers: Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature' | 'content-type', string>;
}

/** The body and headers of one attempt, signed at `now` by each of `secrets`. */
export function signDelivery(messageId: string, event: WebhookEvent, secrets: string[], now: Date): SignedDelivery {
  const body = JSON.stringify(event);
  const signatures = secrets.map((secret) => new Webhook(secret).sign(messageId, now, body));
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': messageId,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signatures.join(' '),
    },
  };
}
