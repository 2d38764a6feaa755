/**
 * Webhooks as administrators manage them (contract: "Following changes"):
 * registered with a URL the SSRF guard accepts, at most MAX_WEBHOOKS (a
 * counter's condition in the creation's transaction holds the limit), read
 * without their secrets, a secret rotated with a 24-hour overlap, deleted.
 * Every change is audited as resource type `webhook`, never with a secret.
 * Changing one (and pausing and resuming) is lib/webhooks/update.ts.
 */
import { recordChange, type ChangeContext } from '../audit/context';
import { config } from '../config';
import { transactWrite, withFreshRead } from '../db/transact';
import { newId } from '../ids';
import { conflict, notFound } from '../problems';
import type { Webhook } from '../schemas/responses';
import { MAX_WEBHOOKS, type CreateWebhookBody } from '../schemas/webhooks';
import {
  findWebhook,
  findWebhookHealth,
  listStoredWebhooks,
  webhookChange,
  webhookCreate,
  webhookDelete,
  webhookHealths,
  type StoredWebhook,
  type WebhookHealth,
} from '../store/webhooks';
import { systemResolver } from './address-guard';
import { checkOperations } from './filters';
import { checkEndpoint, type EndpointPolicy } from './endpoint';
import { newWebhookSecret, ROTATION_OVERLAP_MS } from './signing';

/** The deployment's endpoint policy: WEBHOOKS_ALLOW_LOCAL, and the system's resolver. */
export const deployedEndpointPolicy = (): EndpointPolicy => ({ allowLocal: config().webhooksAllowLocal, resolver: systemResolver });

export const webhookNotFound = (id: string) => notFound('Webhook', id);

/** A webhook as answered: no secret; `disabled` when the service disabled it, whatever it was set to. */
export function webhookView(webhook: StoredWebhook, health: WebhookHealth): Webhook {
  return {
    id: webhook.id,
    url: webhook.url,
    description: webhook.description,
    resource_types: webhook.resource_types,
    operations: webhook.operations,
    exclude_actors: webhook.exclude_actors,
    status: health.disabled_at ? 'disabled' : webhook.status,
    created_at: webhook.created_at,
    updated_at: webhook.updated_at,
    disabled_at: health.disabled_at,
  };
}

/** What the audit trail records of a webhook's settings: everything but its secrets. */
export const auditedSettings = (
  webhook: Pick<StoredWebhook, 'url' | 'description' | 'resource_types' | 'operations' | 'exclude_actors'>,
) => ({
  url: webhook.url,
  description: webhook.description,
  resource_types: webhook.resource_types,
  operations: webhook.operations,
  exclude_actors: webhook.exclude_actors,
});

/** Registers a webhook; the answer carries its secret, this once. */
export async function createWebhook(
  ctx: ChangeContext,
  body: CreateWebhookBody,
  policy: EndpointPolicy = deployedEndpointPolicy(),
  now = new Date(),
): Promise<Webhook & { secret: string }> {
  checkOperations(body.operations);
  const url = await checkEndpoint(body.url, policy);
  const at = now.toISOString();
  const webhook: StoredWebhook = {
    id: newId(),
    url,
    description: body.description ?? '',
    resource_types: body.resource_types ?? [],
    operations: body.operations ?? [],
    exclude_actors: body.exclude_actors ?? [],
    status: 'active',
    secret: newWebhookSecret(),
    previous_secret: null,
    previous_secret_expires_at: null,
    created_at: at,
    updated_at: at,
    paused_at: null,
    resumed_at: null,
  };
  await transactWrite([
    ...webhookCreate(webhook, MAX_WEBHOOKS, () =>
      conflict(`There are already ${MAX_WEBHOOKS} webhooks, the most there may be; delete one first.`, { limit: MAX_WEBHOOKS }),
    ),
    recordChange(ctx, {
      resourceType: 'webhook',
      resourceId: webhook.id,
      changes: { created: { id: webhook.id, ...auditedSettings(webhook), status: 'active' } },
    }),
  ]);
  return { ...webhookView(webhook, { failing_since: null, disabled_at: null, replayed_until: null }), secret: webhook.secret };
}

/** Every webhook, oldest first. */
export async function webhooks(): Promise<Webhook[]> {
  const stored = await listStoredWebhooks();
  const healths = await webhookHealths(stored.map((webhook) => webhook.id));
  return stored.map((webhook) => webhookView(webhook, healths.get(webhook.id)!));
}

export async function webhook(id: string): Promise<Webhook> {
  const [stored, health] = await Promise.all([findWebhook(id), findWebhookHealth(id)]);
  if (!stored) throw webhookNotFound(id);
  return webhookView(stored, health);
}

export async function deleteWebhook(ctx: ChangeContext, id: string): Promise<void> {
  await transactWrite([
    ...webhookDelete(id, () => webhookNotFound(id)),
    recordChange(ctx, { resourceType: 'webhook', resourceId: id, changes: { deleted: true } }),
  ]);
}

/** A time strictly after `previous`: a webhook's `updated_at` is its version, so a change must move it. */
export const laterThan = (previous: string, now: Date) => new Date(Math.max(now.getTime(), Date.parse(previous) + 1)).toISOString();

/** A new secret (shown this once); the old one keeps signing for ROTATION_OVERLAP_MS, and an older one stops at once. */
export async function rotateWebhookSecret(
  ctx: ChangeContext,
  id: string,
  now = new Date(),
): Promise<{ id: string; secret: string; previous_secret_expires_at: string }> {
  return withFreshRead(async () => {
    const read = await findWebhook(id);
    if (!read) throw webhookNotFound(id);
    const secret = newWebhookSecret();
    const previous_secret_expires_at = new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString();
    const at = laterThan(read.updated_at, now);
    await transactWrite([
      webhookChange(read, { secret, previous_secret: read.secret, previous_secret_expires_at, updated_at: at }, () => webhookNotFound(id)),
      recordChange(ctx, { resourceType: 'webhook', resourceId: id, changes: { secret: { rotated: true, previous_secret_expires_at } } }),
    ]);
    return { id, secret, previous_secret_expires_at };
  });
}
