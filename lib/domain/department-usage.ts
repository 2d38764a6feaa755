/**
 * The transaction item that moves a department's usage counters, with the
 * conditions that keep every limit: for each quota the change raises, the
 * counter must still be below its limit before the raise. A single member
 * change raises a counter by at most one, so `usage < limit` compares two
 * attributes of the item itself and needs no prior read of the department.
 * Bulk moves reserve `k` at once with `departmentReservation` below.
 */
import { config } from '../config';
import { departmentKey } from '../db/keys';
import { tableName } from '../db/client';
import type { TransactItem } from '../db/transact';
import { COUNTED_QUOTAS, limitAttribute, usageAttribute, type CountedQuota, type Usage } from './quotas';

/** An update of the department's counters; the condition decides which limits it keeps. */
class CounterUpdate {
  readonly names: Record<string, string> = { '#version': 'version' };
  readonly values: Record<string, unknown> = { ':one': 1 };
  private readonly adds: string[] = ['#version :one'];
  readonly conditions: string[] = ['attribute_exists(pk)'];

  add(quota: CountedQuota, amount: number): void {
    this.names[`#u_${quota}`] = usageAttribute(quota);
    this.values[`:d_${quota}`] = amount;
    this.adds.push(`#u_${quota} :d_${quota}`);
  }

  /** The department as it stood comes back on a failed condition, so the caller can compute overages. */
  item(departmentId: string, now: string): TransactItem {
    return {
      Update: {
        TableName: tableName(),
        Key: departmentKey(departmentId),
        UpdateExpression: `ADD ${this.adds.join(', ')} SET updated_at = :now`,
        ConditionExpression: this.conditions.join(' AND '),
        ExpressionAttributeNames: this.names,
        ExpressionAttributeValues: { ...this.values, ':now': now },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    };
  }
}

/** Moves the counters by `delta`; each raised counter must be below its limit (and `users` below the seats). */
export function departmentUsageUpdate(departmentId: string, delta: Usage, now: string): TransactItem {
  const update = new CounterUpdate();
  for (const quota of COUNTED_QUOTAS) {
    const change = delta[quota];
    if (change === 0) continue;
    update.add(quota, change);
    if (change > 0) {
      if (change !== 1) throw new Error('departmentUsageUpdate raises a counter by one at most; bulk moves reserve instead');
      update.names[`#l_${quota}`] = limitAttribute(quota);
      update.conditions.push(`(attribute_not_exists(#l_${quota}) OR #u_${quota} < #l_${quota})`);
    }
  }
  const seats = config().departmentSeats;
  if (delta.users > 0 && seats !== null) {
    update.values[':seats'] = seats;
    update.conditions.push('#u_users < :seats');
  }
  return update.item(departmentId, now);
}

/**
 * Adds a whole bulk addition `reserved` to the department in one update (see
 * bulk-move.ts). A raise of `k` cannot compare two attributes the way
 * `usage < limit` does, so it is conditional on each raised limit still being
 * the one read (`limit = L`, or absent) and on `usage <= L - k`.
 */
export function departmentReservation(departmentId: string, reserved: Usage, asRead: Record<string, unknown>, now: string): TransactItem {
  const update = new CounterUpdate();
  for (const quota of COUNTED_QUOTAS) {
    const raise = reserved[quota];
    if (raise === 0) continue;
    if (raise < 0) throw new Error('departmentReservation only raises counters');
    update.add(quota, raise);
    update.names[`#l_${quota}`] = limitAttribute(quota);
    const limit = asRead[limitAttribute(quota)];
    if (typeof limit === 'number') {
      update.values[`:l_${quota}`] = limit;
      update.values[`:max_${quota}`] = limit - raise;
      update.conditions.push(`#l_${quota} = :l_${quota} AND #u_${quota} <= :max_${quota}`);
    } else {
      update.conditions.push(`attribute_not_exists(#l_${quota})`);
    }
  }
  const seats = config().departmentSeats;
  if (reserved.users > 0 && seats !== null) {
    update.values[':max_seats'] = seats - reserved.users;
    update.conditions.push('#u_users <= :max_seats');
  }
  return update.item(departmentId, now);
}
