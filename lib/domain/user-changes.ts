/**
 * Every change of a user — create, update, department move, delete — is
 * turned into writes here, so that one transaction always carries all of its
 * effects: the user item (conditional on the version that was read), the
 * e-mail claims, both departments' usage counters (with quota conditions),
 * the service counters and the audit entry.
 */
import { tableName } from '../db/client';
import { emailKey, membershipOf, userIndexAttributes, userKey } from '../db/keys';
import { StaleReadError, type Write } from '../db/transact';
import { conflict, DomainError, notFound, preconditionFailed } from '../errors';
import { foldCase } from '../text';
import { departmentUsageUpdate } from './department-usage';
import { addUsage, COUNTED_QUOTAS, isZeroUsage, NO_USAGE, overagesOf, scaleUsage, usageOf, type Usage } from './quotas';
import { addCounters, statsUpdate, userCounter } from './stats';
import type { StoredUser, User } from './users';

export interface UserChange {
  /** The user as read (null: it is being created). */
  before: StoredUser | null;
  /** The user as it will be (null: it is being deleted). */
  after: User | null;
  /** If-Match: fail with 412 unless the user is at this version. */
  expectedVersion?: number;
}

export function userItem(user: User, version: number): Record<string, unknown> {
  return {
    ...userKey(user.id),
    type: 'user',
    ...user,
    version,
    last_name_folded: foldCase(user.last_name),
    ...userIndexAttributes(user),
  };
}

export function quotaExceeded(departmentId: string, overages: ReturnType<typeof overagesOf>): DomainError {
  const names = overages.map((o) => o.quota).join(', ');
  return new DomainError('quota-exceeded', `Department "${departmentId}" would exceed its ${names} quota.`, { overages });
}

const positivePart = (usage: Usage): Usage => Object.fromEntries(COUNTED_QUOTAS.map((q) => [q, Math.max(0, usage[q])])) as Usage;

/** Explains a failed department condition from the department as it stood. */
export function explainDepartmentFailure(departmentId: string, raised: Usage) {
  return (stored: Record<string, unknown> | undefined): Error => {
    if (!stored) return notFound('Department', departmentId);
    const overages = overagesOf(stored, raised);
    if (overages.length > 0) return quotaExceeded(departmentId, overages);
    return new StaleReadError(); // the counters moved under us but the change fits: try again
  };
}

function departmentWrites(change: UserChange, now: string): Write[] {
  const { before, after } = change;
  const oldDepartment = before?.department_id ?? null;
  const newDepartment = after?.department_id ?? null;
  const deltas = new Map<string, Usage>();
  if (oldDepartment) deltas.set(oldDepartment, scaleUsage(usageOf(before!), -1));
  if (newDepartment) deltas.set(newDepartment, addUsage(deltas.get(newDepartment) ?? NO_USAGE, usageOf(after!)));
  const writes: Write[] = [];
  for (const [departmentId, delta] of deltas) {
    if (isZeroUsage(delta)) continue;
    const raised = positivePart(delta);
    writes.push({
      item: departmentUsageUpdate(departmentId, delta, now),
      explain: explainDepartmentFailure(departmentId, raised),
    });
  }
  return writes;
}

function emailWrites(change: UserChange): Write[] {
  const { before, after } = change;
  const oldEmail = before ? foldCase(before.email) : null;
  const newEmail = after ? foldCase(after.email) : null;
  if (oldEmail === newEmail) return [];
  const writes: Write[] = [];
  if (before && oldEmail) {
    writes.push({
      item: {
        Delete: {
          TableName: tableName(),
          Key: emailKey(oldEmail),
          ConditionExpression: 'user_id = :id',
          ExpressionAttributeValues: { ':id': before.id },
        },
      },
      explain: () => new StaleReadError(),
    });
  }
  if (after && newEmail) {
    writes.push({
      item: {
        Put: {
          TableName: tableName(),
          Item: { ...emailKey(newEmail), type: 'email', user_id: after.id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      explain: () => conflict(`The e-mail address "${after.email}" is already in use.`, { field: 'email' }),
    });
  }
  return writes;
}

function userWrite(change: UserChange): Write {
  const { before, after } = change;
  const staleOrPrecondition = () => (change.expectedVersion !== undefined ? preconditionFailed() : new StaleReadError());
  if (!before) {
    return {
      item: { Put: { TableName: tableName(), Item: userItem(after!, 1), ConditionExpression: 'attribute_not_exists(pk)' } },
      explain: () => conflict(`A user with id "${after!.id}" already exists.`, { field: 'id' }),
    };
  }
  const expected = change.expectedVersion ?? before.version;
  // A user held by a bulk move is changed only by that move (bulk-move.ts).
  const condition = {
    ConditionExpression: 'version = :version AND attribute_not_exists(bulk_lock)',
    ExpressionAttributeValues: { ':version': expected },
  };
  if (!after) {
    return { item: { Delete: { TableName: tableName(), Key: userKey(before.id), ...condition } }, explain: staleOrPrecondition };
  }
  return {
    item: { Put: { TableName: tableName(), Item: userItem(after, before.version + 1), ...condition } },
    explain: staleOrPrecondition,
  };
}

function statsWrites(change: UserChange): Write[] {
  const { before, after } = change;
  const id = (after ?? before)!.id;
  const deltas = addCounters(
    before ? { [userCounter(before.account_role, membershipOf(before.department_id))]: -1 } : {},
    after ? { [userCounter(after.account_role, membershipOf(after.department_id))]: 1 } : {},
  );
  const item = statsUpdate(id, deltas);
  return item ? [{ item }] : [];
}

/** The writes of one user change, in a fixed order; the caller adds the audit entry. */
export function userChangeWrites(change: UserChange, now: string): Write[] {
  return [userWrite(change), ...emailWrites(change), ...departmentWrites(change, now), ...statsWrites(change)];
}
