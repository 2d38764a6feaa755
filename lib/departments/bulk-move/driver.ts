/**
 * Bulk department moves (E3, E5): all-or-nothing changes of up to 1,000 users.
 *
 * A DynamoDB transaction holds at most 100 items, so a move that does not fit
 * in one is a short protocol of transactions, recorded in a header item and
 * one part item per chunk of users (lib/store/bulk-moves.ts):
 *
 * 1. Reserve. One transaction puts the header (`preparing`, with the whole
 *    addition as `reserved_*`) and adds that addition to the target
 *    department's counters, conditional on each raised limit still being the
 *    one read and on `usage <= limit - k`. Over a limit: 409 with overages,
 *    computed from the department as it stood, and nothing else happened. The
 *    reservation also counts as users for E8, so the target cannot be
 *    deleted under the move.
 * 2. Hold. Per chunk, one transaction puts the part item and sets
 *    `bulk_lock` on its users, conditional on each user being at the version
 *    read and not held, and on the header still `preparing`. Every other user
 *    write is conditional on `attribute_not_exists(bulk_lock)`, so a held user
 *    cannot change. The last hold also turns the header to `applying` and
 *    writes the audit entry: that is the commit point. Any failure before it
 *    (a user changed, vanished or is held by another move) rolls back: mark
 *    the header `aborting`, release each part's users, delete the header and
 *    release the reservation. Then the request starts over from a fresh read.
 * 3. Apply. Per part, one transaction rewrites its users in the target
 *    (conditional on `bulk_lock` = this move; the rewrite drops the lock),
 *    takes them off their old departments' counters, moves the service
 *    counters, deletes the part and takes the part's usage off the header's
 *    `reserved_*` (the target's counters already hold it). Held users cannot
 *    fail a condition here; throttling and conflicts are retried.
 * 4. Finish. Delete the header, conditional on no part being left.
 *
 * Invariant, at every step and after any crash: each department's counters
 * equal its members plus the `reserved_*` of open moves into it. So no limit
 * is passed (the reservation was checked), and no user is lost or doubled
 * (a user changes department only in an apply transaction, with its counters).
 *
 * Healing (heal.ts). A driver that dies (timeout, crash) leaves its header,
 * which is listed by `lease_until`: the start plus BULK_LEASE_MS, far beyond
 * the 28 s the E3 and E5 functions may run (lib/routes.ts): the healer
 * leaves a running driver alone. The maintenance function finishes every
 * header whose lease has passed: `preparing`/`aborting` are rolled back,
 * `applying` is rolled forward from the parts that remain. Every step is
 * conditional on the state it expects (part present, user held by this move,
 * header state), so a straggling driver and the healer cannot apply anything
 * twice; until the heal, the counters are exact but the target keeps the
 * reservation.
 *
 * A request waits for the apply until its deadline (lib/slow-changes.ts):
 * past it, the committed move is handed to the healer (its lease ends now)
 * and the request answers 202 naming the department (StillApplying).
 *
 * A move that fits in one transaction (up to ~45 users) skips the protocol
 * and is a single transaction, like E2.
 */
import { recordChange } from '../../audit/context';
import { transactWrite } from '../../db/transact';
import { newId } from '../../ids';
import { log } from '../../log';
import { Problem } from '../../problems';
import { finishedBy, StillApplying } from '../../slow-changes';
import { headerHandOff, headerPut } from '../../store/bulk-moves';
import { applyCommitted, finish, rollBack } from './heal';
import { applyWrites, holdWrites, packParts, reservationOf, reservationWrites, singleTransaction, type BulkMove } from './writes';

export { movedUser, type BulkMove } from './writes';

const tooSlowToHold = () =>
  new Problem('unavailable', 'The move took too long on a busy service and was undone before it changed anything; retry it.');

/** How long after its start a move's driver is presumed dead. */
export const BULK_LEASE_MS = 60_000;

/** Applies the move, all or nothing. Answers the time written as the users' `updated_at`. */
export async function runBulkMove(move: BulkMove): Promise<string> {
  const at = new Date().toISOString();
  const reserved = reservationOf(move);
  const single = singleTransaction(move, reserved, at);
  if (single) {
    await transactWrite(single);
    return at;
  }

  const op = newId();
  const parts = packParts(move.users, move.target);
  const leaseUntil = new Date(Date.parse(at) + BULK_LEASE_MS).toISOString();
  await transactWrite([
    headerPut({ op, operation: move.ctx.operationId, target: move.target, at, leaseUntil, parts: parts.length, reserved }),
    ...reservationWrites(move, reserved, at),
  ]);
  try {
    for (const [index, users] of parts.entries()) {
      // Before the commit nothing is changed yet: past the deadline the move is undone and the request may be retried.
      if (move.ctx.deadline !== undefined && Date.now() > move.ctx.deadline) throw tooSlowToHold();
      const commit = index === parts.length - 1 ? recordChange(move.ctx, move.audit) : undefined;
      await transactWrite(holdWrites(op, index, users, commit));
    }
  } catch (error) {
    const rolledBack = await rollBack(op).catch(async (rollBackError: unknown) => {
      await log('warn', 'bulk move rollback left to the healer', { op, rollBackError });
      return true; // unknown: the healer decides after the lease
    });
    // false: the commit had in fact landed (its answer was lost), so the move goes ahead.
    if (rolledBack) throw error;
  }
  const work = (async () => {
    for (const [index, users] of parts.entries()) {
      await applyCommitted(applyWrites({ op, target: move.target, at }, index, users));
    }
    await finish(op);
  })();
  let inTime = false;
  try {
    inTime = await finishedBy(move.ctx.deadline, work, 'a bulk move');
  } catch (error) {
    await log('error', 'bulk move committed but not fully applied; the healer completes it', { op, error });
  }
  if (!inTime) {
    // Committed: answered 202, and the healer completes it from its next run (lib/slow-changes.ts).
    await transactWrite([headerHandOff(op, new Date().toISOString())]).catch((error: unknown) =>
      log('warn', 'handing a bulk move to the healer failed; it takes it when its lease ends', { op, error }),
    );
    throw new StillApplying({ type: 'department', id: move.audit.resourceId });
  }
  return at;
}
