/**
 * A change of a group's members larger than one transaction holds (SCIM's
 * PUT and PATCH of many members), all or nothing: the members the group is
 * to have are written into a new generation in steps, and one conditional
 * update of the group item switches to it.
 *
 * 1. Open. One transaction sets `next_generation` on the group, conditional
 *    on the version read (and on no other such change holding it until a
 *    lease not yet passed), with a marker for the new generation that the
 *    sweeper takes up only once the lease has passed. Nothing is visible yet:
 *    readers use `generation`.
 * 2. Write. Every member-to-be is written into the new generation in steps
 *    (member-steps.ts), each step checking that its users exist and are not
 *    being deleted. A user deleted after its step takes itself out of the new
 *    generation and counts itself in `next_removed` (members.ts).
 * 3. Commit. One transaction, conditional on the version read and on
 *    `next_generation`: the group takes the new generation, `user_count` =
 *    members written − `next_removed`, the name and external id change,
 *    the new generation's marker goes and the old generation gets one (its
 *    memberships are swept like a deleted group's), with the audit entries.
 *
 * Any change of the group between the read and the commit (a G4, another
 * change, a member's deletion) fails the commit: the new generation is
 * abandoned (swept) and the request starts over from a fresh read, or
 * answers 412 when it was made on an If-Match. A writer that dies leaves the
 * marker, which the sweeper takes up after the lease, and a `next_generation`
 * the next large change may take over. No step or commit starts after half
 * the lease.
 *
 * It costs a write per member-to-be, not per member changed: a change this
 * large is rare (identity providers send a few members per PATCH), and
 * rewriting is what makes the switch a single conditional write.
 */
import type { ChangeContext } from '../audit/context';
import { StaleReadError } from '../db/errors';
import { transactWrite, type Write } from '../db/transact';
import { newId } from '../ids';
import { log } from '../log';
import { conflict, preconditionFailed } from '../problems';
import {
  closeNextGeneration,
  commitNextGenerationWrite,
  findGroupItem,
  isPublished,
  openNextGenerationWrite,
  type GroupRef,
  type StoredGroup,
} from '../store/groups';
import { cleanupMarkerDelete, cleanupMarkerPut, pendingGenerationMarkerPut } from '../store/memberships';
import { foldCase } from '../text';
import { sweepBeforeAnswering } from './cleanup';
import {
  claimExternalId,
  claimName,
  groupAudit,
  groupFull,
  groupNotFound,
  groupTuning,
  MAX_GROUP_USERS,
  readUsers,
  releaseExternalId,
  releaseName,
} from './groups';
import { writeMembersInSteps } from './member-steps';
import { MissingUserError } from './members';

export interface MembersRewrite {
  /** The group as read (published). */
  group: StoredGroup;
  /** Every member the group is to have. */
  members: string[];
  /** For the audit: who joins and who leaves. */
  added: string[];
  removed: string[];
  name?: string;
  external_id?: string | null;
  /** The If-Match version, if the request gave one. */
  expectedVersion?: number;
}

/** Ids per audit entry of a rewrite, so that an entry stays far below DynamoDB's 400 KB item limit. */
const AUDIT_IDS_PER_ENTRY = 2_000;

/**
 * The protocol at the top of this file. Throws StaleReadError when the group
 * changed since it was read (the caller reads again), MissingUserError for
 * an unknown user among those added.
 */
export async function rewriteMembers(ctx: ChangeContext, rewrite: MembersRewrite): Promise<StoredGroup> {
  const { group, members } = rewrite;
  if (members.length > MAX_GROUP_USERS) throw groupFull(group.id);
  const found = await readUsers(rewrite.added);
  const unknown = rewrite.added.find((userId) => !found.has(userId));
  if (unknown !== undefined) throw new MissingUserError(unknown);

  const started = Date.now();
  const next: GroupRef = { id: group.id, generation: newId() };
  const leaseUntil = new Date(started + groupTuning.pendingLeaseMs).toISOString();
  const changedSinceRead = (stored: { version?: unknown; state?: unknown } | undefined) => {
    if (!isPublished(stored)) return groupNotFound(group.id);
    if (Number(stored?.version) !== group.version)
      return rewrite.expectedVersion === undefined ? new StaleReadError() : preconditionFailed();
    return conflict(`Another large change of group "${group.id}"'s members is in progress; retry the request shortly.`);
  };
  await transactWrite([
    openNextGenerationWrite(group, { generation: next.generation, leaseUntil }, new Date(started).toISOString(), changedSinceRead),
    pendingGenerationMarkerPut(next, leaseUntil),
  ]);
  const deadline = started + groupTuning.pendingLeaseMs / 2;
  const tooLong = () => conflict('Changing the group took too long; nothing was changed. Retry the request.');
  try {
    await writeMembersInSteps(next, members, { deadline, tooLong });
    // Nor may the commit land once the sweeper could take the generation up.
    if (Date.now() > deadline) throw tooLong();
    return await commit(ctx, rewrite, next);
  } catch (error) {
    if (await committed(next)) return groupAfter(rewrite, next); // a commit whose answer was lost
    await abandon(next, members.length);
    // A member who is not being added vanished: the group changed under the read.
    if (error instanceof MissingUserError && !rewrite.added.includes(error.userId)) throw new StaleReadError();
    throw error;
  }
}

async function commit(ctx: ChangeContext, rewrite: MembersRewrite, next: GroupRef): Promise<StoredGroup> {
  const { group, name, external_id: externalId } = rewrite;
  const now = new Date().toISOString();
  const writes: Write[] = [
    commitNextGenerationWrite(
      group,
      { next: next.generation, users: rewrite.members.length, name, external_id: externalId },
      now,
      (stored) =>
        !isPublished(stored) || stored.generation !== group.generation
          ? groupNotFound(group.id)
          : rewrite.expectedVersion === undefined
            ? new StaleReadError()
            : preconditionFailed(),
    ),
    cleanupMarkerDelete(next),
    cleanupMarkerPut(group, now),
  ];
  if (name !== undefined && foldCase(name) !== foldCase(group.name))
    writes.push(releaseName(group.id, group.name), claimName(group.id, name));
  if (externalId !== undefined) {
    if (group.external_id !== null) writes.push(releaseExternalId(group.id, group.external_id));
    if (externalId !== null) writes.push(claimExternalId(group.id, externalId));
  }
  writes.push(...auditEntries(ctx, rewrite, now));
  await transactWrite(writes);
  await sweepBeforeAnswering([{ group, members: group.user_count }]);
  return groupAfter(rewrite, next, now);
}

/** The group as the commit left it; `user_count` read back, since members deleted meanwhile were taken off it. */
async function groupAfter(rewrite: MembersRewrite, next: GroupRef, now?: string): Promise<StoredGroup> {
  const item = await findGroupItem(rewrite.group.id);
  const { group, name, external_id: externalId } = rewrite;
  return {
    ...group,
    ...(name === undefined ? {} : { name }),
    ...(externalId === undefined ? {} : { external_id: externalId }),
    generation: next.generation,
    user_count: item?.generation === next.generation ? Number(item.user_count) : rewrite.members.length,
    version: group.version + 1,
    updated_at: now ?? String(item?.updated_at ?? group.updated_at),
  };
}

/** Whether the group took `next` (a commit may succeed although its answer was lost). */
async function committed(next: GroupRef): Promise<boolean> {
  try {
    return (await findGroupItem(next.id))?.generation === next.generation;
  } catch {
    return false;
  }
}

/** Abandons an uncommitted generation: frees the group for another change and sweeps what was written (or leaves it to the sweeper). */
async function abandon(next: GroupRef, members: number): Promise<void> {
  try {
    await closeNextGeneration(next.id, next.generation);
    await transactWrite([cleanupMarkerPut(next, new Date().toISOString())]);
    await sweepBeforeAnswering([{ group: next, members }]);
  } catch (error) {
    await log('warn', 'Abandoning a group change failed; sweepDeletedGroups will finish it after its lease', {
      groupId: next.id,
      error: error as Error,
    });
  }
}

/** Who joined and who left, at most AUDIT_IDS_PER_ENTRY ids of each per entry; the first entry has the other changes. */
function auditEntries(ctx: ChangeContext, rewrite: MembersRewrite, now: string): Write[] {
  const { group, name, external_id: externalId } = rewrite;
  const slices = (ids: string[]) =>
    Array.from({ length: Math.ceil(ids.length / AUDIT_IDS_PER_ENTRY) }, (_, i) =>
      ids.slice(i * AUDIT_IDS_PER_ENTRY, (i + 1) * AUDIT_IDS_PER_ENTRY),
    );
  const added = slices(rewrite.added);
  const removed = slices(rewrite.removed);
  const entries = Array.from({ length: Math.max(1, added.length, removed.length) }, (_, i) => {
    const changes: Record<string, unknown> = {};
    if (i === 0 && name !== undefined) changes.name = { from: group.name, to: name };
    if (i === 0 && externalId !== undefined) changes.external_id = { from: group.external_id, to: externalId };
    if (added[i]) changes.added_user_ids = added[i];
    if (removed[i]) changes.removed_user_ids = removed[i];
    return changes;
  });
  return entries.map((changes) => groupAudit(ctx, group.id, changes, now));
}
