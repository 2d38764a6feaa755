/** The bench's own table work on the local DynamoDB: a table per dataset, large loads, and reads that page. */
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { batchPut, type Doc } from '../../test/support/measure/dataset';
import { chunks, pool, progress, round } from './util';

/** Runs `work` on a fresh table named `table` of the local DynamoDB (`env`), deleted afterwards: Local holds it in memory. */
export async function inTableOfItsOwn<T>(env: Record<string, string>, table: string, work: (table: string) => Promise<T>): Promise<T> {
  const { createTable } = await import('../../infra/local/services');
  await createTable(env.DYNAMODB_ENDPOINT, table, env.AWS_REGION);
  try {
    return await work(table);
  } finally {
    const client = new DynamoDBClient({ endpoint: env.DYNAMODB_ENDPOINT, region: env.AWS_REGION });
    const deleted = client.send(new DeleteTableCommand({ TableName: table }));
    await deleted.catch((error: unknown) => progress(`could not delete ${table}: ${String(error)}`));
    client.destroy();
  }
}

/** batchPut of many items, 10,000 at a time, 16 requests in flight, with progress after each 10,000 (`label`: what they are). */
export async function putMany(client: Doc, table: string, items: Record<string, unknown>[], label: string): Promise<void> {
  const started = performance.now();
  for (let done = 0; done < items.length;) {
    await batchPut(client, table, items.slice(done, (done += 10_000)), 16);
    progress(`${label}: ${Math.min(done, items.length)}/${items.length} items (${round((performance.now() - started) / 1000, 0)} s)`);
  }
}

type Key = { pk: string; sk: string };

/** BatchGetItem of `keys`, 100 a request, `concurrency` requests at once, unprocessed keys re-sent. */
export async function batchGet(client: Doc, table: string, keys: Key[], options: { consistent?: boolean; concurrency?: number } = {}) {
  const found: Record<string, unknown>[] = [];
  await pool(chunks(keys, 100), options.concurrency ?? 1, async (batch) => {
    for (let pending = batch; pending.length > 0;) {
      const request = { RequestItems: { [table]: { Keys: pending, ConsistentRead: options.consistent } } };
      const result = await client.send(new BatchGetCommand(request));
      found.push(...(result.Responses?.[table] ?? []));
      pending = (result.UnprocessedKeys?.[table]?.Keys as Key[] | undefined) ?? [];
    }
  });
  return found;
}

/** Every item a Query matches, page after page. */
export async function queryAll(client: Doc, input: QueryCommandInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}
