/**
 * Counts the capacity DynamoDB reports for every call of the service's
 * client: a middleware asks each command for `ReturnConsumedCapacity: TOTAL`
 * and adds up what comes back (reads and writes, indexes included).
 */
import { db } from '../../lib/db/client';

export interface Capacity {
  rcu: number;
  wcu: number;
  calls: number;
}

type Consumed = { ReadCapacityUnits?: number; WriteCapacityUnits?: number; CapacityUnits?: number };

let installed = false;
let totals: Capacity = { rcu: 0, wcu: 0, calls: 0 };
const WRITE_COMMANDS = /Put|Update|Delete|TransactWrite|BatchWrite/;

export function meterCapacity(): void {
  if (installed) return;
  installed = true;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const output = result.output as { ConsumedCapacity?: Consumed | Consumed[] };
      const consumed = [output.ConsumedCapacity ?? []].flat();
      const isWrite = WRITE_COMMANDS.test(context.commandName ?? '');
      for (const entry of consumed) {
        const units = entry.CapacityUnits ?? (entry.ReadCapacityUnits ?? 0) + (entry.WriteCapacityUnits ?? 0);
        if (entry.WriteCapacityUnits !== undefined || (isWrite && entry.ReadCapacityUnits === undefined)) {
          totals.wcu += entry.WriteCapacityUnits ?? units;
          totals.rcu += entry.ReadCapacityUnits ?? 0;
        } else {
          totals.rcu += units;
        }
      }
      totals.calls++;
      return result;
    },
    { step: 'initialize', name: 'capacityMeter' },
  );
}

/** What was consumed since the current `measure` began (to split one measured run into its steps). */
export const capacitySoFar = (): Capacity => ({ ...totals });

/** Runs `work` and answers what it consumed (calls made by anything else meanwhile count too: measure alone). */
export async function measure<T>(work: () => Promise<T>): Promise<{ result: T; capacity: Capacity; ms: number }> {
  totals = { rcu: 0, wcu: 0, calls: 0 };
  const start = performance.now();
  const result = await work();
  const ms = performance.now() - start;
  return { result, capacity: { ...totals }, ms };
}
