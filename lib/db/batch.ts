/**
 * Bulk helpers for work that is not one transaction: strongly consistent
 * reads of one base-table partition, BatchGetItem reads and BatchWriteItem
 * deletes with their unprocessed-keys retry, and a bounded-concurrency loop.
 */
import { BatchGetCommand, BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { DatabaseBusyError } from './errors';
import type { Item, Key } from './table';

/** BatchWriteItem takes at most 25 requests per call, BatchGetItem 100 keys. */
export const BATCH_WRITE_LIMIT = 25;
export const BATCH_GET_LIMIT = 100;
const MAX_ROUNDS = 8;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `task` over `items`, at most `concurrency` at a time. After the first
 * failure no further task starts; the tasks already running are awaited (so
 * nothing is still writing when the caller reacts), then the error is thrown.
 */
export async function forEachConcurrently<T>(items: readonly T[], concurrency: number, task: (item: T, index: number) => Promise<void>) {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const index = next++;
      try {
        await task(items[index], index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  if (failure) throw failure.error;
}

/** Items of one partition of the table (not an index), page by page; strongly consistent unless told otherwise. */
export async function* partitionItems(
  pk: string,
  options: {
    skPrefix?: string;
    skBetween?: { from: string; to: string };
    pageSize?: number;
    attributes?: string[];
    consistent?: boolean;
    descending?: boolean;
  } = {},
): AsyncGenerator<Item> {
  const values: Record<string, unknown> = { ':pk': pk };
  let condition = 'pk = :pk';
  if (options.skPrefix !== undefined) {
    values[':sk'] = options.skPrefix;
    condition += ' AND begins_with(sk, :sk)';
  } else if (options.skBetween) {
    values[':from'] = options.skBetween.from;
    values[':to'] = options.skBetween.to;
    condition += ' AND sk BETWEEN :from AND :to';
  }
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: condition,
        ExpressionAttributeValues: values,
        ConsistentRead: options.consistent ?? true,
        ...(options.descending ? { ScanIndexForward: false } : {}),
        Limit: options.pageSize,
        ProjectionExpression: options.attributes?.join(', '),
        ExclusiveStartKey: startKey,
      }),
    );
    yield* page.Items ?? [];
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

const backoff = (round: number) => sleep(Math.random() * Math.min(500, 20 * 2 ** round));

/**
 * Reads items by key with BatchGetItem: requests of 100 keys, `concurrency`
 * at a time (more in flight only queue up in front of the table), each
 * asking again for its unprocessed keys with jittered backoff. Answers the
 * items found, in no particular order; absent keys are simply not there.
 */
export async function batchGetItems(keys: Key[], options: { consistent?: boolean; concurrency?: number } = {}): Promise<Item[]> {
  const requests: Key[][] = [];
  for (let i = 0; i < keys.length; i += BATCH_GET_LIMIT) requests.push(keys.slice(i, i + BATCH_GET_LIMIT));
  const found: Item[] = [];
  await forEachConcurrently(requests, options.concurrency ?? 16, async (batch) => {
    let pending: Record<string, unknown>[] = batch;
    for (let round = 0; pending.length > 0; round++) {
      if (round >= MAX_ROUNDS) throw new DatabaseBusyError('The database kept deferring reads; retry the request shortly.');
      if (round > 0) await backoff(round);
      const result = await db().send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: options.consistent ?? false } } }),
      );
      found.push(...(result.Responses?.[tableName()] ?? []));
      pending = result.UnprocessedKeys?.[tableName()]?.Keys ?? [];
    }
  });
  return found;
}

/**
 * Deletes items by key with BatchWriteItem: requests of 25, `concurrency` at
 * a time, each re-sending its unprocessed items with jittered backoff.
 * Deleting an absent item is a no-op, so a repeat is harmless.
 */
export async function batchDelete(keys: Key[], concurrency = 8): Promise<void> {
  const requests: Key[][] = [];
  for (let i = 0; i < keys.length; i += BATCH_WRITE_LIMIT) requests.push(keys.slice(i, i + BATCH_WRITE_LIMIT));
  await forEachConcurrently(requests, concurrency, async (batch) => {
    let pending: Record<string, unknown>[] = batch.map((key) => ({ DeleteRequest: { Key: key } }));
    for (let round = 0; pending.length > 0; round++) {
      if (round >= MAX_ROUNDS) throw new DatabaseBusyError('The database kept deferring writes; retry shortly.');
      if (round > 0) await backoff(round);
      const result = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending as never } }));
      pending = (result.UnprocessedItems?.[tableName()] as Record<string, unknown>[] | undefined) ?? [];
    }
  });
}
