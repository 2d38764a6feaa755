/**
 * E3 and E5: add or remove up to 1,000 users at once, all or nothing. The
 * checks read the department and users; the writes go through the bulk-move
 * protocol (./bulk-move/), whose conditions, not these reads, keep the rules
 * under concurrency.
 */
import type { ChangeContext } from '../audit/context';
import { StaleReadError } from '../db/errors';
import { withFreshRead } from '../db/transact';
import { recordMetric } from '../metrics';
import { StillApplying } from '../slow-changes';
import { Problem } from '../problems';
import { findDepartment } from '../store/departments';
import { findUsers } from '../store/users';
import { userRepresentation, type StoredUser, type User } from '../users/user';
import { movedUser, runBulkMove } from './bulk-move/driver';
import { departmentNotFound, notAMember } from './errors';
import { overagesOf, quotaExceeded, sumUsage, usageOf } from './quotas';

export const MAX_BULK_USERS = 1000;

/** The users found among `ids`, read strongly; one held by another bulk move is about to change: read again shortly. */
async function readUsersForChange(ids: string[]): Promise<Map<string, StoredUser>> {
  const users = await findUsers(ids);
  if ([...users.values()].some((user) => user.bulk_lock)) throw new StaleReadError();
  return users;
}

function recordBulkMove(operation: 'E3' | 'E5', users: number): void {
  recordMetric('bulkMoves', 1, { Operation: operation });
  recordMetric('bulkMovedUsers', users, { Operation: operation });
}

/**
 * E3: every listed user is in the department afterwards (moved from any
 * other), or nothing changes. A dry run makes the same checks and answers the
 * users as they would be, without writing.
 */
export async function addUsersToDepartment(
  ctx: ChangeContext,
  departmentId: string,
  userIds: string[],
  options: { dryRun?: boolean } = {},
): Promise<User[]> {
  const ids = [...new Set(userIds)];
  return withFreshRead(async () => {
    const [department, users] = await Promise.all([findDepartment(departmentId), readUsersForChange(ids)]);
    if (!department) throw departmentNotFound(departmentId);
    const missing = ids.filter((id) => !users.has(id));
    if (missing.length > 0) {
      throw new Problem('not-found', `Unknown users: ${missing.join(', ')}.`, { missing_user_ids: missing });
    }
    const moving = ids.map((id) => users.get(id)!).filter((user) => user.department_id !== departmentId);
    // The same arithmetic the reservation's condition enforces, answered without a write when it fails.
    const overages = overagesOf(department, sumUsage(moving.map(usageOf)));
    if (overages.length > 0) throw quotaExceeded(departmentId, overages);

    const moved = new Map<string, User>();
    if (options.dryRun) {
      const at = new Date().toISOString();
      for (const user of moving) moved.set(user.id, userRepresentation(movedUser(user, departmentId, at)));
    } else if (moving.length > 0) {
      const movedFrom = Object.fromEntries(moving.filter((u) => u.department_id).map((u) => [u.id, u.department_id]));
      const changes = { added_user_ids: moving.map((u) => u.id), ...(Object.keys(movedFrom).length > 0 ? { moved_from: movedFrom } : {}) };
      const at = await runBulkMove({
        ctx,
        target: departmentId,
        targetAsRead: department,
        users: moving,
        audit: { resourceType: 'department', resourceId: departmentId, changes },
      });
      recordBulkMove('E3', moving.length);
      for (const user of moving) moved.set(user.id, userRepresentation(movedUser(user, departmentId, at)));
    }
    return ids.map((id) => moved.get(id) ?? userRepresentation(users.get(id)!));
  });
}

/** E5: every listed user leaves the department, or nothing changes (404 `not-a-member` names those that are not in it). */
export async function removeUsersFromDepartment(ctx: ChangeContext, departmentId: string, userIds: string[]): Promise<void> {
  const ids = [...new Set(userIds)];
  await withFreshRead(async () => {
    const users = await readUsersForChange(ids);
    const outsiders = ids.filter((id) => users.get(id)?.department_id !== departmentId);
    if (outsiders.length > 0) {
      // Only to choose the right 404: members prove the department exists, so a success never reads it.
      if (!(await findDepartment(departmentId))) throw departmentNotFound(departmentId);
      throw notAMember(departmentId, outsiders);
    }
    await runBulkMove({
      ctx,
      target: null,
      users: ids.map((id) => users.get(id)!),
      audit: { resourceType: 'department', resourceId: departmentId, changes: { removed_user_ids: ids } },
    });
    recordBulkMove('E5', ids.length);
  });
}

/**
 * E3 and E5 as a repeat answers them once the move its first request answered 202 for has completed: the users as
 * they now are, in request order (lib/http/applying.ts). Throws StillApplying while any is still held by a move.
 */
export async function usersAfterMove(departmentId: string, userIds: string[]): Promise<User[]> {
  const ids = [...new Set(userIds)];
  const users = await findUsers(ids);
  if ([...users.values()].some((user) => user.bulk_lock)) throw new StillApplying({ type: 'department', id: departmentId });
  return ids.flatMap((id) => {
    const user = users.get(id);
    return user ? [userRepresentation(user)] : [];
  });
}
