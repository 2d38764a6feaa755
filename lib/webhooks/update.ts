/**
 * A webhook's PATCH: its URL (checked by the SSRF guard again), description
 * and filters, and its status.
 *
 * - `paused`: from `paused_at` on, changes wait (the delivery function leaves
 *   them to the replay below);
 * - `active` after `paused`: the webhook resumes at `resumed_at`, and a
 *   replay message `{kind: "replay", since: paused_at, until: resumed_at}`
 *   has the delivery function deliver every change of that window from the
 *   change feed. The message is sent BEFORE the change commits: if the send
 *   fails the request fails and nothing changed; if the commit fails, the
 *   replay finds no resume at `until` and ends (lib/webhooks/replay.ts). A
 *   resume committed without its replay, which would lose the window, cannot
 *   happen;
 * - `active` on a `disabled` webhook enables it again: its health starts
 *   afresh (what changed while it was disabled is not sent; the feed has it).
 */
import { recordChange, type ChangeContext } from '../audit/context';
import { transactWrite, withFreshRead, type Write } from '../db/transact';
import type { Webhook } from '../schemas/responses';
import type { UpdateWebhookBody } from '../schemas/webhooks';
import { findWebhook, findWebhookHealth, webhookChange, webhookHealthReset, type StoredWebhook } from '../store/webhooks';
import { checkOperations } from './filters';
import { checkEndpoint, type EndpointPolicy } from './endpoint';
import type { Enqueue, ReplayMessage } from './messages';
import { auditedSettings, deployedEndpointPolicy, laterThan, webhookNotFound, webhookView } from './webhooks';

/** A replay starts once its resume has committed (lib/webhooks/replay.ts checks): a first wait for that. */
const REPLAY_FIRST_DELAY_SECONDS = 10;

type Settings = Pick<StoredWebhook, 'url' | 'description' | 'resource_types' | 'operations' | 'exclude_actors'>;

export interface UpdateDeps {
  enqueue: Enqueue;
  policy?: EndpointPolicy;
  now?: () => Date;
}

export async function updateWebhook(ctx: ChangeContext, id: string, body: UpdateWebhookBody, deps: UpdateDeps): Promise<Webhook> {
  const policy = deps.policy ?? deployedEndpointPolicy();
  checkOperations(body.operations);
  if (body.url !== undefined) await checkEndpoint(body.url, policy);
  return withFreshRead(async () => {
    const [read, health] = await Promise.all([findWebhook(id), findWebhookHealth(id)]);
    if (!read) throw webhookNotFound(id);
    const now = (deps.now ?? (() => new Date()))();
    const at = laterThan(read.updated_at, now);

    const fields: Partial<StoredWebhook> = {};
    const audited: Record<string, { from: unknown; to: unknown }> = {};
    const before = auditedSettings(read);
    for (const name of Object.keys(before) as Array<keyof Settings>) {
      const value = body[name];
      if (value !== undefined && JSON.stringify(value) !== JSON.stringify(before[name])) {
        Object.assign(fields, { [name]: value });
        audited[name] = { from: before[name], to: value };
      }
    }
    let replay: ReplayMessage | undefined;
    const writes: Write[] = [];
    const shownStatus = health.disabled_at ? 'disabled' : read.status;
    if (body.status === 'paused' && read.status === 'active') Object.assign(fields, { status: 'paused', paused_at: at });
    if (body.status === 'active' && read.status === 'paused') {
      Object.assign(fields, { status: 'active', resumed_at: at });
      replay = { kind: 'replay', webhook_id: id, since: read.paused_at ?? read.created_at, until: at };
    }
    if (body.status === 'active' && health.disabled_at) writes.push(webhookHealthReset(id));
    const status = body.status !== undefined && body.status !== shownStatus ? body.status : undefined;
    if (status) audited.status = { from: shownStatus, to: status };
    if (Object.keys(audited).length === 0) return webhookView(read, health);

    if (replay) await deps.enqueue([{ body: replay, delaySeconds: REPLAY_FIRST_DELAY_SECONDS }]);
    await transactWrite([
      webhookChange(read, { ...fields, updated_at: at }, () => webhookNotFound(id)),
      ...writes,
      recordChange(ctx, { resourceType: 'webhook', resourceId: id, changes: audited }),
    ]);
    const changed = { ...read, ...fields, updated_at: at };
    return webhookView(changed, status === 'active' ? { failing_since: null, disabled_at: null, replayed_until: null } : health);
  });
}
