/**
 * Memberships written in steps, for what one transaction cannot hold: the
 * members of a G3 still pending (create.ts) and the new generation of a
 * large change of a group's members (rewrite.ts). A step is one transaction
 * of `chunkUsers` users — their two membership items and the check that the
 * user exists and is not being deleted (members.ts) — `chunkConcurrency` at
 * a time. No step starts after `deadline`, half the lease of what is being
 * written, so none can land after a roll-back that waits for the lease.
 */
import { forEachConcurrently } from '../db/batch';
import { transactWrite, withFreshRead, type Write } from '../db/transact';
import type { GroupRef } from '../store/groups';
import { groupTuning } from './groups';
import { newMembership, userCheckWrite } from './members';

export const memberWrites = (group: GroupRef, userIds: string[], now: string): Write[] =>
  userIds.flatMap((userId) => [userCheckWrite(userId, now), ...newMembership(group, userId, now)]);

export async function writeMembersInSteps(
  group: GroupRef,
  userIds: string[],
  options: { deadline: number; tooLong: () => Error; extra?: (chunk: string[], now: string) => Write[] },
): Promise<void> {
  const chunks: string[][] = [];
  for (let i = 0; i < userIds.length; i += groupTuning.chunkUsers) chunks.push(userIds.slice(i, i + groupTuning.chunkUsers));
  await forEachConcurrently(chunks, groupTuning.chunkConcurrency, async (chunk) => {
    if (Date.now() > options.deadline) throw options.tooLong();
    await withFreshRead(async () => {
      const now = new Date().toISOString();
      await transactWrite([...memberWrites(group, chunk, now), ...(options.extra?.(chunk, now) ?? [])]);
    });
  });
}
