import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { DomainError } from '../errors';
import { db, tableName } from './client';
import type { Key } from './keys';
import type { Item } from './query';

/** BatchGetItem takes at most 100 keys per call. */
export const BATCH_GET_LIMIT = 100;
const MAX_ROUNDS = 8;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads items by key with BatchGetItem: batches of 100 in parallel, each
 * re-asking for its unprocessed keys with jittered backoff. Answers the items
 * found, keyed by `pk` (absent keys are simply missing from the map).
 */
export async function batchGet(keys: Key[], options: { consistent?: boolean } = {}): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  const batches: Key[][] = [];
  for (let i = 0; i < keys.length; i += BATCH_GET_LIMIT) batches.push(keys.slice(i, i + BATCH_GET_LIMIT));
  await Promise.all(
    batches.map(async (batch) => {
      let pending: Record<string, unknown>[] = batch;
      for (let round = 0; pending.length > 0; round++) {
        if (round >= MAX_ROUNDS) throw new DomainError('unavailable', 'The database kept deferring reads; retry the request shortly.');
        if (round > 0) await sleep(Math.random() * Math.min(500, 20 * 2 ** round));
        const result = await db().send(
          new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: options.consistent ?? false } } }),
        );
        for (const item of result.Responses?.[tableName()] ?? []) found.set(String(item.pk), item);
        pending = result.UnprocessedKeys?.[tableName()]?.Keys ?? [];
      }
    }),
  );
  return found;
}
