/**
 * The capacity each operation consumes, exactly: the bench's capacity
 * scenario (bench/capacity-ops.ts) run against DynamoDB Local with
 * ReturnConsumedCapacity on every call, each operation's read and write
 * units against bench/capacity-minima.ts, and no scan anywhere. A change
 * that makes an operation dearer fails here; one that changes its cost on
 * purpose updates its row there.
 */
import { describe, expect, it } from 'vitest';
import { CAPACITY_MINIMA, expectedCapacity } from '../../bench/capacity-minima';
import { runCapacityScenario, type CapacityRow } from '../../bench/capacity-ops';
import { rawClient } from '../../bench/support/dataset';
import { tableName } from '../../lib/db/client';

describe('capacity per operation', () => {
  let rows: CapacityRow[] = [];

  it('runs every operation of the scenario, none with a scan', async () => {
    process.env.BENCH_QUIET = '1';
    const client = rawClient();
    rows = await runCapacityScenario(client, tableName());
    client.destroy();
    expect(rows.map((row) => row.operation)).toEqual(Object.keys(CAPACITY_MINIMA));
    expect(rows.filter((row) => row.scans > 0).map((row) => `${row.operation}: ${row.calls}`)).toEqual([]);
  });

  it('consumes exactly the units of bench/capacity-minima.ts', () => {
    const wrong = rows.flatMap((row) => {
      const expected = expectedCapacity(CAPACITY_MINIMA[row.operation]);
      return row.rcu === expected.rcu && row.wcu === expected.wcu
        ? []
        : [`${row.operation}: ${row.rcu} RCU / ${row.wcu} WCU, expected ${expected.rcu} / ${expected.wcu} (calls: ${row.calls})`];
    });
    expect(wrong, 'operations whose capacity changed: update bench/capacity-minima.ts if intended').toEqual([]);
  });
});
