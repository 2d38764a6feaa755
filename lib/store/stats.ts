/**
 * Service-wide counters (users per role and membership, departments,
 * groups) that give list totals without counting items. They live in a few
 * shard items of one partition, `STATS` / `SHARD#<nn>`: parallel
 * transactions touch different shards, and one Query of the partition (a few
 * hundred bytes, 0.5 RCU) sums them all.
 */
import { partitionItems } from '../db/batch';
import { Update } from '../db/expression';
import type { Key } from '../db/table';
import { update, type Write } from '../db/transact';
import { shardOfKey } from '../ids';
import type { AccountRole } from '../schemas/enums';
import type { Membership } from './users';

export type Counters = Record<string, number>;

export const STATS_PARTITION = 'STATS';
/** Counters are spread over shards so that parallel transactions rarely touch the same item. */
export const STATS_SHARDS = 16;
export const statsShardKey = (shard: number): Key => ({ pk: STATS_PARTITION, sk: `SHARD#${String(shard).padStart(2, '0')}` });

/** Counter of users with this role and membership, e.g. `users_IN_admin`. */
export const userCounter = (role: AccountRole, membership: Membership) => `users_${membership}_${role}`;
export const DEPARTMENTS_COUNTER = 'departments';
/** Published groups (G2's total). */
export const GROUPS_COUNTER = 'groups';

/** The shard of a change: a stable spread of ids over the shards. */
export const shardOf = (id: string): number => shardOfKey(id, STATS_SHARDS);

/** Adds `deltas` to the shard chosen by `shardId`, inside the caller's transaction; none when every delta is 0. */
export function addCounters(shardId: string, deltas: Counters): Write[] {
  const changes = new Update();
  for (const [counter, delta] of Object.entries(deltas)) if (delta !== 0) changes.add(counter, delta);
  return changes.isEmpty ? [] : [update(statsShardKey(shardOf(shardId)), changes)];
}

/** Sums every shard; `consistent` where the sum must be exact (a rule's preview), not only recent. */
export async function readCounters(options: { consistent?: boolean } = {}): Promise<Counters> {
  const totals: Counters = {};
  for await (const shard of partitionItems(STATS_PARTITION, { consistent: options.consistent ?? false })) {
    for (const [name, value] of Object.entries(shard)) {
      if (typeof value === 'number') totals[name] = (totals[name] ?? 0) + value;
    }
  }
  return totals;
}

/** Merges counter deltas, e.g. "-1 old role, +1 new role". */
export function sumCounters(...parts: Counters[]): Counters {
  const sum: Counters = {};
  for (const part of parts) for (const [name, value] of Object.entries(part)) sum[name] = (sum[name] ?? 0) + value;
  return sum;
}
