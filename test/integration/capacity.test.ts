/**
 * The capacity each operation consumes, exactly: the capacity scenario (test/support/measure/capacity-scenario.ts, the bench's too) run against
 * DynamoDB Local with ReturnConsumedCapacity on every call, each operation's read and write units against the table
 * of docs/capacity.md, and no scan anywhere. A change that makes an operation dearer fails here; one that changes
 * its cost on purpose changes its row there.
 */
import { expect, it } from 'vitest';
import { capacityFigures } from '../support/measure/capacity-figures';
import { runCapacityScenario } from '../support/measure/capacity-scenario';
import { rawClient } from '../support/measure/dataset';
import { tableName } from '../../lib/db/client';

it('consumes exactly the units of docs/capacity.md per operation, with no scan', async () => {
  process.env.BENCH_QUIET = '1';
  const client = rawClient();
  const rows = await runCapacityScenario(client, tableName());
  client.destroy();
  const expected = capacityFigures();
  expect(rows.map((row) => row.operation)).toEqual([...expected.keys()]);
  const wrong = rows.flatMap((row) => {
    const figures = expected.get(row.operation)!;
    return row.rcu === figures.rcu && row.wcu === figures.wcu && row.scans === 0
      ? []
      : [`${row.operation}: ${row.rcu} RCU / ${row.wcu} WCU, expected ${figures.rcu} / ${figures.wcu} (calls: ${row.calls})`];
  });
  expect(wrong, 'operations whose capacity changed (if intended, change their rows in docs/capacity.md)').toEqual([]);
});
