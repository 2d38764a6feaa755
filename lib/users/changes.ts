/**
 * Every change of a user — create, update, department move, delete — is
 * turned into writes here, so that one transaction always carries all of its
 * effects: the user item (conditional on the version that was read), the
 * e-mail claims, both departments' usage counters (with quota conditions),
 * the service counters and, added by the caller, the audit entry.
 */
import { StaleReadError } from '../db/errors';
import type { Write } from '../db/transact';
import { explainUsageFailure } from '../departments/errors';
import { addUsage, isZeroUsage, NO_USAGE, raisedPart, scaleUsage, usageOf, type Usage } from '../departments/quotas';
import { conflict, preconditionFailed } from '../problems';
import { claimFor, releaseFor } from '../store/claims';
import { addUsageWrite } from '../store/departments';
import { addCounters, userCounter } from '../store/stats';
import { deleteUser, membershipOf, putUser, type StoredUser, type User } from '../store/users';
import { foldCase } from '../text';

export interface UserChange {
  /** The user as read (null: it is being created). */
  before: StoredUser | null;
  /** The user as it will be (null: it is being deleted). */
  after: User | null;
  /** If-Match: fail with 412 unless the user is at this version. */
  expectedVersion?: number;
}

function departmentWrites({ before, after }: UserChange, now: string): Write[] {
  const oldDepartment = before?.department_id ?? null;
  const newDepartment = after?.department_id ?? null;
  const deltas = new Map<string, Usage>();
  if (oldDepartment) deltas.set(oldDepartment, scaleUsage(usageOf(before!), -1));
  if (newDepartment) deltas.set(newDepartment, addUsage(deltas.get(newDepartment) ?? NO_USAGE, usageOf(after!)));
  return [...deltas]
    .filter(([, delta]) => !isZeroUsage(delta))
    .map(([departmentId, delta]) => addUsageWrite(departmentId, delta, now, explainUsageFailure(departmentId, raisedPart(delta))));
}

function emailWrites({ before, after }: UserChange): Write[] {
  const oldEmail = before ? foldCase(before.email) : null;
  const newEmail = after ? foldCase(after.email) : null;
  if (oldEmail === newEmail) return [];
  const writes: Write[] = [];
  if (before) writes.push(releaseFor('email', before.email, before.id, () => new StaleReadError()));
  if (after) {
    writes.push(
      claimFor('email', after.email, after.id, () =>
        conflict(`The e-mail address "${after.email}" is already in use.`, { field: 'email' }),
      ),
    );
  }
  return writes;
}

function userWrite({ before, after, expectedVersion }: UserChange): Write {
  if (!before) return putUser(after!, 1, { kind: 'new' }, () => conflict(`A user with id "${after!.id}" already exists.`, { field: 'id' }));
  const staleOrPrecondition = () => (expectedVersion !== undefined ? preconditionFailed() : new StaleReadError());
  // A user held by a bulk move is changed only by that move (lib/departments/bulk-move/).
  const expected = { kind: 'version', version: expectedVersion ?? before.version } as const;
  if (!after) return deleteUser(before.id, expected, staleOrPrecondition);
  return putUser(after, before.version + 1, expected, staleOrPrecondition);
}

function statsWrites({ before, after }: UserChange): Write[] {
  const id = (after ?? before)!.id;
  const deltas: Record<string, number> = {};
  if (before) deltas[userCounter(before.account_role, membershipOf(before.department_id))] = -1;
  if (after) {
    const counter = userCounter(after.account_role, membershipOf(after.department_id));
    deltas[counter] = (deltas[counter] ?? 0) + 1;
  }
  return addCounters(id, deltas);
}

/** The writes of one user change, in a fixed order; the caller adds the audit entry. */
export function userChangeWrites(change: UserChange, now: string): Write[] {
  return [userWrite(change), ...emailWrites(change), ...departmentWrites(change, now), ...statsWrites(change)];
}
