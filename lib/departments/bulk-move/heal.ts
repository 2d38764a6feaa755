/**
 * Finishing bulk moves (see driver.ts): applying a committed part under
 * contention, rolling back a move that never reached its commit point,
 * rolling forward one that did, and the healer that does either for moves
 * whose driver died.
 */
import { ContentionError, isSignal } from '../../db/errors';
import { transactWrite, type Write } from '../../db/transact';
import { headerDelete, headerTransition, partReleased, readMove, staleMoves } from '../../store/bulk-moves';
import { addUsageWrite, usageOnly } from '../../store/departments';
import { findUsers, releaseUser } from '../../store/users';
import { isZeroUsage, scaleUsage } from '../quotas';
import { applyWrites, partGone, type MoveInfo } from './writes';

const APPLY_ROUNDS = 5;

function ignorePartGone(error: unknown): void {
  if (!isSignal(error, 'part-gone')) throw error;
}

/**
 * Applies one part of a committed move. Contention cannot be answered with a
 * 409 any more (the move is decided), so conflicts get more rounds of
 * retries than a single transaction would; only lasting throttling gives up.
 */
export async function applyCommitted(writes: Write[]): Promise<void> {
  for (let round = 1; ; round++) {
    try {
      await transactWrite(writes);
      return;
    } catch (error) {
      if (isSignal(error, 'part-gone')) return;
      if (!(error instanceof ContentionError) || round >= APPLY_ROUNDS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 100 * round));
    }
  }
}

/** Deletes the header of a move whose parts are all applied. */
export async function finish(op: string): Promise<void> {
  await transactWrite([headerDelete(op, 'applying', partGone)]).catch(ignorePartGone);
}

/**
 * Undoes a move that never reached its commit point. Answers false when the
 * move had committed (roll it forward instead); true when it is undone or was
 * already gone.
 */
export async function rollBack(op: string): Promise<boolean> {
  try {
    await transactWrite([headerTransition(op, ['preparing', 'aborting'], 'aborting', partGone)]);
  } catch (error) {
    ignorePartGone(error);
    const { header } = await readMove(op);
    return header?.state !== 'applying'; // gone means someone else already rolled it back
  }
  const { header, parts } = await readMove(op);
  if (!header) return true;
  for (const part of parts) {
    await transactWrite([partReleased(op, part.index, partGone), ...part.userIds.map((userId) => releaseUser(userId, op))]).catch(
      ignorePartGone,
    );
  }
  const at = new Date().toISOString();
  const releaseReservation =
    header.target && !isZeroUsage(header.reserved) ? [addUsageWrite(header.target, usageOnly(scaleUsage(header.reserved, -1)), at)] : [];
  await transactWrite([headerDelete(op, 'aborting', partGone), ...releaseReservation]).catch(ignorePartGone);
  return true;
}

/** Completes a committed move from the parts that remain. */
async function rollForward(op: string): Promise<void> {
  const { header, parts } = await readMove(op);
  if (!header) return;
  const move: MoveInfo = { op, target: header.target, at: header.at };
  for (const part of parts) {
    const users = [...(await findUsers(part.userIds)).values()];
    await applyCommitted(applyWrites(move, part.index, users));
  }
  await finish(op);
}

/**
 * Finishes every bulk move whose driver is presumed dead (lease passed):
 * rolled back before its commit point, forward after it. Answers how many.
 */
export async function healBulkMoves(now = Date.now()): Promise<number> {
  let healed = 0;
  for (const header of await staleMoves(new Date(now).toISOString())) {
    if (header.state === 'applying' || !(await rollBack(header.op))) await rollForward(header.op);
    healed++;
  }
  return healed;
}
