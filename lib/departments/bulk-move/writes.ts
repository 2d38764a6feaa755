/**
 * The transactions of a bulk move (see driver.ts for the protocol): what
 * moves the users and their counters, how users are packed into parts, and
 * the hold and apply transactions of each part.
 */
import type { ChangeRecord, ChangeContext } from '../../audit/context';
import { recordChange } from '../../audit/context';
import { Signal, StaleReadError } from '../../db/errors';
import { MAX_TRANSACTION_ITEMS, type Write } from '../../db/transact';
import { headerInState, headerTransition, partApplied, partPut } from '../../store/bulk-moves';
import { addUsageWrite, reserveUsageWrite, type StoredDepartment } from '../../store/departments';
import { addCounters, sumCounters, userCounter } from '../../store/stats';
import { holdUser, membershipOf, putUser, type StoredUser } from '../../store/users';
import { userRepresentation } from '../../users/user';
import { explainUsageFailure } from '../errors';
import { isZeroUsage, NO_USAGE, scaleUsage, sumUsage, usageOf, type Usage } from '../quotas';

export interface BulkMove {
  ctx: ChangeContext;
  /** Department the users go to; null takes them out of their department (E5). */
  target: string | null;
  /** The target department as read: its limits bound the reservation. */
  targetAsRead?: StoredDepartment;
  /** Users that change, as read; none of them is in `target` already. */
  users: StoredUser[];
  audit: ChangeRecord;
}

/** Raised when a part was already applied or released by someone else (a straggling driver or the healer). */
export const partGone = () => new Signal('part-gone');

/** The user as it is after the move. */
export const movedUser = (user: StoredUser, target: string | null, at: string): StoredUser => ({
  ...userRepresentation(user),
  department_id: target,
  updated_at: at,
  version: user.version + 1,
});

export const reservationOf = (move: BulkMove): Usage => (move.target ? sumUsage(move.users.map(usageOf)) : NO_USAGE);

export function reservationWrites(move: BulkMove, reserved: Usage, at: string): Write[] {
  if (!move.target || isZeroUsage(reserved)) return [];
  return [reserveUsageWrite(move.target, reserved, move.targetAsRead, at, explainUsageFailure(move.target, reserved))];
}

/** The writes that move `users` out of their departments into `target`, with the service counters. */
export function moveWrites(users: StoredUser[], target: string | null, at: string, heldBy: string | null, shardId: string): Write[] {
  const writes: Write[] = users.map((user) =>
    putUser(
      movedUser(user, target, at),
      user.version + 1,
      heldBy ? { kind: 'held', by: heldBy } : { kind: 'version', version: user.version },
      () => new StaleReadError(),
    ),
  );
  const leaving = new Map<string, Usage[]>();
  for (const user of users) {
    if (user.department_id && user.department_id !== target) {
      leaving.set(user.department_id, [...(leaving.get(user.department_id) ?? []), usageOf(user)]);
    }
  }
  for (const [departmentId, usages] of leaving) {
    writes.push(addUsageWrite(departmentId, scaleUsage(sumUsage(usages), -1), at, () => new StaleReadError()));
  }
  const counters = sumCounters(
    ...users.flatMap((user) => [
      { [userCounter(user.account_role, membershipOf(user.department_id))]: -1 },
      { [userCounter(user.account_role, membershipOf(target))]: 1 },
    ]),
  );
  writes.push(...addCounters(shardId, counters));
  return writes;
}

/** The whole move as one transaction, when it fits in one. */
export function singleTransaction(move: BulkMove, reserved: Usage, at: string): Write[] | undefined {
  if (move.users.length >= MAX_TRANSACTION_ITEMS) return undefined;
  const writes = [
    ...reservationWrites(move, reserved, at),
    ...moveWrites(move.users, move.target, at, null, move.users[0]?.id ?? at),
    recordChange(move.ctx, move.audit, at),
  ];
  return writes.length <= MAX_TRANSACTION_ITEMS ? writes : undefined;
}

/**
 * Splits users into parts whose hold and apply transactions fit: a hold is
 * the users + part + header + audit, an apply the users + their old
 * departments + stats + part + header.
 */
export function packParts(users: StoredUser[], target: string | null): StoredUser[][] {
  const budget = MAX_TRANSACTION_ITEMS - 3;
  const parts: StoredUser[][] = [];
  let current: StoredUser[] = [];
  let departments = new Set<string>();
  for (const user of users) {
    const leaves = user.department_id && user.department_id !== target ? user.department_id : null;
    const extra = leaves && !departments.has(leaves) ? 1 : 0;
    if (current.length > 0 && current.length + 1 + departments.size + extra > budget) {
      parts.push(current);
      current = [];
      departments = new Set();
    }
    current.push(user);
    if (leaves) departments.add(leaves);
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

/** Holds one part's users; the last hold (`commit`, with the audit entry) turns the move to `applying`. */
export function holdWrites(op: string, index: number, users: StoredUser[], commit: Write | undefined): Write[] {
  const stale = () => new StaleReadError();
  const header = commit ? headerTransition(op, ['preparing'], 'applying', stale) : headerInState(op, 'preparing', stale);
  const part = partPut(
    op,
    index,
    users.map((u) => u.id),
    sumUsage(users.map(usageOf)),
  );
  const holds = users.map((user) => holdUser(user.id, user.version, op, stale));
  return [header, part, ...holds, ...(commit ? [commit] : [])];
}

export interface MoveInfo {
  op: string;
  target: string | null;
  at: string;
}

/** Applies one held part: its users move, the part goes, the header counts it off its reservation. */
export function applyWrites(move: MoveInfo, index: number, users: StoredUser[]): Write[] {
  const usage = move.target ? sumUsage(users.map(usageOf)) : NO_USAGE;
  return [...partApplied(move.op, index, usage, partGone), ...moveWrites(users, move.target, move.at, move.op, `${move.op}#${index}`)];
}
