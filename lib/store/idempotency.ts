/**
 * Idempotency records: `IDEMPOTENCY#<hash of caller and key>` / `IDEMPOTENCY`,
 * one partition per caller's key so that records never share a hot
 * partition. A record is claimed `in_progress` by a conditional put, then
 * completed with the answer (gzipped), or closed without it (`secret_shown`,
 * `answer_lost`), or deleted when the request fails; DynamoDB's TTL removes
 * it after `expires_at`.
 *
 * An answer whose gzip does not fit one item (DynamoDB refuses items over
 * 400 KB) is split into parts `PART#<n>` of the same partition, written
 * before the record is completed: the record is the commit point, so it
 * never points at parts that are not there, and parts of an answer that
 * was never completed are left to TTL. (Plain puts rather than one
 * transaction: no 4 MB cap, and no transaction code in the bundle of every
 * function, reads included.)
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { Condition, Update } from '../db/expression';
import * as attr from '../db/item-kind';
import { deleteItem, getItem, putItem, updateItem } from '../db/items';
import { TTL_ATTRIBUTE, type Key } from '../db/table';
import { isConditionFailure } from '../db/transact';

/** Bytes of gzipped answer per item: under DynamoDB's 400 KB item limit with room for keys and attributes. */
export const ANSWER_BYTES_PER_ITEM = 350 * 1024;

const bytes = attr.required('bytes', (value): value is Uint8Array => value instanceof Uint8Array);

/** Kept answers are gone; the others are closed without one. */
export type RecordStatus = 'in_progress' | 'completed' | 'secret_shown' | 'answer_lost';

/** The partition keys of idempotency records and their answers' parts start with this. */
export const IDEMPOTENCY_KEY_PREFIX = 'IDEMPOTENCY#';

const recordKind = attr.itemKind({
  type: 'idempotency',
  key: (hash: string): Key => ({ pk: `${IDEMPOTENCY_KEY_PREFIX}${hash}`, sk: 'IDEMPOTENCY' }),
  attributes: {
    status: attr.oneOf<RecordStatus>(['in_progress', 'completed', 'secret_shown', 'answer_lost']),
    payload_hash: attr.string,
    /** While in progress: until when (ms) its request may still be running. */
    in_progress_until: attr.optional(attr.number),
    /** Once completed: the answer as gzipped JSON, when it fits this item. */
    response: attr.optional(bytes),
    /** Once completed with an answer too large for one item: how many parts hold it. */
    response_parts: attr.optional(attr.number),
    [TTL_ATTRIBUTE]: attr.number,
  },
  indexAttributes: {},
});

const partKind = attr.itemKind({
  type: 'idempotency-part',
  key: (hash: string, index: number): Key => ({ pk: `${IDEMPOTENCY_KEY_PREFIX}${hash}`, sk: `PART#${String(index).padStart(3, '0')}` }),
  attributes: {
    /** This part's bytes of the gzipped answer. */
    data: bytes,
    [TTL_ATTRIBUTE]: attr.number,
  },
  indexAttributes: {},
});

export const idempotencyKey = recordKind.key;

export interface IdempotencyClaim {
  /** Hash of the caller and the key: whose record this is. */
  keyHash: string;
  /** Hash of the request the key was first used for. */
  payloadHash: string;
  /** When (epoch seconds) TTL removes the record and its parts. */
  expiresAt: number;
}

/** A record some request already holds, as a repeat finds it. */
export type HeldRecord =
  | { status: 'completed'; payloadHash: string; answer: () => Promise<string> }
  | { status: Exclude<RecordStatus, 'completed'>; payloadHash: string };

function heldRecord(keyHash: string, item: Record<string, unknown>): HeldRecord {
  const record = recordKind.read(item);
  const payloadHash = record.payload_hash;
  if (record.status !== 'completed') return { status: record.status, payloadHash };
  const { response, response_parts: parts } = record;
  return {
    status: 'completed',
    payloadHash,
    answer: async () => gunzipSync(response ?? (await readParts(keyHash, parts ?? 0))).toString('utf8'),
  };
}

/** The parts of an answer, in order: a few items (a Lambda answer is at most 6 MB), read at once. */
async function readParts(keyHash: string, count: number): Promise<Buffer> {
  const parts = await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const key = partKind.key(keyHash, index);
      const item = await getItem(key);
      if (!item) throw new Error(`idempotency record ${keyHash} lacks its part ${key.sk}`);
      return partKind.read(item).data;
    }),
  );
  return Buffer.concat(parts);
}

/**
 * Claims the record for a request: free, expired (TTL deletes lazily), or
 * left in progress by a request that died. Answers undefined when claimed,
 * else the record that holds the key.
 */
export async function claimRecord(claim: IdempotencyClaim, now: number, inProgressUntil: number): Promise<HeldRecord | undefined> {
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
        [TTL_ATTRIBUTE]: claim.expiresAt,
      }),
      condition,
      { returnOld: true },
    );
    return undefined;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // The document client does not unmarshal the item a failed condition returns.
    const stored = error instanceof ConditionalCheckFailedException ? error.Item : undefined;
    // Held, yet not returned: it is being written, so it counts as running.
    return stored ? heldRecord(claim.keyHash, unmarshall(stored)) : { status: 'in_progress', payloadHash: claim.payloadHash };
  }
}

/** Only the request that claimed the record may close it. */
const stillOwned = (claim: IdempotencyClaim) =>
  new Update().whenEquals('status', 'in_progress').whenEquals('payload_hash', claim.payloadHash);

/**
 * Stores the answer of the request that owns the record, gzipped: in the
 * record itself, or over parts written first. Throws when it cannot (the
 * caller decides what the record then says).
 */
export async function completeRecord(claim: IdempotencyClaim, answer: string): Promise<void> {
  const gzipped = gzipSync(answer);
  const done = stillOwned(claim).remove('in_progress_until').set('status', 'completed');
  if (gzipped.length <= ANSWER_BYTES_PER_ITEM) {
    await updateItem(idempotencyKey(claim.keyHash), done.set('response', gzipped));
    return;
  }
  const count = Math.ceil(gzipped.length / ANSWER_BYTES_PER_ITEM);
  await Promise.all(
    Array.from({ length: count }, (_, index) =>
      putItem(
        partKind.item(partKind.key(claim.keyHash, index), {
          data: gzipped.subarray(index * ANSWER_BYTES_PER_ITEM, (index + 1) * ANSWER_BYTES_PER_ITEM),
          [TTL_ATTRIBUTE]: claim.expiresAt,
        }),
      ),
    ),
  );
  await updateItem(idempotencyKey(claim.keyHash), done.set('response_parts', count));
}

/** Closes the record without an answer: a repeat learns why there is none. */
export async function closeRecord(claim: IdempotencyClaim, status: 'secret_shown' | 'answer_lost'): Promise<void> {
  await updateItem(idempotencyKey(claim.keyHash), stillOwned(claim).remove('in_progress_until').setAll({ status }));
}

/** Gives the key back after a failed request, if this request still owns the record. */
export async function releaseRecord(claim: IdempotencyClaim): Promise<void> {
  await deleteItem(
    idempotencyKey(claim.keyHash),
    new Condition().whenEquals('status', 'in_progress').whenEquals('payload_hash', claim.payloadHash),
  );
}
