/**
 * The change feed (lib/changes/feed.ts) against DynamoDB Local: oldest first
 * across the trail's shards, by a cursor that is never null, never skipping
 * or repeating, returning only what is settled; the reader's clock is given.
 */
import { describe, expect, it } from 'vitest';
import { recordChange } from '../../lib/audit/context';
import { FEED_SETTLE_MS, readChanges, type ChangeFeedRequest } from '../../lib/changes/feed';
import { transactWrite } from '../../lib/db/transact';
import { Problem } from '../../lib/problems';
import type { AuditEntry } from '../../lib/store/audit';

const ctx = (actor: string) => ({ actor, operationId: 'test', requestId: 'test' });
const later = () => new Date(Date.now() + FEED_SETTLE_MS + 1);

async function record(actor: string, resourceType: 'user' | 'department', resourceId: string): Promise<void> {
  await transactWrite([recordChange(ctx(actor), { resourceType, resourceId, changes: { n: resourceId } })]);
}

/** Every entry settled at one reader's time, page by page, until the cursor stays where it is. */
async function walk(request: Omit<ChangeFeedRequest, 'count'>, count: number) {
  const now = later();
  const seen: AuditEntry[] = [];
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    const page = await readChanges({ ...request, ...(cursor ? { cursor, since: undefined } : {}), count }, now);
    expect(page.next_cursor).toEqual(expect.any(String));
    expect(page.count).toBe(page.changes.length);
    expect(page.count).toBeLessThanOrEqual(count);
    seen.push(...page.changes);
    pages++;
    if (page.next_cursor === cursor) return { seen, cursor, pages };
    cursor = page.next_cursor;
  }
}

describe('the change feed', () => {
  it('walks every entry once, oldest first, across the shards, in pages of any size', async () => {
    const since = new Date().toISOString();
    for (let i = 0; i < 60; i++) await record('walker', 'user', `w${i}`);
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
    const { seen } = await walk({ since, resourceTypes: ['department'], excludeActors: ['me'] }, 3);
    const expected = Array.from({ length: 20 }, (_, i) => i).filter((i) => i % 3 === 0 && i % 2 === 0);
    expect(seen.map((e) => e.resource_id)).toEqual(expected.map((i) => `f${i}`));

    const page = await readChanges({ since, count: 1, resourceTypes: ['department'], excludeActors: [] }, later());
    await expect(readChanges({ cursor: page.next_cursor, count: 1, resourceTypes: ['user'], excludeActors: [] }, later())).rejects.toThrow(
      Problem,
    );
    await expect(
      readChanges({ cursor: page.next_cursor, since, count: 1, resourceTypes: ['department'], excludeActors: [] }, later()),
    ).rejects.toThrow(Problem);
  });

  it('returns only settled entries, and the cursor of an empty page picks up what settles later', async () => {
    const start = await readChanges({ since: 'now', count: 10, resourceTypes: [], excludeActors: [] }, new Date());
    expect(start.changes).toEqual([]);
    await record('settling', 'user', 's1');
    // At the reader's own time the entry is too young: nothing, and the cursor stays where it was.
    const early = await readChanges({ cursor: start.next_cursor, count: 10, resourceTypes: [], excludeActors: [] }, new Date());
    expect(early.changes).toEqual([]);
    const settled = await readChanges({ cursor: early.next_cursor, count: 10, resourceTypes: [], excludeActors: [] }, later());
    expect(settled.changes.map((e) => e.resource_id)).toEqual(['s1']);
    const after = await readChanges({ cursor: settled.next_cursor, count: 10, resourceTypes: [], excludeActors: [] }, later());
    expect(after.changes).toEqual([]);
  });

  it('`since=now` starts after everything already recorded', async () => {
    await record('before', 'user', 'b1');
    const start = await readChanges({ since: 'now', count: 10, resourceTypes: [], excludeActors: [] }, new Date());
    await new Promise((resolve) => setTimeout(resolve, 5));
    await record('after', 'user', 'a1');
    const next = await readChanges({ cursor: start.next_cursor, count: 10, resourceTypes: [], excludeActors: [] }, later());
    expect(next.changes.map((e) => e.resource_id)).toEqual(['a1']);
  });
});
