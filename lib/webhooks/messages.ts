/**
 * The messages of the webhook delivery queue (JSON bodies), one home for
 * their shapes:
 *
 * - `{"kind": "change", "change": <audit entry>}`: a change to fan out to
 *   every webhook (on AWS from the change bus's rule, locally from the
 *   feed poller);
 * - `{"kind": "attempt", "webhook_id", "change", "attempt": n, "due_at"}`:
 *   attempt n of one change to one webhook, sent by the delivery function
 *   itself after a failure (SQS holds a message back 15 minutes at most, so
 *   one received before it is due is sent again with the rest of its wait);
 * - `{"kind": "replay", "webhook_id", "since", "until", "cursor"?, "closed"?}`:
 *   a resumed webhook's changes made while it was paused, at or after `since`
 *   and before `until` (its resume), read from the change feed (`cursor`:
 *   where a replay too long for one invocation goes on; `closed`: the replay
 *   has told the fan-out it reached the feed's end, lib/webhooks/replay.ts).
 */
import { RESOURCE_TYPES, type ResourceType } from '../schemas/enums';
import type { AuditEntry } from '../schemas/responses';

export interface ChangeMessage {
  kind: 'change';
  change: AuditEntry;
}

export interface AttemptMessage {
  kind: 'attempt';
  webhook_id: string;
  change: AuditEntry;
  attempt: number;
  due_at: string;
}

export interface ReplayMessage {
  kind: 'replay';
  webhook_id: string;
  since: string;
  until: string;
  cursor?: string;
  closed?: true;
}

export type WebhookMessage = ChangeMessage | AttemptMessage | ReplayMessage;

/** Sends messages to the delivery queue, each held back `delaySeconds` (lib/aws/sqs.ts on a deployment; tests pass their own). */
export type Enqueue = (messages: Array<{ body: WebhookMessage; delaySeconds: number }>) => Promise<void>;

/** A message that is not one of these: a bug or a stranger; retrying it cannot help. */
export class MalformedMessageError extends Error {
  override readonly name = 'MalformedMessageError';
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isTime = (value: unknown): value is string => isString(value) && !Number.isNaN(Date.parse(value));

function auditEntry(value: unknown): AuditEntry {
  if (!isRecord(value)) throw new MalformedMessageError('the change is not an object');
  const { id, at, actor, operation, resource_type, resource_id, changes } = value;
  if (!isString(id) || !isTime(at) || !isString(actor) || !isString(operation) || !isString(resource_id))
    throw new MalformedMessageError('the change lacks id, at, actor, operation or resource_id');
  if (!RESOURCE_TYPES.includes(resource_type as ResourceType))
    throw new MalformedMessageError(`unknown resource type ${String(resource_type)}`);
  return {
    id,
    at,
    actor,
    operation,
    resource_type: resource_type as ResourceType,
    resource_id,
    changes: isRecord(changes) ? changes : {},
  };
}

/** Reads a message body; an EventBridge event of the change bus (no input transformer) is read as a change. */
export function parseMessage(body: string): WebhookMessage {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new MalformedMessageError('the body is not JSON');
  }
  if (!isRecord(value)) throw new MalformedMessageError('the body is not an object');
  if (value.kind === undefined && isRecord(value.detail)) return { kind: 'change', change: auditEntry(value.detail) };
  switch (value.kind) {
    case 'change':
      return { kind: 'change', change: auditEntry(value.change) };
    case 'attempt': {
      const { webhook_id, attempt, due_at } = value;
      if (!isString(webhook_id) || !Number.isSafeInteger(attempt) || (attempt as number) < 1 || !isTime(due_at))
        throw new MalformedMessageError('an attempt lacks webhook_id, attempt or due_at');
      return { kind: 'attempt', webhook_id, change: auditEntry(value.change), attempt: attempt as number, due_at };
    }
    case 'replay': {
      const { webhook_id, since, until, cursor, closed } = value;
      if (!isString(webhook_id) || !isTime(since) || !isTime(until) || (cursor !== undefined && !isString(cursor)))
        throw new MalformedMessageError('a replay lacks webhook_id, since or until');
      return {
        kind: 'replay',
        webhook_id,
        since,
        until,
        ...(cursor === undefined ? {} : { cursor }),
        ...(closed === true ? { closed } : {}),
      };
    }
    default:
      throw new MalformedMessageError(`unknown kind ${String(value.kind)}`);
  }
}
