/**
 * Deleting groups (G6, G7) and removing the memberships of deleted groups.
 *
 * The group item and its name claim go in the deleting transaction, so the
 * group is gone at once: G1 answers 404, G2 no longer lists it, G4 fails on
 * it. Its memberships go either in that same transaction (G6 of a group of
 * up to 48 members, conditional on the version read, which every membership
 * change bumps), or after it: the transaction then also puts a cleanup
 * marker for the group's generation, and the memberships of that generation
 * are deleted in batches, the marker last. Nothing can add to a deleted
 * generation (every addition is conditional on the group item of that
 * generation), so one pass that finds the partition empty is final.
 *
 * Who sweeps: the request itself, before answering, when the deleted groups
 * hold up to `inlineSweepMembers` (1,000) memberships; otherwise, or when that
 * fails, `sweepDeletedGroups`, which the maintenance function runs on a
 * schedule (and `npm start` in the background). Every step is idempotent:
 * deleting an absent item is a no-op and the marker goes last, so a sweep
 * that crashes is simply run again. Until then a membership of a deleted
 * group is invisible: it is under a generation no group has any more, and
 * user deletion removes such memberships without touching any counter.
 */
import type { ChangeContext } from '../audit/context';
import { forEachConcurrently } from '../db/batch';
import { ContentionError, StaleReadError } from '../db/errors';
import { transactWrite, withFreshRead, type Write } from '../db/transact';
import { log } from '../log';
import { preconditionFailed, Problem } from '../problems';
import { finishedBy } from '../slow-changes';
import { deleteGroupWrite, findGroupItems, isChanging, isPublished, toGroup, type GroupRef, type StoredGroup } from '../store/groups';
import {
  cleanupMarkerPut,
  cleanupMarkers,
  deleteCleanupMarker,
  deleteMemberships,
  memberIds,
  membershipDeletes,
} from '../store/memberships';
import { addCounters, GROUPS_COUNTER } from '../store/stats';
import { getGroup, groupAudit, groupBusy, groupNotFound, groupTuning, releaseIdentity } from './groups';
import { ruleGroupsCountWrite } from './rule-limits';

/**
 * G7 deletes this many groups per transaction: up to 5 items each (group, name claim, external id claim, marker,
 * audit) and the two counters (groups, rule groups): 19 × 5 + 2 = 97, within DynamoDB's 100.
 */
const GROUPS_PER_TRANSACTION = 19;

/**
 * Deletes a published group item; `version` (when given) must match too. A
 * group gone since it was read is a 404, or with `goneIsStale` a reason to
 * read again (G7: a group a racing request deleted is deleted as asked).
 */
function groupDelete(group: StoredGroup, condition: { version?: number; ifMatch: boolean; goneIsStale?: boolean }): Write {
  return deleteGroupWrite(group, condition.version, (stored) => {
    if (!isPublished(stored)) return condition.goneIsStale ? new StaleReadError() : groupNotFound(group.id);
    if (stored.generation !== group.generation) return new StaleReadError();
    if (isChanging(stored)) return groupBusy(group.id);
    return condition.ifMatch ? preconditionFailed() : new StaleReadError();
  });
}

/**
 * G6. Small groups lose their memberships in the same transaction, larger
 * ones through a cleanup marker. The first is conditional on the version
 * read; when memberships changed meanwhile, the next attempt takes the
 * marker's way, which no racing addition can fail, so a busy group cannot
 * starve its deletion.
 */
export async function deleteGroup(ctx: ChangeContext, id: string, expectedVersion?: number): Promise<void> {
  let attempt = 0;
  const left = await withFreshRead(async () => {
    const firstAttempt = attempt++ === 0;
    const group = await getGroup(id);
    const now = new Date().toISOString();
    const common = [
      ...releaseIdentity(group),
      ...addCounters(id, { [GROUPS_COUNTER]: -1 }),
      ...(group.rule === null ? [] : [ruleGroupsCountWrite(-1)]),
      groupAudit(ctx, id, { deleted: true, user_count: group.user_count }, now),
    ];
    const { inlineDeleteMembers } = groupTuning();
    if (firstAttempt && group.user_count <= inlineDeleteMembers) {
      const ids = await memberIds(group);
      if (ids.length <= inlineDeleteMembers) {
        // The version read covers the members read: any membership change since bumps it.
        await transactWrite([
          groupDelete(group, { version: expectedVersion ?? group.version, ifMatch: expectedVersion !== undefined }),
          ...common,
          ...ids.flatMap((userId) => membershipDeletes(group, userId)),
        ]);
        return [];
      }
    }
    await transactWrite([
      groupDelete(group, { version: expectedVersion, ifMatch: expectedVersion !== undefined }),
      ...common,
      cleanupMarkerPut(group, now),
    ]);
    return [{ group, members: group.user_count }];
  });
  await sweepBeforeAnswering(ctx, left);
}

/** G7: all or nothing as far as the groups are known at the start; 24 groups per transaction, in parallel. */
export async function deleteGroups(ctx: ChangeContext, groupIds: string[]): Promise<void> {
  const ids = [...new Set(groupIds)];
  const first = await findGroupItems(ids);
  const missing = ids.filter((id) => !isPublished(first.get(id)));
  if (missing.length > 0) {
    throw new Problem('not-found', `Unknown group(s): ${missing.join(', ')}; nothing was deleted.`, { missing_group_ids: missing });
  }
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += GROUPS_PER_TRANSACTION) chunks.push(ids.slice(i, i + GROUPS_PER_TRANSACTION));
  const left: Array<{ group: GroupRef; members: number }> = [];
  await forEachConcurrently(chunks, 4, async (chunk) => {
    let attempt = 0;
    await withFreshRead(async () => {
      // The first attempt uses the read above; a retry reads its groups again.
      const items = attempt++ === 0 ? first : await findGroupItems(chunk);
      // A group deleted by a racing request since the check is gone already, as asked.
      const groups = chunk.flatMap((id) => {
        const item = items.get(id);
        return isPublished(item) ? [toGroup(item)] : [];
      });
      if (groups.length === 0) return;
      const now = new Date().toISOString();
      await transactWrite([
        ...groups.flatMap((group) => [
          groupDelete(group, { ifMatch: false, goneIsStale: true }),
          ...releaseIdentity(group),
          cleanupMarkerPut(group, now),
          groupAudit(ctx, group.id, { deleted: true, user_count: group.user_count }, now),
        ]),
        ...addCounters(groups[0].id, { [GROUPS_COUNTER]: -groups.length }),
        ...(groups.some((g) => g.rule !== null) ? [ruleGroupsCountWrite(-groups.filter((g) => g.rule !== null).length)] : []),
      ]);
      left.push(...groups.map((group) => ({ group, members: group.user_count })));
    });
  });
  await sweepBeforeAnswering(ctx, left);
}

/**
 * Best effort: the answer does not wait for more than `inlineSweepMembers` memberships, nor past the request's
 * deadline (lib/slow-changes.ts), nor fail when the sweep does; sweepDeletedGroups finishes what is left.
 */
async function sweepBeforeAnswering(ctx: ChangeContext, groups: Array<{ group: GroupRef; members: number }>): Promise<void> {
  const members = groups.reduce((sum, g) => sum + g.members, 0);
  if (groups.length === 0 || members > groupTuning().inlineSweepMembers) return;
  try {
    await finishedBy(ctx.deadline, Promise.all(groups.map(({ group }) => sweepGroup(group))), 'sweeping deleted groups');
  } catch (error) {
    await log('warn', 'Sweeping deleted groups failed; sweepDeletedGroups will finish it', { error: error as Error });
  }
}

/**
 * Removes every membership of a deleted group generation, then its marker;
 * run again after a crash anywhere, it finds whatever is left.
 */
export async function sweepGroup(group: GroupRef): Promise<number> {
  let removed = 0;
  for (;;) {
    const userIds = await memberIds(group);
    if (userIds.length === 0) break;
    await deleteMemberships(group, userIds);
    removed += userIds.length;
  }
  await deleteCleanupMarker(group);
  return removed;
}

/**
 * The maintenance job: removes the memberships of every deleted group (found
 * by an index Query of the cleanup markers, never a Scan). Safe to run at any
 * time, in parallel with itself and after a crash. Answers how many deleted
 * groups it finished.
 */
export async function sweepDeletedGroups(): Promise<number> {
  const markers = await cleanupMarkers();
  await forEachConcurrently(markers, 4, async (group) => {
    await sweepGroup(group);
  });
  return markers.length;
}
