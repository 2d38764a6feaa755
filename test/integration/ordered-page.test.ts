/**
 * orderedPage, the k-way merge every name-sorted list uses, against a model:
 * random partitions, pages and — the point — expected counts that may be
 * right, skewed or plain wrong. The counts may only change how much is read,
 * never which items make the page.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../lib/db/client';
import { firstReads, orderedPage } from '../../lib/db/query';
import { type Item } from '../../lib/db/table';
import { INDEXES } from '../../lib/db/table';
import { compareCodePoints } from '../../lib/text';

let run = 0;

async function load(partitions: string[][]): Promise<string[]> {
  const prefix = `OP${run++}#`;
  const items = partitions.flatMap((names, p) =>
    names.map((name, i) => ({ pk: `${prefix}${p}#${i}`, sk: 'X', id: `${p}-${i}`, gsi1pk: `${prefix}${p}`, gsi1sk: `${name}#${p}-${i}` })),
  );
  for (let i = 0; i < items.length; i += 25) {
    const chunk = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: chunk } }));
  }
  return partitions.map((_, p) => `${prefix}${p}`);
}

describe('orderedPage', () => {
  it('sizes first reads by share, with a spread and a look-ahead, never beyond the page or the partition', () => {
    expect(firstReads(101, undefined, 2)).toEqual([101, 101]);
    expect(firstReads(101, [900, 100], 2)).toEqual([95, 15]);
    expect(firstReads(101, [0, 0], 2)).toEqual([101, 101]);
    expect(firstReads(101, [3, 1000], 2)).toEqual([2, 101]);
  });

  it('gives the page of the merged order whatever counts it is told', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 40 }), { minLength: 2, maxLength: 3 }),
        fc.nat(30),
        fc.integer({ min: 1, max: 30 }),
        fc.boolean(),
        fc.option(fc.array(fc.nat(60), { minLength: 3, maxLength: 3 })),
        async (partitions, offset, count, descending, told) => {
          const keys = await load(partitions);
          const all = partitions.flatMap((names, p) => names.map((name, i) => ({ key: `${name}#${p}-${i}`, name, id: `${p}-${i}` })));
          // Index order by key, ties (same name) by id ascending in both directions.
          all.sort((a, b) =>
            descending ? compareCodePoints(b.name, a.name) || compareCodePoints(a.id, b.id) : compareCodePoints(a.key, b.key),
          );
          const page = await orderedPage({
            queries: keys.map((partition) => ({ index: INDEXES.byName, partition })),
            offset,
            count,
            descending,
            sortGroup: (item: Item) => String(item.gsi1sk).split('#')[0],
            expectedCounts: told?.slice(0, keys.length),
          });
          expect(page.map((item) => item.id)).toEqual(all.slice(offset, offset + count).map((item) => item.id));
        },
      ),
      { numRuns: 40 },
    );
  });
});
