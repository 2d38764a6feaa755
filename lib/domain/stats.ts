/**
 * Service-wide counters (users per role and membership, departments, groups) that
 * give list totals without counting items. They live in a few shard items of
 * one partition: parallel transactions touch different shards, and one Query
 * of the partition (a few hundred bytes, 0.5 RCU) sums them all.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client';
import { STATS_PARTITION, shardOf, statsShardKey, type Membership } from '../db/keys';
import type { TransactItem } from '../db/transact';

export type Counters = Record<string, number>;

/** Counter of users with this role and membership, e.g. `users_IN_admin`. */
export const userCounter = (role: string, membership: Membership) => `users_${membership}_${role}`;
export const DEPARTMENTS_COUNTER = 'departments';
/** Published groups (G2's total). */
export const GROUPS_COUNTER = 'groups';

/** Adds `deltas` to the shard chosen by `shardId`, inside the caller's transaction. */
export function statsUpdate(shardId: string, deltas: Counters): TransactItem | undefined {
  const entries = Object.entries(deltas).filter(([, delta]) => delta !== 0);
  if (entries.length === 0) return undefined;
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const adds = entries.map(([counter, delta], i) => {
    names[`#c${i}`] = counter;
    values[`:d${i}`] = delta;
    return `#c${i} :d${i}`;
  });
  return {
    Update: {
      TableName: tableName(),
      Key: statsShardKey(shardOf(shardId)),
      UpdateExpression: `ADD ${adds.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** Sums every shard. */
export async function readCounters(): Promise<Counters> {
  const result = await db().send(
    new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': STATS_PARTITION } }),
  );
  const totals: Counters = {};
  for (const shard of result.Items ?? []) {
    for (const [name, value] of Object.entries(shard)) {
      if (typeof value === 'number') totals[name] = (totals[name] ?? 0) + value;
    }
  }
  return totals;
}

/** Merges counter deltas, e.g. "-1 old role, +1 new role". */
export function addCounters(...parts: Counters[]): Counters {
  const sum: Counters = {};
  for (const part of parts) for (const [name, value] of Object.entries(part)) sum[name] = (sum[name] ?? 0) + value;
  return sum;
}
