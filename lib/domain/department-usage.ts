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
import { COUNTED_QUOTAS, limitAttribute, usageAttribute, type Usage } from './quotas';

/** The department as it stood comes back on a failed condition, so the caller can compute overages. */
export function departmentUsageUpdate(departmentId: string, delta: Usage, now: string): TransactItem {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':one': 1, ':now': now };
  const adds: string[] = ['#version :one'];
  const conditions: string[] = ['attribute_exists(pk)'];
  names['#version'] = 'version';

  for (const quota of COUNTED_QUOTAS) {
    const change = delta[quota];
    if (change === 0) continue;
    names[`#u_${quota}`] = usageAttribute(quota);
    values[`:d_${quota}`] = change;
    adds.push(`#u_${quota} :d_${quota}`);
    if (change > 0) {
      if (change !== 1) throw new Error('departmentUsageUpdate raises a counter by one at most; bulk moves reserve instead');
      names[`#l_${quota}`] = limitAttribute(quota);
      conditions.push(`(attribute_not_exists(#l_${quota}) OR #u_${quota} < #l_${quota})`);
    }
  }
  const seats = config().departmentSeats;
  if (delta.users > 0 && seats !== null) {
    values[':seats'] = seats;
    names['#u_users'] = usageAttribute('users');
    conditions.push('#u_users < :seats');
  }
  return {
    Update: {
      TableName: tableName(),
      Key: departmentKey(departmentId),
      UpdateExpression: `ADD ${adds.join(', ')} SET updated_at = :now`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/**
 * Adds a whole bulk addition `reserved` to the department in one update (see
 * bulk-move.ts). A raise of `k` cannot compare two attributes the way
 * `usage < limit` does, so it is conditional on each raised limit still being
 * the one read (`limit = L`, or absent) and on `usage <= L - k`.
 */
export function departmentReservation(departmentId: string, reserved: Usage, asRead: Record<string, unknown>, now: string): TransactItem {
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':one': 1, ':now': now };
  const adds: string[] = ['#version :one'];
  const conditions: string[] = ['attribute_exists(pk)'];
  for (const quota of COUNTED_QUOTAS) {
    const raise = reserved[quota];
    if (raise === 0) continue;
    if (raise < 0) throw new Error('departmentReservation only raises counters');
    names[`#u_${quota}`] = usageAttribute(quota);
    names[`#l_${quota}`] = limitAttribute(quota);
    values[`:d_${quota}`] = raise;
    adds.push(`#u_${quota} :d_${quota}`);
    const limit = asRead[limitAttribute(quota)];
    if (typeof limit === 'number') {
      values[`:l_${quota}`] = limit;
      values[`:max_${quota}`] = limit - raise;
      conditions.push(`#l_${quota} = :l_${quota} AND #u_${quota} <= :max_${quota}`);
    } else {
      conditions.push(`attribute_not_exists(#l_${quota})`);
    }
  }
  const seats = config().departmentSeats;
  if (reserved.users > 0 && seats !== null) {
    names['#u_users'] = usageAttribute('users');
    values[':max_seats'] = seats - reserved.users;
    conditions.push('#u_users <= :max_seats');
  }
  return {
    Update: {
      TableName: tableName(),
      Key: departmentKey(departmentId),
      UpdateExpression: `ADD ${adds.join(', ')} SET updated_at = :now`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}
