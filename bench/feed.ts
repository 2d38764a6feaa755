/**
 * The change feed (docs/performance.md "Change feed"), `npm run bench -- --only=feed`: a page of GET /v2/changes
 * (count 100) through its handler, metered, at each trail size (loaded directly as lib/store/audit.ts writes it and the
 * change feed's sequencer places it, in a table of its own): from the start, from the middle, one cursor on, a rare
 * resource type; GET /v2/audit's first page beside it (it merges the same shards, newest first). Goal: flat between
 * the sizes (≤ 1.2×); beside it, RCU over the page's minimum, the returned entries as one strongly consistent read
 * (the feed must read consistently; the audit list need not).
 */
import { randomUUID } from 'node:crypto';
import type { Item } from '../lib/db/table';
import type { AuditInput } from '../lib/store/audit';
import { rawClient, type Doc } from '../test/support/measure/dataset';
import { inTableOfItsOwn, pageCost, putMany } from './support/tables';
import { auditItemsFor, prng } from './support/list-dataset';
import { median, progress, round } from './support/util';

export const FEED_GOALS = { flat: 1.2 } as const;

const NOW_MS = Date.parse('2026-11-22T12:00:00.000Z');
const DAY_MS = 86_400_000;
const ACTORS = ['local-admin', 'scim:okta', 'scim:entra', 'hr-sync', 'alice.it', 'bob.it', 'carol.hr', 'dave.ops'];

/** Entries as the service records them: moves, user changes, group adds (90%, 8%, 2%), over the year before NOW. */
function trailEntries(n: number, prefix: string): Array<AuditInput & { at: string }> {
  const random = prng(`feed-trail:${n}`); // the same trail on every run
  return Array.from({ length: n }, () => {
    const at = new Date(NOW_MS - random() * 365 * DAY_MS).toISOString();
    const base = { at, actor: ACTORS[Math.floor(random() ** 2 * ACTORS.length)], request_id: randomUUID() };
    const user = `${prefix}u${Math.floor(random() * n)}`;
    const draw = random();
    if (draw < 0.9) {
      const department = `${prefix}d${Math.floor(random() * 1000)}`;
      return { ...base, operation: 'E2', resource_type: 'department', resource_id: department, changes: { added_user_ids: [user] } };
    }
    const changes = { last_name: { from: 'Old', to: 'New' } };
    if (draw < 0.98) return { ...base, operation: 'updateUser', resource_type: 'user', resource_id: user, changes };
    const group = `${prefix}g${Math.floor(random() * 100)}`;
    return { ...base, operation: 'G4', resource_type: 'group', resource_id: group, changes: { added_user_ids: [user] } };
  });
}

/** The feed's items of a trail loaded directly, as the sequencer would have appended them: each shard in `at` order. */
async function feedItemsOf(audit: Item[]): Promise<Item[]> {
  const { shardOfAuditItem, toAuditEntry } = await import('../lib/store/audit');
  const { feedHeadItem, feedItem } = await import('../lib/store/feed');
  const heads = new Map<number, { next: number; last: string }>();
  const items = [...audit]
    .sort((a, b) => (String(a.sk) < String(b.sk) ? -1 : 1))
    .map((entry) => {
      const shard = shardOfAuditItem(entry);
      const head = heads.get(shard) ?? { next: 1, last: '' };
      heads.set(shard, { next: head.next + 1, last: String(entry.at) });
      return feedItem(shard, head.next, String(entry.at), toAuditEntry(entry));
    });
  return [...items, ...[...heads].map(([shard, head]) => feedHeadItem(shard, head))];
}

/** Each page request at one trail size, in a table of its own (lib/ reads TABLE_NAME at each call). */
async function measurePages(env: Record<string, string>, client: Doc, entries: number) {
  return inTableOfItsOwn(env, `${env.TABLE_NAME}-feed-${entries}`, async (table) => {
    process.env.TABLE_NAME = table;
    const { meterCapacity, stopMetering } = await import('../test/support/measure/capacity-meter');
    const { metered } = await import('../test/support/measure/handler-call');
    const audit = auditItemsFor(trailEntries(entries, `f${entries}-`));
    const feed = await feedItemsOf(audit);
    await putMany(client, table, [...audit, ...feed], `feed: ${entries} trail entries and their feed`);
    // What each list's page reads: the feed's copies for GET /v2/changes, the trail's entries for GET /v2/audit.
    const keysOf = (of: Item[]) => new Map(of.map((item) => [String(item.id), { pk: String(item.pk), sk: String(item.sk) }]));
    const keyed = { listChanges: keysOf(feed.filter((item) => item.type === 'feed')), listAudit: keysOf(audit) };

    meterCapacity();
    const call = (operationId: string, query: Record<string, string>) => metered(operationId, { query }, 10_000);
    // Warm-up: both handlers loaded and the client connected.
    await call('listChanges', { count: '1', since: 'now' });
    await call('listAudit', { count: '1', since: new Date(NOW_MS - DAY_MS).toISOString() });
    const cursor = String((await call('listChanges', { count: '100' })).body?.next_cursor ?? '');
    const middle = new Date(NOW_MS - 182 * DAY_MS).toISOString();
    // The feed must read consistently (its minimum: the entries as one strongly consistent read); the audit list need not.
    const plan: Array<[request: string, operation: keyof typeof keyed, query: Record<string, string>, consistent: boolean]> = [
      ['listChanges from the start', 'listChanges', {}, true],
      ['listChanges since the middle', 'listChanges', { since: middle }, true],
      ['listChanges next_cursor', 'listChanges', { cursor }, true],
      ['listChanges resource_type=group (2%)', 'listChanges', { resource_type: 'group' }, true],
      ['listChanges since=now', 'listChanges', { since: 'now' }, true],
      ['listAudit default', 'listAudit', {}, false],
    ];
    const rows = [];
    for (const [request, operation, query, consistent] of plan) {
      const runs = [];
      for (let run = 0; run < 3; run++) runs.push(await call(operation, { count: '100', ...query }));
      const last = runs[runs.length - 1];
      const page = await pageCost(client, table, last.body ?? {}, keyed[operation], consistent);
      const minRcu = page.items ? page.rcu : 0;
      const rcu = median(runs.map((r) => r.capacity.rcu));
      rows.push({
        ...{ request, entries, status: last.status, returned: page.items, rcu, min_rcu: minRcu },
        ...{ over_min: minRcu ? round(rcu / minRcu, 2) : 0, calls: last.capacity.calls, ms: round(median(runs.map((r) => r.ms)), 1) },
        ...{ rcu_ratio: null as number | null, meets_goal: false },
      });
      progress(`feed ${entries}: ${request}: ${page.items} entries, ${rcu} RCU (min ${minRcu})`);
    }
    stopMetering();
    return rows;
  });
}
type FeedPageRow = Awaited<ReturnType<typeof measurePages>>[number];

export async function measureFeed(env: Record<string, string>, sizes: { entries: number[] }) {
  const client = rawClient();
  const original = process.env.TABLE_NAME;
  try {
    const pages: FeedPageRow[] = [];
    for (const entries of sizes.entries) pages.push(...(await measurePages(env, client, entries)));
    return judge(pages, Math.min(...sizes.entries));
  } finally {
    process.env.TABLE_NAME = original;
    client.destroy();
  }
}

/**
 * Each request's RCU over its minimum at each size against the smallest size's: flat, a page costs the same however
 * long the trail. (A feed page is one strongly consistent Query per shard, each rounded up to a whole read unit, so
 * AUDIT_SHARDS units is its floor whatever it returns: `over_min` is shown, not judged.)
 */
function judge(rows: FeedPageRow[], smallest: number): FeedPageRow[] {
  const base = new Map(rows.filter((r) => r.entries === smallest).map((r) => [r.request, r]));
  const perMin = (r: FeedPageRow) => (r.min_rcu ? r.rcu / r.min_rcu : r.rcu);
  return rows.map((row) => {
    const reference = base.get(row.request)!;
    const ratio = row.entries === smallest ? null : round(perMin(row) / Math.max(perMin(reference), 1e-9), 2);
    // An empty page (since=now) reads nothing at either size.
    const flat = ratio === null || ratio <= FEED_GOALS.flat || (row.rcu === 0 && reference.rcu === 0);
    return { ...row, rcu_ratio: ratio, meets_goal: row.status === 200 && flat };
  });
}
