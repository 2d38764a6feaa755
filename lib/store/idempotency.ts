/**
 * Idempotency records: `IDEMPOTENCY#<sha256 of the key>` / `IDEMPOTENCY`,
 * one partition per key so that records never share a hot partition. A
 * record is claimed `in_progress` by a conditional put, completed with the
 * response, or deleted when the request fails; DynamoDB's TTL removes it
 * after `expires_at`.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { Condition, Update } from '../db/expression';
import * as attr from '../db/item-kind';
import { deleteItem, putItem, updateItem } from '../db/items';
import { TTL_ATTRIBUTE, type Key } from '../db/table';
import { isConditionFailure } from '../db/transact';

const recordKind = attr.itemKind({
  type: 'idempotency',
  key: (hash: string): Key => ({ pk: `IDEMPOTENCY#${hash}`, sk: 'IDEMPOTENCY' }),
  attributes: {
    status: attr.oneOf(['in_progress', 'completed']),
    payload_hash: attr.string,
    /** While in progress: until when (ms) its request may still be running. */
    in_progress_until: attr.optional(attr.number),
    /** Once completed: the response, as JSON. */
    response: attr.optional(attr.string),
    [TTL_ATTRIBUTE]: attr.number,
  },
  indexAttributes: {},
});

export const idempotencyKey = recordKind.key;

export interface IdempotencyClaim {
  keyHash: string;
  payloadHash: string;
}

/**
 * Claims the record for a request: free, expired (TTL deletes lazily), or
 * left in progress by a request that died. Answers undefined when claimed,
 * else the record that holds the key.
 */
export async function claimRecord(
  claim: IdempotencyClaim,
  now: number,
  inProgressUntil: number,
  lifetimeSeconds: number,
): Promise<{ payload_hash?: string; status?: string; response?: string } | undefined> {
  const condition = new Condition();
  const status = condition.name('status');
  condition.when(
    `attribute_not_exists(pk) OR ${condition.name(TTL_ATTRIBUTE)} < ${condition.value(Math.floor(now / 1000))} OR ` +
      `(${status} = ${condition.value('in_progress')} AND ${condition.name('in_progress_until')} < ${condition.value(now)})`,
  );
  try {
    await putItem(
      recordKind.item(idempotencyKey(claim.keyHash), {
        status: 'in_progress',
        payload_hash: claim.payloadHash,
        in_progress_until: inProgressUntil,
        [TTL_ATTRIBUTE]: Math.floor(now / 1000) + lifetimeSeconds,
      }),
      condition,
      { returnOld: true },
    );
    return undefined;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // The document client does not unmarshal the item a failed condition returns.
    const stored = error instanceof ConditionalCheckFailedException ? error.Item : undefined;
    return stored ? recordKind.read(unmarshall(stored)) : {};
  }
}

/** Stores the response of the request that owns the record. */
export async function completeRecord(claim: IdempotencyClaim, response: string): Promise<void> {
  const changes = new Update()
    .setAll({ status: 'completed', response })
    .remove('in_progress_until')
    .whenEquals('status', 'in_progress')
    .whenEquals('payload_hash', claim.payloadHash);
  await updateItem(idempotencyKey(claim.keyHash), changes);
}

/** Gives the key back after a failed request, if this request still owns the record. */
export async function releaseRecord(claim: IdempotencyClaim): Promise<void> {
  await deleteItem(
    idempotencyKey(claim.keyHash),
    new Condition().whenEquals('status', 'in_progress').whenEquals('payload_hash', claim.payloadHash),
  );
}
