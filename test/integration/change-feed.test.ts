/**
 * The change feed (lib/changes/feed.ts) and its sequencer (lib/changes/sequencer.ts) against DynamoDB Local: an
 * entry is in the feed once sequenced, oldest first across the trail's shards, by a cursor that is never null, never
 * skipping or repeating; sequencers racing on the same entries give each entry one place, numbers consecutive; a
 * page stops a shard at a gap in its numbers (a transaction still landing).
 */
import { describe, expect, it } from 'vitest';
import { recordChange } from '../../lib/audit/context';
import { readChanges, type ChangeFeedRequest } from '../../lib/changes/feed';
import { sequenceEntries, sequencePending } from '../../lib/changes/sequencer';
import { queryPage } from '../../lib/db/query';
import { putItem } from '../../lib/db/items';
import { PRIMARY_KEY } from '../../lib/db/table';
import { transactWrite } from '../../lib/db/transact';
import { Problem } from '../../lib/problems';
import { AUDIT_SHARDS, pendingEntries, type AuditEntry } from '../../lib/store/audit';
import { feedItem, readHead } from '../../lib/store/feed';

const ctx = (actor: string) => ({ actor, operationId: 'test', requestId: 'test' });

async function record(actor: string, resourceType: 'user' | 'department', resourceId: string): Promise<void> {
  await transactWrite([recordChange(ctx(actor), { resourceType, resourceId, changes: { n: resourceId } })]);
}

/** Every entry in the feed now, page by page, until the cursor stays where it is. */
async function walk(request: Omit<ChangeFeedRequest, 'count'>, count: number) {
  const seen: AuditEntry[] = [];
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    const page = await readChanges({ ...request, ...(cursor ? { cursor, since: undefined } : {}), count });
    expect(page.next_cursor).toEqual(expect.any(String));
    expect(page.count).toBe(page.changes.length);
    expect(page.count).toBeLessThanOrEqual(count);
    seen.push(...page.changes);
    pages++;
    if (page.next_cursor === cursor) return { seen, cursor, pages };
    cursor = page.next_cursor;
  }
}

/** Every pending entry, read from the index (eventually consistent: DynamoDB Local's is not behind). */
async function pendingAudit() {
  const shards = await Promise.all(Array.from({ length: AUDIT_SHARDS }, (_, shard) => queryPage(pendingEntries(shard), { limit: 1000 })));
  return shards.flatMap((shard) => shard.items);
}

/** Every feed item of a shard, in order. */
const shardItems = async (shard: number) =>
  (await queryPage({ index: PRIMARY_KEY, partition: `FEED#${shard}`, consistent: true }, { limit: 1000 })).items;

describe('the change feed', () => {
  it('walks every entry once, oldest first, across the shards, in pages of any size', async () => {
    const since = new Date().toISOString();
    for (let i = 0; i < 60; i++) {
      await record('walker', 'user', `w${i}`);
      // One at a time, as the stream brings them: the feed's order is the order they were placed in (a clock tick apart).
      await sequencePending();
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const all = (await walk({ since, resourceTypes: [], excludeActors: [] }, 1000)).seen;
    expect(all.map((e) => e.resource_id)).toEqual(Array.from({ length: 60 }, (_, i) => `w${i}`));
    for (const count of [1, 7, 16, 100]) {
      const { seen } = await walk({ since, resourceTypes: [], excludeActors: [] }, count);
      expect(seen.map((e) => e.id)).toEqual(all.map((e) => e.id));
    }
  });

  it('filters by resource type and leaves out actors, and a cursor keeps its filters', async () => {
    const since = new Date().toISOString();
    for (let i = 0; i < 20; i++) await record(i % 2 ? 'me' : 'them', i % 3 ? 'user' : 'department', `f${i}`);
    await sequencePending();
    const { seen } = await walk({ since, resourceTypes: ['department'], excludeActors: ['me'] }, 3);
    const expected = Array.from({ length: 20 }, (_, i) => i).filter((i) => i % 3 === 0 && i % 2 === 0);
    expect(seen.map((e) => e.resource_id).sort()).toEqual(expected.map((i) => `f${i}`).sort());

    const page = await readChanges({ since, count: 1, resourceTypes: ['department'], excludeActors: [] });
    await expect(readChanges({ cursor: page.next_cursor, count: 1, resourceTypes: ['user'], excludeActors: [] })).rejects.toThrow(Problem);
    await expect(
      readChanges({ cursor: page.next_cursor, since, count: 1, resourceTypes: ['department'], excludeActors: [] }),
    ).rejects.toThrow(Problem);
  });

  it('gives an entry once it is sequenced, and the cursor of an empty page picks it up then', async () => {
    const start = await readChanges({ since: 'now', count: 10, resourceTypes: [], excludeActors: [] });
    expect(start.changes).toEqual([]);
    await record('sequencing', 'user', 's1');
    // Committed, not yet sequenced: not in the feed, and the cursor stays where it was.
    const early = await readChanges({ cursor: start.next_cursor, count: 10, resourceTypes: [], excludeActors: [] });
    expect(early.changes).toEqual([]);
    expect(early.next_cursor).toBe(start.next_cursor);
    expect(await sequencePending()).toBe(1);
    const placed = await readChanges({ cursor: early.next_cursor, count: 10, resourceTypes: [], excludeActors: [] });
    expect(placed.changes.map((e) => e.resource_id)).toEqual(['s1']);
    const after = await readChanges({ cursor: placed.next_cursor, count: 10, resourceTypes: [], excludeActors: [] });
    expect(after.changes).toEqual([]);
    expect(await pendingAudit()).toEqual([]);
  });

  it('`since=now` starts after everything already in the feed', async () => {
    await record('before', 'user', 'b1');
    await sequencePending();
    const start = await readChanges({ since: 'now', count: 10, resourceTypes: [], excludeActors: [] });
    await record('after', 'user', 'a1');
    await sequencePending();
    const next = await readChanges({ cursor: start.next_cursor, count: 10, resourceTypes: [], excludeActors: [] });
    expect(next.changes.map((e) => e.resource_id)).toEqual(['a1']);
  });

  it('`since` gives what reached the feed at or after it: an entry stamped before it but sequenced after it too', async () => {
    await record('old', 'user', 'stamped-before');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const since = new Date().toISOString();
    await sequencePending();
    const { seen } = await walk({ since, resourceTypes: [], excludeActors: [] }, 10);
    expect(seen.map((e) => e.resource_id)).toEqual(['stamped-before']);
    expect(seen[0].at < since).toBe(true);
  });
});

describe('the sequencer', () => {
  it('gives each entry one place when sequencers race on the same entries, the numbers of each shard consecutive', async () => {
    const since = new Date().toISOString();
    for (let i = 0; i < 120; i++) await record('racer', 'user', `r${i}`);
    const pending = await pendingAudit();
    expect(pending).toHaveLength(120);
    const heads = await Promise.all(Array.from({ length: AUDIT_SHARDS }, (_, shard) => readHead(shard)));
    // Four sequencers at once over the same entries, as the stream, its retry and the sweep could be.
    const placed = await Promise.all([
      sequenceEntries(pending),
      sequenceEntries([...pending].reverse()),
      sequencePending(),
      sequenceEntries(pending.slice(30, 90)),
    ]);
    expect(placed.reduce((a, b) => a + b, 0)).toBe(120);
    expect(await pendingAudit()).toEqual([]);
    for (let shard = 0; shard < AUDIT_SHARDS; shard++) {
      const items = (await shardItems(shard)).filter((item) => Number(item.seq) >= heads[shard].next);
      expect(items.map((item) => Number(item.seq))).toEqual(items.map((_, i) => heads[shard].next + i));
      expect((await readHead(shard)).next).toBe(heads[shard].next + items.length);
    }
    const { seen } = await walk({ since, resourceTypes: [], excludeActors: [] }, 50);
    expect(seen.map((e) => e.resource_id).sort()).toEqual(Array.from({ length: 120 }, (_, i) => `r${i}`).sort());
    // A duplicate delivery later places nothing.
    expect(await sequenceEntries(pending)).toBe(0);
  });

  it("stops a page at a gap in a shard's numbers, and gives the rest once the gap is filled", async () => {
    await record('gap', 'user', 'g0');
    await sequencePending();
    const start = await readChanges({ since: 'now', count: 10, resourceTypes: [], excludeActors: [] });
    const shard = 0;
    const head = await readHead(shard);
    const at = new Date().toISOString();
    const entry = (n: number): AuditEntry => ({
      id: `gap${n}x${head.next}`,
      at,
      actor: 'gap',
      operation: 'test',
      resource_type: 'user',
      resource_id: `gap-${n}`,
      changes: {},
    });
    // As a query may see a transaction half landed: number next + 1 visible, number next not yet.
    await putItem(feedItem(shard, head.next + 1, at, entry(2)));
    const stopped = await readChanges({ cursor: start.next_cursor, count: 10, resourceTypes: [], excludeActors: [] });
    expect(stopped.changes.map((e) => e.resource_id)).not.toContain('gap-2');
    await putItem(feedItem(shard, head.next, at, entry(1)));
    const { seen } = await walk({ cursor: stopped.next_cursor, resourceTypes: [], excludeActors: [] }, 10);
    expect(seen.filter((e) => e.actor === 'gap').map((e) => e.resource_id)).toEqual(['gap-1', 'gap-2']);
  });
});
