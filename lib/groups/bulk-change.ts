/**
 * A change of a group's members larger than one transaction holds (SCIM's
 * PUT and PATCH of many members, a G3 of many users), decided all or nothing
 * at one commit and then applied in parts, like a bulk department move
 * (lib/departments/bulk-move/driver.ts). Its items are in
 * lib/store/group-changes.ts.
 *
 * 1. Prepare. A header (`preparing`, listed by its lease) and one part per
 *    chunk of users to add and remove are written; nothing is visible yet.
 * 2. Commit. One transaction, on the group as read (version, generation, no
 *    other change open): the group takes `change_id`, its `user_count` moves
 *    by the whole change (checked against the 10,000 limit), its name and
 *    external id change with their claims, the header turns `applying`, and
 *    the audit entries are written. A G3 creates the group in this
 *    transaction instead (with its name claim, already holding `change_id`
 *    and its final `user_count`). Any failure before it (a stale read, a
 *    stale If-Match, a full group, another change open, a name taken) leaves
 *    the group as it was: the header and parts are deleted and the request
 *    answers or starts over from a fresh read.
 * 3. Apply. Per part, one transaction writes its memberships (each addition
 *    checking that its user exists and is not being deleted) and deletes the
 *    part. Parts touch the group item only to correct its count (below), so
 *    they run side by side.
 * 4. Finish. The group gives up `change_id`, and the header goes.
 *
 * While `change_id` is held, every other change of the group's members, or
 * its deletion, is refused with 409 (retry): its count is ahead of its
 * memberships by what is left to apply. Only user deletion goes on: a user
 * deleted before its part is applied is left out of it, and the count is
 * corrected in that part's transaction (one less added, or one removal its
 * deletion already made). Between the commit and the end, G1 answers the
 * final `user_count`, members as far as applied and `bulk_status: applying`.
 *
 * A request waits for the change until its deadline (lib/slow-changes.ts).
 * Past it, a committed change is handed to the healer (its lease ends now)
 * and the request answers 202 (StillApplying); a commit still in flight is
 * left to its lease, after which the healer finds it committed or not.
 *
 * A driver that dies leaves its header, which the maintenance function
 * finds once its lease has passed: `preparing` is discarded, `applying`
 * rolled forward from the parts left (healGroupChanges). Every part is
 * deleted in the transaction that applies it, so nothing is applied twice.
 */
import type { ChangeContext } from '../audit/context';
import { ContentionError, isSignal, signal, StaleReadError } from '../db/errors';
import { MAX_TRANSACTION_ITEMS, transactWrite, type Write } from '../db/transact';
import { batchDelete, forEachConcurrently } from '../db/batch';
import { newId } from '../ids';
import { log } from '../log';
import { conflict, preconditionFailed } from '../problems';
import { finishedBy, StillApplying } from '../slow-changes';
import {
  headerApplying,
  headerDelete,
  headerHandOff,
  headerPut,
  partDelete,
  partKey,
  partPut,
  readGroupChange,
  staleGroupChanges,
  type GroupChangePart,
} from '../store/group-changes';
import {
  changeGroupWrite,
  correctChangeCountWrite,
  findGroupItem,
  finishGroupChangeWrite,
  isChanging,
  isPublished,
  isRuleManaged,
  type GroupRef,
  type StoredGroup,
} from '../store/groups';
import { membershipDeletes, membershipPuts } from '../store/memberships';
import {
  groupAudit,
  groupBusy,
  groupFull,
  groupNotFound,
  groupTuning,
  identityChangeWrites,
  MAX_GROUP_USERS,
  readUsers,
  ruleManaged,
} from './groups';
import { MissingUserError, userCheckWrite } from './members';

export interface GroupMembersChange {
  /** The group as read (published). */
  group: StoredGroup;
  /** Users to add (none a member) and to remove (each a member), as read. */
  adds: string[];
  removes: string[];
  name?: string;
  external_id?: string | null;
  /** The If-Match version, if the request gave one. */
  expectedVersion?: number;
  /** A rule's change (lib/groups/rule-follow.ts): the rule version it was decided for, and the rule's limit. */
  ruleVersion?: string;
  maxUsers?: number;
  /** Every user added was read just now by the caller, and exists. */
  addsRead?: boolean;
  /**
   * A G3 (lib/groups/create.ts): the commit creates `group` (which holds `changeId` from the start) with these writes,
   * instead of changing it, and the first audit entry says so with `audit`.
   */
  creation?: { writes: (changeId: string, now: string) => Write[]; audit: Record<string, unknown> };
}

/** Ids per audit entry, far below DynamoDB's 400 KB item limit. */
const AUDIT_IDS_PER_ENTRY = 2_000;
/** Rounds a part is retried when contention or a user's deletion gets in its way. */
const APPLY_ROUNDS = 6;

/**
 * The protocol at the top of this file. Throws StaleReadError when the group
 * changed since it was read (the caller reads again), MissingUserError for an
 * unknown user among those added. Answers the group after the change.
 */
export async function changeGroupMembersInParts(ctx: ChangeContext, change: GroupMembersChange): Promise<StoredGroup> {
  const { group, adds, removes } = change;
  const delta = adds.length - removes.length;
  if (group.user_count + delta > (change.maxUsers ?? MAX_GROUP_USERS)) throw groupFull(group.id);
  if (!change.addsRead) {
    const found = await readUsers(adds);
    const unknown = adds.find((userId) => !found.has(userId));
    if (unknown !== undefined) throw new MissingUserError(unknown);
  }

  const changeId = newId();
  const parts = packParts(adds, removes);
  const { changeLeaseMs } = groupTuning();
  const started = Date.now();
  const leaseUntil = new Date(started + changeLeaseMs).toISOString();
  await writeAll([headerPut({ id: changeId, group, leaseUntil }), ...parts.map((part) => partPut(changeId, part, started))]);

  const now = new Date().toISOString();
  let committed = false;
  const work = (async () => {
    await commit(ctx, change, changeId, parts, { started, now });
    committed = true;
    await applyParts(changeId, group, parts);
    await finish(changeId, group.id);
  })();
  let inTime = false;
  try {
    inTime = await finishedBy(ctx.deadline, work, 'a large change of a group');
  } catch (error) {
    if (!committed) throw error;
    await log('error', 'group change committed but not fully applied; the healer completes it', { changeId, error: error as Error });
  }
  if (!inTime) {
    if (committed) {
      await transactWrite([headerHandOff(changeId, new Date().toISOString())]).catch((error: unknown) =>
        log('warn', 'handing a group change to the healer failed; it takes it when its lease ends', { changeId, error: error as Error }),
      );
    }
    throw new StillApplying({ type: 'group', id: group.id });
  }
  return {
    ...group,
    ...(change.name === undefined ? {} : { name: change.name }),
    ...(change.external_id === undefined ? {} : { external_id: change.external_id }),
    user_count: Number((await findGroupItem(group.id))?.user_count ?? group.user_count + delta),
    bulk_status: null,
    version: group.version + 1,
    // A creation's group was made at its own time (create.ts); a change's is updated at the commit.
    updated_at: change.creation ? group.updated_at : now,
  };
}

/** The commit, or nothing: a change that cannot commit is discarded and its error thrown. */
async function commit(
  ctx: ChangeContext,
  change: GroupMembersChange,
  changeId: string,
  parts: GroupChangePart[],
  at: { started: number; now: string },
): Promise<void> {
  try {
    // The healer discards a change still preparing once its lease has passed: commit well before.
    if (Date.now() > at.started + groupTuning().changeLeaseMs / 2)
      throw conflict('Changing the group took too long; nothing was changed. Retry the request.');
    await transactWrite(commitWrites(ctx, change, changeId, at.now));
  } catch (error) {
    const discarded = await discard(changeId, parts).catch(async (discardError: unknown) => {
      await log('warn', 'discarding an uncommitted group change failed; the healer will', { changeId, error: discardError as Error });
      return true; // unknown: the healer decides after the lease
    });
    // Not discarded: the commit landed although its answer was lost, and the change goes ahead.
    if (discarded) throw error;
  }
}

/** Chunks of users for one transaction each: 3 items an addition, 2 a removal, with the part and a count correction; at most `chunkUsers`. */
function packParts(adds: string[], removes: string[]): GroupChangePart[] {
  const room = MAX_TRANSACTION_ITEMS - 2;
  const parts: GroupChangePart[] = [];
  let part: GroupChangePart = { index: 0, adds: [], removes: [] };
  const items = (p: GroupChangePart) => 3 * p.adds.length + 2 * p.removes.length;
  for (const [userId, side, cost] of [...adds.map((u) => [u, 'adds', 3] as const), ...removes.map((u) => [u, 'removes', 2] as const)]) {
    if (items(part) + cost > room || part.adds.length + part.removes.length >= groupTuning().chunkUsers) {
      parts.push(part);
      part = { index: parts.length, adds: [], removes: [] };
    }
    part[side].push(userId);
  }
  parts.push(part);
  return parts;
}

/** Writes in as few transactions as hold them (the header first: it alone lists the change for the healer). */
async function writeAll(writes: Write[]): Promise<void> {
  for (let i = 0; i < writes.length; i += MAX_TRANSACTION_ITEMS) await transactWrite(writes.slice(i, i + MAX_TRANSACTION_ITEMS));
}

function commitWrites(ctx: ChangeContext, change: GroupMembersChange, changeId: string, now: string): Write[] {
  const { group, name, external_id: externalId } = change;
  if (change.creation) {
    return [
      ...change.creation.writes(changeId, now),
      headerApplying(changeId, () => new StaleReadError()),
      ...auditEntries(ctx, change, now),
    ];
  }
  const writes: Write[] = [
    changeGroupWrite(
      group,
      { changeId, delta: change.adds.length - change.removes.length, name, external_id: externalId, ruleVersion: change.ruleVersion },
      now,
      change.maxUsers ?? MAX_GROUP_USERS,
      (stored) => {
        if (!isPublished(stored) || stored.generation !== group.generation) return groupNotFound(group.id);
        if (change.ruleVersion === undefined && isRuleManaged(stored)) return ruleManaged(group.id);
        if (Number(stored.version) !== group.version)
          return change.expectedVersion === undefined ? new StaleReadError() : preconditionFailed();
        if (isChanging(stored)) return groupBusy(group.id);
        return groupFull(group.id);
      },
    ),
    headerApplying(changeId, () => new StaleReadError()),
  ];
  writes.push(...identityChangeWrites(group, { name, external_id: externalId }));
  return [...writes, ...auditEntries(ctx, change, now)];
}

/** Who joined and who left, at most AUDIT_IDS_PER_ENTRY ids of each per entry; the first entry has the other changes. */
function auditEntries(ctx: ChangeContext, change: GroupMembersChange, now: string): Write[] {
  const { group, name, external_id: externalId } = change;
  const slices = (ids: string[]) =>
    Array.from({ length: Math.ceil(ids.length / AUDIT_IDS_PER_ENTRY) }, (_, i) =>
      ids.slice(i * AUDIT_IDS_PER_ENTRY, (i + 1) * AUDIT_IDS_PER_ENTRY),
    );
  const [added, removed] = [slices(change.adds), slices(change.removes)];
  return Array.from({ length: Math.max(1, added.length, removed.length) }, (_, i) => {
    const changes: Record<string, unknown> = i === 0 ? { ...change.creation?.audit } : {};
    if (i === 0 && name !== undefined) changes.name = { from: group.name, to: name };
    if (i === 0 && externalId !== undefined) changes.external_id = { from: group.external_id, to: externalId };
    if (added[i]) changes.added_user_ids = added[i];
    if (removed[i]) changes.removed_user_ids = removed[i];
    return groupAudit(ctx, group.id, changes, now);
  });
}

/**
 * Deletes what a change that never committed wrote: the header first, only
 * while `preparing`, so that no commit can land after it (the commit needs
 * it). False when the change committed meanwhile: it is to be rolled forward.
 */
async function discard(changeId: string, parts: GroupChangePart[]): Promise<boolean> {
  try {
    await transactWrite([headerDelete(changeId, 'preparing', () => signal('committed'))]);
  } catch (error) {
    if (isSignal(error, 'committed')) return (await readGroupChange(changeId)).header === undefined;
    throw error;
  }
  // Parts left behind by a crash here expire on their own (store/group-changes.ts).
  await batchDelete(parts.map((part) => partKey(changeId, part.index)));
  return true;
}

async function applyParts(changeId: string, group: GroupRef, parts: GroupChangePart[]): Promise<void> {
  await forEachConcurrently(parts, groupTuning().chunkConcurrency, (part) => applyPart(changeId, group, part));
}

/** Why a part's transaction failed on one of its users. */
class UserOutOfStep extends Error {
  constructor(
    readonly userId: string,
    readonly side: 'adds' | 'removes',
    readonly retry = false,
  ) {
    super(`user ${userId} out of step`);
  }
}

/**
 * Applies one committed part. A user deleted since the commit is left out
 * and the count corrected in the same transaction: an addition less (−1), or
 * a removal the user's deletion already made and counted (+1). A user being
 * deleted is waited for. A part already applied (gone) is done.
 */
async function applyPart(changeId: string, group: GroupRef, part: GroupChangePart): Promise<void> {
  const pending = { adds: [...part.adds], removes: [...part.removes] };
  let correction = 0;
  for (let round = 1; ; round++) {
    const now = new Date().toISOString();
    // The part first: a part applied already must be told by its own condition, not by its memberships'.
    const writes: Write[] = [
      partDelete(changeId, part.index, () => signal('part-gone')),
      ...pending.adds.flatMap((userId) => [
        { ...userCheckWrite(userId, now), explain: (stored: unknown) => new UserOutOfStep(userId, 'adds', stored !== undefined) },
        ...membershipPuts(group, userId, now, () => new UserOutOfStep(userId, 'adds')),
      ]),
      ...pending.removes.flatMap((userId) => membershipDeletes(group, userId, () => new UserOutOfStep(userId, 'removes'))),
      ...(correction === 0 ? [] : [correctChangeCountWrite(group.id, changeId, correction)]),
    ];
    try {
      await transactWrite(writes);
      return;
    } catch (error) {
      if (isSignal(error, 'part-gone')) return;
      const busy = error instanceof ContentionError || (error instanceof UserOutOfStep && error.retry);
      if (busy && round < APPLY_ROUNDS) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 100 * round));
        continue;
      }
      if (!(error instanceof UserOutOfStep)) throw error;
      pending[error.side] = pending[error.side].filter((userId) => userId !== error.userId);
      correction += error.side === 'adds' ? -1 : 1;
    }
  }
}

/** Frees the group and closes the change (either may be done already: a straggling driver and the healer both finish). */
async function finish(changeId: string, groupId: string): Promise<void> {
  try {
    await transactWrite([finishGroupChangeWrite(groupId, changeId, () => signal('finished'))]);
  } catch (error) {
    if (!isSignal(error, 'finished')) throw error;
  }
  await transactWrite([headerDelete(changeId)]);
}

/**
 * Finishes every change whose driver is presumed dead (lease passed):
 * discarded before its commit, rolled forward after it. Answers how many.
 */
export async function healGroupChanges(now = Date.now()): Promise<number> {
  let healed = 0;
  for (const header of await staleGroupChanges(new Date(now).toISOString())) {
    const { parts } = await readGroupChange(header.id);
    // A discard that finds the change committed meanwhile deletes no part: the parts read are still the ones left.
    if (header.state === 'applying' || !(await discard(header.id, parts))) {
      await applyParts(header.id, header.group, parts);
      await finish(header.id, header.group.id);
    }
    healed++;
  }
  return healed;
}
