/**
 * The transactions of a bulk move (see driver.ts for the protocol): what
 * moves the users and their counters, how users are packed into parts, and
 * the hold and apply transactions of each part.
 */
import type { ChangeContext, ChangeRecord } from '../../audit/context';
import { recordChange } from '../../audit/context';
import { Signal, StaleReadError } from '../../db/errors';
import { MAX_TRANSACTION_ITEMS, type Write } from '../../db/transact';
import { headerInState, headerTransition, partApplied, partPut } from '../../store/bulk-moves';
import { reserveUsageWrite, type DepartmentDelta, type StoredDepartment } from '../../store/departments';
import { ruleCellCode, usersRuleWorkWrite } from '../../store/rules';
import { holdUser, userWrites, type StoredUser } from '../../store/users';
import { addContribution, counterWriteCount, counterWrites, noDeltas, type CounterDeltas } from '../../users/counters';
import { userRepresentation } from '../../users/user';
import { explainUsageFailure } from '../errors';
import { isZeroUsage, NO_USAGE, sumUsage, usageOf, type Usage } from '../quotas';

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

/** What moving `users` into `target` does to the counters. The target's quota usage is left out: it is reserved. */
function moveDeltas(users: StoredUser[], target: string | null, at: string): CounterDeltas {
  const deltas = noDeltas();
  for (const user of users) {
    addContribution(deltas, user, -1);
    addContribution(deltas, userRepresentation(movedUser(user, target, at)), 1);
  }
  const targetDelta = target ? deltas.departments.get(target) : undefined;
  if (targetDelta) targetDelta.usage = NO_USAGE;
  return deltas;
}

const stale = () => new StaleReadError();

/** The writes that move `users` into `target` (held by `heldBy`, or at the version read), with every counter they move. */
function moveWrites(
  users: StoredUser[],
  target: string | null,
  at: string,
  heldBy: string | null,
  deltas: CounterDeltas,
  shardId: string,
): Write[] {
  const writes = users.flatMap((user) =>
    userWrites(
      user.id,
      { before: user, after: userRepresentation(movedUser(user, target, at)) },
      user.version + 1,
      heldBy ? { kind: 'held', by: heldBy } : { kind: 'version', version: user.version },
      stale,
      false,
    ),
  );
  // Rule groups follow the moved users: one work item for all of them, not one each (lib/store/rules.ts).
  const followed = usersRuleWorkWrite(
    users.map((user) => ({ id: user.id, from: ruleCellCode(user) })),
    at,
  );
  // The departments users leave lose only what they had: their conditions cannot fail but for a race.
  return [...writes, followed, ...counterWrites(deltas, shardId, at, () => stale)];
}

/** The whole move as one transaction, when it fits in one: the reservation carries the target's list counters too. */
export function singleTransaction(move: BulkMove, reserved: Usage, at: string): Write[] | undefined {
  if (move.users.length * 2 >= MAX_TRANSACTION_ITEMS) return undefined;
  const deltas = moveDeltas(move.users, move.target, at);
  const writes: Write[] = [];
  if (move.target) {
    const targetDelta: DepartmentDelta = { ...(deltas.departments.get(move.target) ?? { cells: {}, logins: {} }), usage: reserved };
    deltas.departments.delete(move.target);
    if (!isZeroUsage(reserved) || Object.keys(targetDelta.cells).length > 0) {
      writes.push(reserveUsageWrite(move.target, targetDelta, move.targetAsRead, at, explainUsageFailure(move.target, reserved)));
    }
  }
  writes.push(...moveWrites(move.users, move.target, at, null, deltas, move.users[0]?.id ?? at), recordChange(move.ctx, move.audit));
  return writes.length <= MAX_TRANSACTION_ITEMS ? writes : undefined;
}

/** The reservation of a move in parts: the target's whole addition, before any user moves. */
export function reservationWrites(move: BulkMove, reserved: Usage, at: string): Write[] {
  if (!move.target || isZeroUsage(reserved)) return [];
  return [
    reserveUsageWrite(
      move.target,
      { usage: reserved, cells: {}, logins: {} },
      move.targetAsRead,
      at,
      explainUsageFailure(move.target, reserved),
    ),
  ];
}

/**
 * Splits users into parts whose hold and apply transactions fit: a hold is
 * the users + part + header + audit, an apply the users and their copies +
 * their rule work (one item for the part) +
 * every counter they move + part + header. The time only names login
 * counters, which do not depend on it, so any time packs the same.
 */
export function packParts(users: StoredUser[], target: string | null): StoredUser[][] {
  const parts: StoredUser[][] = [];
  let current: StoredUser[] = [];
  const fits = (part: StoredUser[]) => part.length * 2 + counterWriteCount(moveDeltas(part, target, '')) + 3 <= MAX_TRANSACTION_ITEMS;
  for (const user of users) {
    if (current.length > 0 && !fits([...current, user])) {
      parts.push(current);
      current = [];
    }
    current.push(user);
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

/** Holds one part's users; the last hold (`commit`, with the audit entry) turns the move to `applying`. */
export function holdWrites(op: string, index: number, users: StoredUser[], commit: Write | undefined): Write[] {
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
  const deltas = moveDeltas(users, move.target, move.at);
  return [
    ...partApplied(move.op, index, usage, partGone),
    ...moveWrites(users, move.target, move.at, move.op, deltas, `${move.op}#${index}`),
  ];
}
