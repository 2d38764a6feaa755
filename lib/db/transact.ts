/**
 * Transactions: the writes of one change, each with what its failed
 * condition means, sent as one TransactWriteItems with bounded retries.
 * The write constructors here fill in the table; the store modules
 * (lib/store/) say which items and conditions.
 */
import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { db, tableName } from './client';
import { ContentionError, DatabaseBusyError, StaleReadError } from './errors';
import type { Condition, Update } from './expression';
import type { Item, Key } from './table';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Explains a failed condition from the item as it stood (when the write asked for it back), or undefined. */
export type Explain = (stored: Item | undefined) => Error;

/** One item of a transaction, with what its failed condition means. */
export interface Write {
  item: TransactItem;
  explain?: Explain;
}

interface WriteOptions {
  explain?: Explain;
  /** Have a failed condition return the item as it stood, for `explain`. */
  returnOld?: boolean;
}

const returnOld = (options: WriteOptions) => (options.returnOld ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {});

export function put(item: Item, condition?: Condition, options: WriteOptions = {}): Write {
  return {
    item: { Put: { TableName: tableName(), Item: item, ...condition?.expressionInput(), ...returnOld(options) } },
    explain: options.explain,
  };
}

export function update(key: Key, changes: Update, options: WriteOptions = {}): Write {
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: key,
        UpdateExpression: changes.updateExpression,
        ...changes.expressionInput(),
        ...returnOld(options),
      },
    },
    explain: options.explain,
  };
}

export function remove(key: Key, condition?: Condition, options: WriteOptions = {}): Write {
  return {
    item: { Delete: { TableName: tableName(), Key: key, ...condition?.expressionInput(), ...returnOld(options) } },
    explain: options.explain,
  };
}

export function check(key: Key, condition: Condition, options: WriteOptions = {}): Write {
  const { ConditionExpression, ...placeholders } = condition.expressionInput();
  return {
    item: {
      ConditionCheck: {
        TableName: tableName(),
        Key: key,
        ConditionExpression: ConditionExpression!,
        ...placeholders,
        ...returnOld(options),
      },
    },
    explain: options.explain,
  };
}

export const MAX_TRANSACTION_ITEMS = 100;
const MAX_ATTEMPTS = 6;
const BASE_DELAY_MS = 15;
const MAX_DELAY_MS = 400;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** "Full jitter" backoff: spreads retries of racing writers apart. */
function backoffDelay(attempt: number): number {
  return Math.random() * Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
}

/** A write of a transaction whose condition failed: its place, and the item as it stood when the write asked for it. */
export interface Refusal {
  index: number;
  stored?: Item;
}

function refusalsOf(error: TransactionCanceledException): Refusal[] {
  return (error.CancellationReasons ?? []).flatMap((reason, index) =>
    reason.Code === 'ConditionalCheckFailed' ? [{ index, stored: reason.Item ? unmarshall(reason.Item) : undefined }] : [],
  );
}

const RETRYABLE_CODES = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded']);

/**
 * Sends one transaction, retrying conflicts with other transactions and
 * throttling with jittered backoff a bounded number of times (then
 * ContentionError or DatabaseBusyError). Answers the writes whose conditions
 * failed (then nothing was written), or none: it committed. One client
 * request token per attempt makes the SDK's own network retries of that
 * attempt safe.
 */
export async function transactWriteOrRefusals(writes: Write[]): Promise<Refusal[]> {
  if (writes.length > MAX_TRANSACTION_ITEMS) throw new Error(`transaction of ${writes.length} items exceeds ${MAX_TRANSACTION_ITEMS}`);
  for (let attempt = 0; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: writes.map((write) => write.item), ClientRequestToken: randomUUID() }));
      return [];
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const refusals = refusalsOf(error);
      if (refusals.length > 0) return refusals;
      const codes = (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
      const retryable = codes.every((code) => code === 'None' || RETRYABLE_CODES.has(code));
      if (!retryable) throw error;
      if (attempt + 1 >= MAX_ATTEMPTS) {
        if (codes.includes('TransactionConflict'))
          throw new ContentionError('Other changes to the same resources are in progress; retry the request.', { cause: error });
        throw new DatabaseBusyError('The database is throttling requests; retry the request shortly.', { cause: error });
      }
      await sleep(backoffDelay(attempt));
    }
  }
}

/** Runs one DynamoDB transaction (transactWriteOrRefusals); a failed condition is explained by the write it belongs to. */
export async function transactWrite(writes: Write[]): Promise<void> {
  const [refusal] = await transactWriteOrRefusals(writes);
  if (!refusal) return;
  throw (
    writes[refusal.index]?.explain?.(refusal.stored) ??
    new ContentionError('The request conflicts with the current state; retry the request.')
  );
}

/** A single (non-transactional) conditional write whose condition failed. */
export const isConditionFailure = (error: unknown) => (error as { name?: string }).name === 'ConditionalCheckFailedException';

/**
 * Runs a read-then-conditional-write step again when its version condition
 * lost a race (StaleReadError). The condition, not the read, guards the
 * invariant; the loop only spares the caller a needless 409.
 */
export async function withFreshRead<T>(step: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (!(error instanceof StaleReadError)) throw error;
      if (attempt + 1 >= MAX_ATTEMPTS) throw new ContentionError('The resource changed repeatedly while being updated; retry the request.');
      await sleep(backoffDelay(attempt));
    }
  }
}
