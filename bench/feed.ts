/**
 * The change feed (docs/performance.md "Change feed"), `npm run bench -- --only=feed`:
 *
 * (a) a page of GET /v2/changes (count 100) through its handler, metered, at each trail size (10,000 and 100,000
 *     entries, loaded directly as lib/store/audit.ts writes them and the change feed's sequencer places them, in a
 *     table of their own): from the start, from the
 *     middle, one cursor on, a rare resource type; GET /v2/audit's first page beside it (it merges the same
 *     AUDIT_SHARDS shards, newest first). Goal: flat between the sizes (≤ 1.2×); beside it, RCU over the page's minimum, the
 *     returned entries as one strongly consistent read (the feed must read consistently; the audit list need not).
 * (b) changes a second written with the trail in AUDIT_SHARDS base-table partitions against the old layout (one
 *     index partition, `AUDIT` of byName, for every entry), measured on DynamoDB Local, which has no per-partition
 *     limit (so both are bound by Local's CPU alone, and say nothing of AWS), and on paper from DynamoDB's
 *     documented limits: 1,000 WCU/s per partition, a transactional write 2 WCU per KB, an index write 1 WCU per KB
 *     (the sequencer's part, which takes each entry's pending mark off and so rewrites it, counted on paper).
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import type { Item } from '../lib/db/table';
import type { AuditInput } from '../lib/store/audit';
import { batchGet, batchPut, inTableOfItsOwn, rawClient, type Doc } from './support/dataset';
import { prng } from './support/list-dataset';
import { itemSize, query as queryUnits, writeUnits } from './support/units';
import { median, progress, round } from './support/util';

export const FEED_GOALS = { flat: 1.2 } as const;

/** DynamoDB's documented per-partition write limit (base table and each index partition alike). */
const PARTITION_WCU_PER_SECOND = 1_000;

export interface FeedPageRow {
  request: string;
  entries: number;
  status: number;
  returned: number;
  rcu: number;
  min_rcu: number;
  over_min: number;
  calls: string;
  ms: number;
  rcu_ratio: number | null;
  meets_goal: boolean;
}

export interface FeedWriteRow {
  layout: string;
  writers: number;
  seconds: number;
  changes_per_second: number;
  runs: number[];
}

const NOW_MS = Date.parse('2026-11-22T12:00:00.000Z');
const DAY_MS = 86_400_000;
const ACTORS = ['local-admin', 'scim:okta', 'scim:entra', 'hr-sync', 'alice.it', 'bob.it', 'carol.hr', 'dave.ops'];

/** Entries as the service records them: moves, user changes, group adds (90%, 8%, 2%), over the year before NOW. */
function trailEntries(n: number, prefix: string): Array<AuditInput & { at: string }> {
  const random = prng(`feed-trail:${n}`); // the same trail on every run
  const entries: Array<AuditInput & { at: string }> = [];
  for (let i = 0; i < n; i++) {
    const at = new Date(NOW_MS - random() * 365 * DAY_MS).toISOString();
    const actor = ACTORS[Math.floor(random() ** 2 * ACTORS.length)];
    const user = `${prefix}u${Math.floor(random() * n)}`;
    const request_id = randomUUID();
    const draw = random();
    if (draw < 0.9) {
      const department = `${prefix}d${Math.floor(random() * 1000)}`;
      entries.push({
        at,
        actor,
        operation: 'E2',
        request_id,
        resource_type: 'department',
        resource_id: department,
        changes: { added_user_ids: [user] },
      });
    } else if (draw < 0.98) {
      entries.push({
        at,
        actor,
        operation: 'updateUser',
        request_id,
        resource_type: 'user',
        resource_id: user,
        changes: { last_name: { from: 'Old', to: 'New' } },
      });
    } else {
      entries.push({
        at,
        actor,
        operation: 'G4',
        request_id,
        resource_type: 'group',
        resource_id: `${prefix}g${Math.floor(random() * 100)}`,
        changes: { added_user_ids: [user] },
      });
    }
  }
  return entries;
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
async function measurePages(env: Record<string, string>, client: Doc, entries: number): Promise<FeedPageRow[]> {
  return inTableOfItsOwn(env, `${env.TABLE_NAME}-feed-${entries}`, async (table) => {
    process.env.TABLE_NAME = table;
    const { auditItemsFor } = await import('./support/list-dataset');
    const { measure, meterCapacity } = await import('./support/capacity');
    const { lambdaContext, loadHandler, routeEvent, routeOf } = await import('./support/lambda');
    const started = performance.now();
    const audit = auditItemsFor(trailEntries(entries, `f${entries}-`));
    const feed = await feedItemsOf(audit);
    const items = [...audit, ...feed];
    for (let done = 0; done < items.length; done += 10_000) await batchPut(client, table, items.slice(done, done + 10_000), 16);
    progress(`feed: ${entries} trail entries loaded in ${round((performance.now() - started) / 1000, 0)} s`);
    // What each list's page reads: the feed's copies for GET /v2/changes, the trail's entries for GET /v2/audit.
    const keysOf = (of: Item[]) => new Map(of.map((item) => [String(item.id), { pk: String(item.pk), sk: String(item.sk) }]));
    const keyed = { listChanges: keysOf(feed.filter((item) => item.type === 'feed')), listAudit: keysOf(audit) };

    meterCapacity();
    const call = async (operationId: 'listChanges' | 'listAudit', query: Record<string, string>) => {
      const handler = await loadHandler(operationId);
      const { result, capacity, ms } = await measure(() =>
        handler(routeEvent(operationId, { query }), lambdaContext(routeOf(operationId).name)),
      );
      const body = JSON.parse(result.body ?? '{}') as {
        changes?: Array<{ id: string }>;
        entries?: Array<{ id: string }>;
        next_cursor?: string;
      };
      return { status: result.statusCode, body, capacity, ms };
    };
    // Warm-up: both handlers loaded and the client connected.
    await call('listChanges', { count: '1', since: 'now' });
    await call('listAudit', { count: '1', since: new Date(NOW_MS - DAY_MS).toISOString() });

    const first = await call('listChanges', { count: '100' });
    const plan: Array<{ request: string; operation: 'listChanges' | 'listAudit'; query: Record<string, string>; consistent: boolean }> = [
      { request: 'listChanges from the start', operation: 'listChanges', query: { count: '100' }, consistent: true },
      {
        request: 'listChanges since the middle',
        operation: 'listChanges',
        query: { count: '100', since: new Date(NOW_MS - 182 * DAY_MS).toISOString() },
        consistent: true,
      },
      {
        request: 'listChanges next_cursor',
        operation: 'listChanges',
        query: { count: '100', cursor: first.body.next_cursor ?? '' },
        consistent: true,
      },
      {
        request: 'listChanges resource_type=group (2%)',
        operation: 'listChanges',
        query: { count: '100', resource_type: 'group' },
        consistent: true,
      },
      { request: 'listChanges since=now', operation: 'listChanges', query: { count: '100', since: 'now' }, consistent: true },
      { request: 'listAudit default', operation: 'listAudit', query: { count: '100' }, consistent: false },
    ];
    const rows: FeedPageRow[] = [];
    for (const { request, operation, query, consistent } of plan) {
      const runs = [];
      for (let run = 0; run < 3; run++) runs.push(await call(operation, query));
      const last = runs[runs.length - 1];
      const returned = last.body.changes ?? last.body.entries ?? [];
      const stored = await batchGet(
        client,
        table,
        returned.map((entry) => keyed[operation].get(entry.id)!),
      );
      const minRcu = returned.length
        ? queryUnits(
            stored.map((item) => itemSize(item)),
            consistent,
          ).rcu
        : 0;
      const rcu = median(runs.map((r) => r.capacity.rcu));
      rows.push({
        ...{ request, entries, status: last.status, returned: returned.length, rcu, min_rcu: minRcu },
        ...{ over_min: minRcu ? round(rcu / minRcu, 2) : 0, calls: last.capacity.calls, ms: round(median(runs.map((r) => r.ms)), 1) },
        ...{ rcu_ratio: null, meets_goal: false },
      });
      progress(`feed ${entries}: ${request}: ${returned.length} entries, ${rcu} RCU (min ${minRcu})`);
    }
    const { stopMetering } = await import('./support/capacity');
    stopMetering();
    return rows;
  });
}

/** Writers each sending one-entry transactions for `seconds`; answers the changes committed a second. */
async function writeRate(client: Doc, table: string, itemOf: (n: number) => Record<string, unknown>, writers: number, seconds: number) {
  const until = performance.now() + seconds * 1000;
  let committed = 0;
  let n = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (performance.now() < until) {
        const Item = itemOf(n++);
        await client.send(
          new TransactWriteCommand({ TransactItems: [{ Put: { TableName: table, Item } }], ClientRequestToken: randomUUID() }),
        );
        committed++;
      }
    }),
  );
  return committed / seconds;
}

/** (b) on DynamoDB Local: the new layout's items against the old layout's, alternating, `rounds` times each. */
async function measureWrites(env: Record<string, string>, client: Doc, options: { writers: number; seconds: number; rounds: number }) {
  return inTableOfItsOwn(env, `${env.TABLE_NAME}-feed-writes`, async (table) => {
    process.env.TABLE_NAME = table;
    const { auditItemsFor } = await import('./support/list-dataset');
    const { AUDIT_SHARDS } = await import('../lib/store/audit');
    const template = trailEntries(1, 'w-')[0];
    const newItem = (n: number) => auditItemsFor([{ ...template, at: new Date().toISOString(), request_id: `r${n}` }])[0];
    // The layout before the shards (git show 2dde83e~1:lib/store/audit.ts): one item per partition in the table,
    // every entry in the index partition `AUDIT` of byName.
    const oldItem = (n: number) => {
      const item = newItem(n);
      return { ...item, pk: `AUDIT#${String(item.id)}`, sk: 'AUDIT', gsi1pk: 'AUDIT' };
    };
    const runs = { sharded: [] as number[], single: [] as number[] };
    for (let round_ = 0; round_ < options.rounds; round_++) {
      runs.sharded.push(round(await writeRate(client, table, newItem, options.writers, options.seconds), 0));
      runs.single.push(round(await writeRate(client, table, oldItem, options.writers, options.seconds), 0));
      progress(`feed writes: round ${round_ + 1}: ${runs.sharded.at(-1)}/s sharded, ${runs.single.at(-1)}/s single partition`);
    }
    const row = (layout: string, values: number[]): FeedWriteRow => ({
      ...{ layout, writers: options.writers, seconds: options.seconds, changes_per_second: median(values), runs: values },
    });
    return {
      rows: [row(`${AUDIT_SHARDS} base-table shards (now)`, runs.sharded), row('one index partition AUDIT (before)', runs.single)],
      entryBytes: itemSize(newItem(0)),
    };
  });
}

export interface FeedPaper {
  entry_bytes: number;
  /** Per entry: its put in the transaction, and each index partition it is copied to (twice each: the sequencer's mark removal rewrites them). */
  wcu_base: number;
  wcu_index: number;
  before_changes_per_second: number;
  trail_changes_per_second: number;
  one_actor_per_second: number;
  one_operation_per_second: number;
  one_resource_index_per_second: number;
}

/** (b) on paper, from the per-partition limit and an entry's size. */
export function onPaper(entryBytes: number, shards: number): FeedPaper {
  const wcuBase = 2 * writeUnits(entryBytes); // transactional
  const wcuIndex = writeUnits(entryBytes); // an index's copy is an ordinary write (the projection is every attribute)
  return {
    ...{ entry_bytes: entryBytes, wcu_base: wcuBase, wcu_index: wcuIndex },
    before_changes_per_second: PARTITION_WCU_PER_SECOND / wcuIndex,
    // The entry's put, then the sequencer's removal of its pending mark (a transactional rewrite).
    trail_changes_per_second: (shards * PARTITION_WCU_PER_SECOND) / (2 * wcuBase),
    // Each index entry put, then rewritten by the mark's removal (the projection is every attribute).
    one_actor_per_second: PARTITION_WCU_PER_SECOND / (2 * wcuIndex),
    one_operation_per_second: PARTITION_WCU_PER_SECOND / (2 * wcuIndex),
    one_resource_index_per_second: PARTITION_WCU_PER_SECOND / (2 * wcuIndex),
  };
}

export async function measureFeed(
  env: Record<string, string>,
  sizes: { entries: number[]; writers: number; seconds: number; rounds: number },
): Promise<{ pages: FeedPageRow[]; writes: FeedWriteRow[]; paper: FeedPaper }> {
  const client = rawClient();
  const original = process.env.TABLE_NAME;
  try {
    const pages: FeedPageRow[] = [];
    for (const entries of sizes.entries) pages.push(...(await measurePages(env, client, entries)));
    const { rows: writes, entryBytes } = await measureWrites(env, client, sizes);
    const { AUDIT_SHARDS } = await import('../lib/store/audit');
    return { pages: judge(pages, Math.min(...sizes.entries)), writes, paper: onPaper(entryBytes, AUDIT_SHARDS) };
  } finally {
    process.env.TABLE_NAME = original;
    client.destroy();
  }
}

/**
 * Each request's RCU over its minimum at each size against the smallest size's. The goal is the issue's: flat (a
 * page costs the same however long the trail). `over_min` is shown beside it: a page of the feed is one strongly
 * consistent Query per shard, each rounded up to a whole read unit, so AUDIT_SHARDS units is its floor whatever it returns.
 */
function judge(rows: FeedPageRow[], smallest: number): FeedPageRow[] {
  const base = new Map(rows.filter((r) => r.entries === smallest).map((r) => [r.request, r]));
  return rows.map((row) => {
    const reference = base.get(row.request)!;
    const perMin = (r: FeedPageRow) => (r.min_rcu ? r.rcu / r.min_rcu : r.rcu);
    const ratio = row.entries === smallest ? null : round(perMin(row) / Math.max(perMin(reference), 1e-9), 2);
    // An empty page (since=now) reads nothing at either size.
    const flat = ratio === null || ratio <= FEED_GOALS.flat || (row.rcu === 0 && reference.rcu === 0);
    return { ...row, rcu_ratio: ratio, meets_goal: row.status === 200 && flat };
  });
}
