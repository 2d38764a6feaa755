/**
 * Webhooks and their deliveries, in two families of items fenced apart by
 * their partition keys' prefixes, so that the delivery function's role can
 * write its own records and nothing a client configured:
 *
 * | item                         | pk                              | sk                      | written by               |
 * |------------------------------|---------------------------------|-------------------------|--------------------------|
 * | a webhook                    | `WEBHOOK#<id>`                  | `WEBHOOK`               | the webhook routes       |
 * | the number of webhooks       | `WEBHOOK#COUNT`                 | `COUNT`                 | the webhook routes       |
 * | a webhook's health           | `WEBHOOK_DELIVERY#<webhook id>` | `HEALTH`                | the delivery function (and a re-enabling PATCH, a DELETE) |
 * | one delivery attempt         | `WEBHOOK_DELIVERY#<webhook id>` | `ATTEMPT#<at>#<id>`     | the delivery function, testWebhook |
 *
 * A webhook holds its signing secrets (the receiver verifies with them, so
 * they are kept, not hashed; the table is encrypted at rest and no answer
 * but the creation's and the rotation's carries one). Webhooks are listed by
 * creation from byName partition `WEBHOOKS`. Attempts are read newest first
 * from their own partition and expire after 30 days (TTL `expires_at`).
 * A webhook's `disabled` state lives in its health item (`disabled_at`),
 * which is the delivery function's to write: the webhook item never is.
 */
import { Condition, Update } from '../db/expression';
import * as attr from '../db/item-kind';
import { getItem, putItem, updateItem } from '../db/items';
import { queryPage } from '../db/query';
import { INDEXES, PRIMARY_KEY, TTL_ATTRIBUTE, type Item, type Key } from '../db/table';
import { isConditionFailure, put, remove, update, type Explain, type Write } from '../db/transact';
import { StaleReadError } from '../db/errors';
import { RESOURCE_TYPES, WEBHOOK_SETTABLE_STATUSES, type ResourceType } from '../schemas/enums';
import { KEY_SEPARATOR } from '../text';

/** The partition keys of webhooks (and their counter) start with this: only the webhook routes write them. */
export const WEBHOOK_KEY_PREFIX = 'WEBHOOK#';
/** The partition keys of delivery records (attempts, each webhook's health) start with this: the delivery function's own items. */
export const WEBHOOK_DELIVERY_KEY_PREFIX = 'WEBHOOK_DELIVERY#';

const PARTITION = 'WEBHOOKS';
/** How long the delivery log keeps an attempt. */
export const ATTEMPT_RETENTION_DAYS = 30;

export interface StoredWebhook {
  id: string;
  url: string;
  description: string;
  resource_types: ResourceType[];
  operations: string[];
  exclude_actors: string[];
  status: (typeof WEBHOOK_SETTABLE_STATUSES)[number];
  /** `whsec_…`: signs every delivery. */
  secret: string;
  /** The secret before the last rotation, and until when it still signs too. */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
  /** When it was last paused: changes from then on wait for the replay at its resume. */
  paused_at: string | null;
  /** When it was last resumed: the replay window is [paused_at, resumed_at). */
  resumed_at: string | null;
}

const webhookKind = attr.itemKind({
  type: 'webhook',
  key: (id: string): Key => ({ pk: `${WEBHOOK_KEY_PREFIX}${id}`, sk: 'WEBHOOK' }),
  attributes: {
    id: attr.string,
    url: attr.string,
    description: attr.string,
    resource_types: attr.required(
      'a list of resource types',
      (value): value is ResourceType[] => Array.isArray(value) && value.every((type) => RESOURCE_TYPES.includes(type as ResourceType)),
    ),
    operations: attr.stringList,
    exclude_actors: attr.stringList,
    status: attr.oneOf(WEBHOOK_SETTABLE_STATUSES),
    secret: attr.string,
    previous_secret: attr.nullable(attr.string),
    previous_secret_expires_at: attr.nullable(attr.string),
    created_at: attr.string,
    updated_at: attr.string,
    paused_at: attr.nullable(attr.string),
    resumed_at: attr.nullable(attr.string),
  },
  indexAttributes: { gsi1pk: attr.string, gsi1sk: attr.string },
});

export const webhookKey = webhookKind.key;
const COUNTER_KEY: Key = { pk: `${WEBHOOK_KEY_PREFIX}COUNT`, sk: 'COUNT' };

/** A new webhook, counted: the counter's condition holds the limit however many requests race. */
export function webhookCreate(webhook: StoredWebhook, limit: number, explainLimit: Explain): Write[] {
  const count = new Update().add('n', 1);
  count.when(`attribute_not_exists(${count.name('n')}) OR ${count.name('n')} < ${count.value(limit)}`);
  return [
    put(
      webhookKind.item(webhookKey(webhook.id), {
        ...webhook,
        gsi1pk: PARTITION,
        gsi1sk: `${webhook.created_at}${KEY_SEPARATOR}${webhook.id}`,
      }),
      new Condition().whenAbsent(),
    ),
    update(COUNTER_KEY, count, { explain: explainLimit }),
  ];
}

/** Replaces the changed fields of a webhook read at `read.updated_at`; a concurrent change makes it a StaleReadError. */
export function webhookChange(
  read: StoredWebhook,
  fields: Partial<Omit<StoredWebhook, 'id' | 'created_at'>>,
  explainMissing: Explain,
): Write {
  const changes = new Update().setAll(fields);
  changes.when(`attribute_exists(${changes.name('pk')})`);
  changes.whenEquals('updated_at', read.updated_at);
  return update(webhookKey(read.id), changes, {
    returnOld: true,
    explain: (stored) => (stored ? new StaleReadError() : explainMissing(stored)),
  });
}

/** Deletes a webhook, uncounts it, and forgets its health (its attempts expire by themselves). */
export function webhookDelete(id: string, explainMissing: Explain): Write[] {
  return [
    remove(webhookKey(id), new Condition().whenExists(), { explain: explainMissing }),
    update(COUNTER_KEY, new Update().add('n', -1)),
    remove(healthKey(id)),
  ];
}

const toWebhook = (item: Item): StoredWebhook => webhookKind.read(item);

export async function findWebhook(id: string): Promise<StoredWebhook | undefined> {
  const item = await getItem(webhookKey(id));
  return item ? toWebhook(item) : undefined;
}

/** Every webhook, oldest first (at most MAX_WEBHOOKS: one page). */
export async function listStoredWebhooks(): Promise<StoredWebhook[]> {
  const webhooks: StoredWebhook[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await queryPage({ index: INDEXES.byName, partition: PARTITION }, { startKey, limit: 100 });
    webhooks.push(...page.items.map(toWebhook));
    startKey = page.next;
  } while (startKey);
  return webhooks;
}

// --- health: the delivery function's record of failures ---------------------------------------------------------

export interface WebhookHealth {
  /** The first failed attempt since the last success; null while deliveries succeed. */
  failing_since: string | null;
  /** When the service disabled the webhook; null while it is enabled. */
  disabled_at: string | null;
  /** The end (`until`) of the last paused window whose replay told the fan-out it had reached the feed's end. */
  replayed_until: string | null;
}

const HEALTHY: WebhookHealth = { failing_since: null, disabled_at: null, replayed_until: null };

const healthKind = attr.itemKind({
  type: 'webhook-health',
  key: (webhookId: string): Key => ({ pk: `${WEBHOOK_DELIVERY_KEY_PREFIX}${webhookId}`, sk: 'HEALTH' }),
  attributes: {
    failing_since: attr.nullable(attr.string),
    disabled_at: attr.nullable(attr.string),
    replayed_until: attr.nullable(attr.string),
  },
  indexAttributes: {},
});

const healthKey = healthKind.key;

export async function findWebhookHealth(webhookId: string): Promise<WebhookHealth> {
  const item = await getItem(healthKey(webhookId));
  return item ? healthKind.read(item) : HEALTHY;
}

/** The health of each webhook, by id: reads by key at once (at most 25; the delivery function's role reads by key, no batch). */
export async function webhookHealths(webhookIds: string[]): Promise<Map<string, WebhookHealth>> {
  return new Map(await Promise.all(webhookIds.map(async (id) => [id, await findWebhookHealth(id)] as const)));
}

/** Records a failed attempt: the first failure since the last success starts the 24 hours. Answers the health as it now is. */
export async function recordWebhookFailure(webhookId: string, at: string): Promise<WebhookHealth> {
  const changes = new Update().setIfAbsent('failing_since', at);
  const item = await updateItem(healthKey(webhookId), changes, { returnNew: true });
  return item ? healthKind.read(item) : { ...HEALTHY, failing_since: at };
}

/** Records that the replay of the window ending at `until` has walked the feed to its end (lib/webhooks/replay.ts). */
export async function recordReplayEnd(webhookId: string, until: string): Promise<void> {
  await updateItem(healthKey(webhookId), new Update().set('replayed_until', until));
}

/** A success ends a run of failures (only written when the health read showed one). */
export async function recordWebhookSuccess(webhookId: string): Promise<void> {
  // Removed, not nulled: the next failure's if_not_exists must see it absent.
  const changes = new Update().remove('failing_since');
  changes.when(`attribute_exists(${changes.name('failing_since')})`);
  try {
    await updateItem(healthKey(webhookId), changes);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * Disables a webhook whose failures began at or before `failingBefore`, once: the condition makes a second
 * disabling (a concurrent delivery's) fail, so only one audit entry says so. `explain` answers that failure.
 */
export function webhookDisable(webhookId: string, at: string, failingBefore: string, explain: Explain): Write {
  const changes = new Update().set('disabled_at', at);
  const failingSince = changes.name('failing_since');
  changes.when(`attribute_type(${failingSince}, ${changes.value('S')}) AND ${failingSince} <= ${changes.value(failingBefore)}`);
  changes.when(`attribute_not_exists(${changes.name('disabled_at')})`);
  return update(healthKey(webhookId), changes, { explain });
}

/** Enables a disabled webhook again (a PATCH `status: active`): its health starts afresh. */
export const webhookHealthReset = (webhookId: string): Write => remove(healthKey(webhookId));

// --- delivery attempts ---------------------------------------------------------------------------------------

export interface StoredAttempt {
  id: string;
  webhook_id: string;
  change_id: string;
  at: string;
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  next_attempt_at: string | null;
}

const ATTEMPT_PREFIX = 'ATTEMPT#';

const attemptKind = attr.itemKind({
  type: 'webhook-attempt',
  key: (webhookId: string, at: string, id: string): Key => ({
    pk: `${WEBHOOK_DELIVERY_KEY_PREFIX}${webhookId}`,
    sk: `${ATTEMPT_PREFIX}${at}#${id}`,
  }),
  attributes: {
    id: attr.string,
    webhook_id: attr.string,
    change_id: attr.string,
    at: attr.string,
    attempt: attr.number,
    status_code: attr.nullable(attr.number),
    duration_ms: attr.number,
    error: attr.nullable(attr.string),
    next_attempt_at: attr.nullable(attr.string),
    [TTL_ATTRIBUTE]: attr.number,
  },
  indexAttributes: {},
});

/** Records one attempt in the webhook's delivery log, kept ATTEMPT_RETENTION_DAYS. */
export async function recordAttempt(attempt: StoredAttempt): Promise<void> {
  const expires = Math.floor(Date.parse(attempt.at) / 1000) + ATTEMPT_RETENTION_DAYS * 86_400;
  await putItem(attemptKind.item(attemptKind.key(attempt.webhook_id, attempt.at, attempt.id), { ...attempt, [TTL_ATTRIBUTE]: expires }));
}

/** A page of a webhook's attempts, newest first, after the attempt `after` (its sort key) if given. */
export async function attemptPage(
  webhookId: string,
  count: number,
  after: string | undefined,
): Promise<{ attempts: StoredAttempt[]; last: string | undefined }> {
  const pk = `${WEBHOOK_DELIVERY_KEY_PREFIX}${webhookId}`;
  const page = await queryPage(
    { index: PRIMARY_KEY, partition: pk, sortKeyPrefix: ATTEMPT_PREFIX },
    { descending: true, limit: count, startKey: after === undefined ? undefined : { pk, sk: after } },
  );
  const attempts = page.items.map((item) => {
    const { [TTL_ATTRIBUTE]: _expires, ...attempt } = attemptKind.read(item);
    return attempt;
  });
  return { attempts, last: page.next ? String(page.next.sk) : undefined };
}

/** Whether an attempt sort key, as a cursor carries it, is one of this log's (a cursor cannot read outside it). */
export const isAttemptSortKey = (sk: string) => sk.startsWith(ATTEMPT_PREFIX) && sk.length < 200;
