/** The bench's own table work on the local DynamoDB: a table per dataset (or per child process), large loads, reads. */
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { batchPut, type Doc } from '../../test/support/measure/dataset';
import { itemSize, query as queryUnits } from '../../test/support/measure/item-units';
import { chunks, jsonChild, pool, progress, round } from './util';

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

/** An item as stored, read strongly consistent by the bench's own client (not metered). */
export const getItem = async (client: Doc, table: string, key: Record<string, unknown>) =>
  (await client.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;

/** User counts (smallest first), departments, and timed runs per request, of a section that runs a child per size. */
export type ChildSizes = { users: number[]; departments: number; runs: number };
/** What one child measures: one size of `ChildSizes`. */
export type ChildSpec = Omit<ChildSizes, 'users'> & { users: number };

/**
 * Each size on a table of its own, measured by `bench/<script>` in a fresh process (BENCH_<NAME>_CHILD set to its
 * ChildSpec: the handlers' warm state, client and caches included, does not cross sizes); the rows each child printed.
 */
export async function childPerSize<Row>(env: Record<string, string>, name: string, script: string, sizes: ChildSizes): Promise<Row[]> {
  const rows: Row[] = [];
  for (const users of sizes.users) {
    await inTableOfItsOwn(env, `${env.TABLE_NAME}-${name}-${users}`, async (table) => {
      progress(`${name}: ${users} users in ${sizes.departments} departments, in table ${table} (a fresh process)`);
      const child = { TABLE_NAME: table, [`BENCH_${name.toUpperCase()}_CHILD`]: JSON.stringify({ ...sizes, users }) };
      rows.push(...(await jsonChild<Row[]>(script, { ...env, ...child }, 'progress')));
    });
  }
  return rows;
}

/**
 * What reading a page itself costs: the items of the answer's list, sized as stored (read back by `keys`, their items'
 * keys by id, unmetered; an item not found is sized from its JSON), as one Query (eventually consistent unless told).
 */
export async function pageCost(client: Doc, table: string, body: object, keys: Map<string, Key>, consistent = false) {
  const isList = (value: unknown): value is Array<Record<string, unknown>> =>
    Array.isArray(value) && value.every((v) => typeof v === 'object' && v !== null);
  const returned = Object.values(body).find(isList) ?? [];
  const wanted = returned.map((item) => keys.get(String(item.id))).filter((key) => key !== undefined);
  const stored = new Map((await batchGet(client, table, wanted)).map((item) => [`${String(item.pk)}|${String(item.sk)}`, item]));
  let approximated = 0;
  const sizes = returned.map((item) => {
    const key = keys.get(String(item.id));
    const found = key && stored.get(`${key.pk}|${key.sk}`);
    if (found) return itemSize(found);
    approximated++;
    return Buffer.byteLength(JSON.stringify(item), 'utf8');
  });
  return { rcu: queryUnits(sizes, consistent).rcu, items: returned.length, bytes: sizes.reduce((a, b) => a + b, 0), approximated };
}
