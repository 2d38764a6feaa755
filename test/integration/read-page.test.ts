/**
 * readPage (lib/lists/streams.ts), the merge every list reads its pages
 * with, against a model: random partitions of a real index, filters that
 * drop items (whole pages of them, in either direction), offsets, cursors,
 * and expected counts and selectivities that may be right or plain wrong.
 * What it is told may only change how much it reads, never the page.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../lib/db/client';
import { compare, firstReads } from '../../lib/db/query';
import { INDEXES, type Item } from '../../lib/db/table';
import { readPage, splitKey, type Position, type Source } from '../../lib/lists/streams';
import { compareCodePoints, KEY_SEPARATOR } from '../../lib/text';

let run = 0;

interface Entry {
  name: string;
  id: string;
  kept: boolean;
}

/** Writes each partition's entries into byName (gsi1); answers the partitions' keys. */
async function load(partitions: Entry[][]): Promise<string[]> {
  const prefix = `RP${run++}#`;
  const items = partitions.flatMap((entries, p) =>
    entries.map((e) => ({
      pk: `${prefix}${e.id}`,
      sk: 'X',
      id: e.id,
      kept: e.kept,
      gsi1pk: `${prefix}${p}`,
      gsi1sk: `${e.name}${KEY_SEPARATOR}${e.id}`,
    })),
  );
  for (let i = 0; i < items.length; i += 25) {
    const chunk = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: chunk } }));
  }
  return partitions.map((_, p) => `${prefix}${p}`);
}

const entries = (p: number) =>
  fc
    .array(fc.record({ name: fc.constantFrom('a', 'b', 'c', 'd'), kept: fc.boolean() }), { maxLength: 30 })
    .map((list) => list.map((e, i) => ({ ...e, id: `${p}-${String(i).padStart(2, '0')}` })));

/** Counts the Query calls sent until the `countQueries` middleware is removed. */
function countQueries(): { count: number } {
  const queries = { count: 0 };
  db().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'QueryCommand') queries.count++;
      return next(args);
    },
    { step: 'initialize', name: 'countQueries' },
  );
  return queries;
}

describe('readPage', () => {
  it('sizes first reads by share, with a look-ahead, never beyond the page or the partition', () => {
    expect(firstReads(101, undefined, 2)).toEqual([101, 101]);
    expect(firstReads(101, [900, 100], 2)).toEqual([92, 12]);
    expect(firstReads(101, [0, 0], 2)).toEqual([101, 101]);
    expect(firstReads(101, [3, 1000], 2)).toEqual([2, 101]);
  });

  it('reads on past a descending page its filter empties', async () => {
    const names = ['d', 'd', 'c', 'c', 'b', 'a'];
    const [partition] = await load([names.map((name, i) => ({ name, id: `0-${i}`, kept: name < 'c' }))]);
    const sources: Source[] = [
      { query: { index: INDEXES.byName, partition, filter: compare('kept', '=', true, 'kept') }, expected: 1, selectivity: 1 },
    ];
    const page = await readPage({ sources, direction: 'desc', sortKey: (item) => String(item.gsi1sk), skip: 0, take: 1 });
    expect(page.items.map((i) => i.id)).toEqual(['0-4']);
  });

  it('reads the run a descending page ends in again only when the page takes its items', async () => {
    // Ids ascend within a name, so the run of b is 0-2, 0-3, 0-4; read backwards, the page of 3 sees only 0-4 of it.
    const names = ['d', 'c', 'b', 'b', 'b'];
    const [partition] = await load([names.map((name, i) => ({ name, id: `0-${i}`, kept: true }))]);
    const sources: Source[] = [{ query: { index: INDEXES.byName, partition }, expected: 1, selectivity: 1 }];
    const sortKey = (item: Item) => String(item.gsi1sk);
    const queries = countQueries();
    try {
      // Two items and the look-ahead: that b's run holds an item is all the page needs to know.
      const two = await readPage({ sources, direction: 'desc', sortKey, skip: 0, take: 2 });
      expect(two.items.map((i) => i.id)).toEqual(['0-0', '0-1']);
      expect(two.next).toEqual({ field: 'c', id: '0-1' });
      expect(queries.count).toBe(1);
      // The page takes the run's first item: the run is read forwards from its start, by id.
      queries.count = 0;
      const three = await readPage({ sources, direction: 'desc', sortKey, skip: 0, take: 3 });
      expect(three.items.map((i) => i.id)).toEqual(['0-0', '0-1', '0-2']);
      expect(queries.count).toBe(2);
    } finally {
      db().middlewareStack.remove('countQueries');
    }
  });

  it('learns that another page follows from any partition, without reading on the one the page ended in', async () => {
    const [first, second] = await load([
      Array.from({ length: 30 }, (_, i) => ({ name: 'a', id: `0-${String(i).padStart(2, '0')}`, kept: true })),
      Array.from({ length: 30 }, (_, i) => ({ name: 'b', id: `1-${String(i).padStart(2, '0')}`, kept: true })),
    ]);
    // Told the first partition holds 19 and the second none, the first reads 20 (the whole page) and the second one
    // unit's worth, whose head follows the page.
    const sources: Source[] = [
      { query: { index: INDEXES.byName, partition: first }, expected: 19, selectivity: 1 },
      { query: { index: INDEXES.byName, partition: second }, expected: 0, selectivity: 1 },
    ];
    const queries = countQueries();
    try {
      const page = await readPage({ sources, direction: 'asc', sortKey: (item) => String(item.gsi1sk), skip: 0, take: 20 });
      expect(page.items.map((i) => i.id)).toEqual(Array.from({ length: 20 }, (_, i) => `0-${String(i).padStart(2, '0')}`));
      expect(page.next).toEqual({ field: 'a', id: '0-19' });
      expect(queries.count).toBe(2);
    } finally {
      db().middlewareStack.remove('countQueries');
    }
  });

  it('gives the page of the merged order, after an offset or a cursor, whatever it is told about the partitions', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(entries(0), entries(1), entries(2)).chain((all) => fc.tuple(fc.constant(all), fc.integer({ min: 1, max: 3 }))),
        fc.boolean(),
        fc.constantFrom('asc' as const, 'desc' as const),
        fc.nat(12),
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.record({ expected: fc.nat(50), selectivity: fc.constantFrom(0.05, 0.5, 1) }), { minLength: 3, maxLength: 3 }),
        fc.boolean(),
        async ([all, used], filtered, direction, skip, take, told, byCursor) => {
          const partitions = all.slice(0, used);
          const keys = await load(partitions);
          const filter = filtered ? compare('kept', '=', true, 'kept') : undefined;
          const sources: Source[] = keys.map((partition, i) => ({ query: { index: INDEXES.byName, partition, filter }, ...told[i] }));
          const sign = direction === 'desc' ? -1 : 1;
          const model = partitions
            .flat()
            .filter((e) => !filtered || e.kept)
            .sort((a, b) => sign * compareCodePoints(a.name, b.name) || compareCodePoints(a.id, b.id));
          const sortKey = (item: Item) => String(item.gsi1sk);

          // An offset, or the same position reached by walking cursors of `take` items.
          let after: Position | undefined;
          let offset = skip;
          if (byCursor) {
            for (offset = 0; offset + take <= skip; offset += take) {
              const page = await readPage({ sources, direction, sortKey, after, skip: 0, take });
              expect(page.items.map((i) => i.id)).toEqual(model.slice(offset, offset + take).map((e) => e.id));
              if (!page.next) return; // the list ended: its last page is checked
              after = page.next;
            }
          }
          const page = await readPage({ sources, direction, sortKey, after, skip: byCursor ? 0 : skip, take });
          const expected = model.slice(offset, offset + take);
          expect(page.items.map((i) => i.id)).toEqual(expected.map((e) => e.id));
          const last = expected.at(-1);
          const more = offset + take < model.length;
          expect(page.next).toEqual(more && last ? splitKey(`${last.name}${KEY_SEPARATOR}${last.id}`) : undefined);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});
