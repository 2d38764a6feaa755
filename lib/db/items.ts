/**
 * Single-item commands outside a transaction: a consistent read, and
 * conditional writes whose failed condition the caller tells apart with
 * isConditionFailure (lib/db/transact.ts). The table is filled in here.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import type { Condition, Update } from './expression';
import type { Item, Key } from './table';

/** Reads one item, strongly consistent unless told otherwise (a GET right after a write must see it). */
export async function getItem(key: Key, consistent = true): Promise<Item | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: consistent }));
  return result.Item;
}

export async function putItem(item: Item, condition?: Condition, options: { returnOld?: boolean } = {}): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: item,
      ...condition?.expressionInput(),
      ...(options.returnOld ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } : {}),
    }),
  );
}

/** Applies `changes`; answers the item as it is afterwards when `returnNew`. */
export async function updateItem(key: Key, changes: Update, options: { returnNew?: boolean } = {}): Promise<Item | undefined> {
  const result = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: changes.updateExpression,
      ...changes.expressionInput(),
      ...(options.returnNew ? { ReturnValues: 'ALL_NEW' } : {}),
    }),
  );
  return result.Attributes;
}

export async function deleteItem(key: Key, condition?: Condition): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: key, ...condition?.expressionInput() }));
}
