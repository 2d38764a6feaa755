/**
 * The capacity meter: a middleware on the service's client asks every command for its consumed capacity and adds it up.
 * DynamoDB Local miscounts TransactWriteItems (docs/performance.md "Capacity: the minimum of each operation"): given a
 * client of its own, the meter charges each transaction by DynamoDB's rules from the items it touches, read around it.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../../lib/db/client';
import { INDEXES, type IndexDefinition, type Key } from '../../../lib/db/table';
import type { Doc } from './dataset';
import { itemSize, writeUnits, type Item } from './item-units';
import { round, sleep, summarize, timed } from './util';

export type Capacity = ReturnType<typeof consumed>;

type Consumed = { ReadCapacityUnits?: number; WriteCapacityUnits?: number; CapacityUnits?: number };
const WRITE_COMMANDS = /Put|Update|Delete|TransactWrite|BatchWrite/;

const NO_TOTALS = { rcu: 0, tableRcu: 0, wcu: 0, txLocal: 0, txCharged: 0, txIndex: 0, commands: [] as string[] };
let totals = { ...NO_TOTALS };
/** Calls still in flight (e.g. middy's early timeout does not stop the work): `measure` waits for them. */
let inFlight = 0;
let sizer: ((keys: Key[]) => Promise<Array<Item | undefined>>) | undefined;
let installed = false;

function indexEntry(item: Item | undefined, index: IndexDefinition): string | undefined {
  if (!item) return undefined;
  const parts = [item[index.partitionKey], item[index.sortKey], index.thenBy === undefined ? '' : item[index.thenBy]];
  // A multi-attribute sort key (the count indexes): an item without every attribute is not in the index.
  return parts.some((part) => part === undefined) ? undefined : parts.map(String).join('\u0000');
}

const sameItem = (a: Item | undefined, b: Item | undefined) =>
  JSON.stringify(a, Object.keys(a ?? {}).sort()) === JSON.stringify(b, Object.keys(b ?? {}).sort());

/** One transaction item, by the developer guide's rules. */
function charge(kind: string, before: Item | undefined, after: Item | undefined, key: Key) {
  const units = writeUnits(Math.max(itemSize(before), itemSize(after)));
  let index = 0;
  if (kind !== 'ConditionCheck') {
    for (const definition of Object.values(INDEXES)) {
      const was = indexEntry(before, definition);
      const is = indexEntry(after, definition);
      if (was === undefined && is === undefined) continue;
      index += was === undefined || is === undefined ? units : was !== is ? 2 * units : sameItem(before, after) ? 0 : units;
    }
  }
  if (process.env.BENCH_DEBUG_TX) {
    console.error(`  tx ${kind} ${key.pk}|${key.sk} ${itemSize(before)}->${itemSize(after)} wcu ${2 * units + index} idx ${index}`);
  }
  return { wcu: 2 * units + index, index };
}

/** What DynamoDB charges one transaction item (`kind`: Put, Update, Delete, ConditionCheck) that turns `before` into `after`. */
export const chargedUnits = (kind: string, before: Item | undefined, after: Item | undefined) =>
  charge(kind, before, after, { pk: String(after?.pk ?? before?.pk), sk: String(after?.sk ?? before?.sk) });

/** Meters the service's client; `client` (the bench's own) reads the items of each transaction around it. */
export function meterCapacity(client?: Doc, table?: string): void {
  if (client && table) {
    sizer = (keys) =>
      Promise.all(keys.map(async (Key) => (await client.send(new GetCommand({ TableName: table, Key, ConsistentRead: true }))).Item));
  }
  if (installed) return;
  installed = true;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const name = context.commandName ?? 'unknown';
      totals.commands.push(name);
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const transaction = name === 'TransactWriteItemsCommand' && sizer;
      const entries = transaction ? (args.input as { TransactItems: Array<Record<string, { Key?: Key; Item?: Item }>> }).TransactItems : [];
      const keys = entries.map((entry) => {
        const action = Object.values(entry)[0];
        const source = action.Key ?? action.Item!;
        return { pk: String(source.pk), sk: String(source.sk) };
      });
      const before = transaction ? await sizer!(keys) : [];
      inFlight++;
      const result = await next(args).finally(() => inFlight--);
      const output = result.output as { ConsumedCapacity?: Consumed | Consumed[] };
      const isWrite = WRITE_COMMANDS.test(name);
      for (const entry of [output.ConsumedCapacity ?? []].flat()) {
        const units = entry.CapacityUnits ?? (entry.ReadCapacityUnits ?? 0) + (entry.WriteCapacityUnits ?? 0);
        if (entry.WriteCapacityUnits !== undefined || (isWrite && entry.ReadCapacityUnits === undefined)) {
          totals.wcu += entry.WriteCapacityUnits ?? units;
          totals.rcu += entry.ReadCapacityUnits ?? 0;
          if (transaction) totals.txLocal += entry.WriteCapacityUnits ?? units;
        } else {
          totals.rcu += units;
          // What a read of the table itself (not an index) cost: the lists read their items from indexes only.
          if (!(args.input as { IndexName?: string }).IndexName) totals.tableRcu += units;
        }
      }
      if (transaction) {
        const after = await sizer!(keys);
        entries.forEach((entry, i) => {
          const one = charge(Object.keys(entry)[0], before[i], after[i], keys[i]);
          totals.txCharged += one.wcu;
          totals.txIndex += one.index;
        });
      }
      return result;
    },
    { step: 'initialize', priority: 'low', name: 'benchCapacityMeter' },
  );
}

/** Takes the meter off the service's client (it reads every transaction's items around it: not for timings). */
export function stopMetering(): void {
  if (installed) db().middlewareStack.remove('benchCapacityMeter');
  installed = false;
  sizer = undefined;
}

/**
 * What the metered calls since the last reset consumed. `wcu`: Local's figure for non-transactional writes plus each
 * transaction charged by the rules (`index_wcu` of it); `calls`: the commands sent, as `GetItem Query×2`.
 */
function consumed() {
  const { rcu, tableRcu, wcu, txLocal, txCharged, txIndex, commands } = totals;
  return {
    ...{ rcu: round(rcu), wcu: round(wcu - txLocal + txCharged), index_wcu: round(txIndex), wcu_reported_by_local: round(wcu) },
    ...{ calls: summarize(commands), scans: commands.filter((command) => command === 'ScanCommand').length },
    ...{ table_rcu: round(tableRcu), count: commands.length },
  };
}

/** Runs `work` and answers what it consumed (calls made by anything else meanwhile count too: measure alone). */
export async function measure<T>(work: () => Promise<T>) {
  totals = { ...NO_TOTALS, commands: [] };
  const { result, ms } = await timed(work);
  while (inFlight > 0) await sleep(50);
  return { result, capacity: consumed(), ms };
}
