/**
 * E3 and E5: add or remove up to 1,000 users at once, all or nothing. The
 * checks read the department and users; the writes go through bulk-move.ts,
 * whose conditions, not these reads, keep the rules under concurrency.
 */
import { StaleReadError, withFreshRead } from '../db/transact';
import { DomainError, notFound } from '../errors';
import type { ChangeContext } from './audit';
import { movedUser, runBulkMove } from './bulk-move';
import { findDepartmentItem } from './departments';
import { notAMember } from './membership';
import { overagesOf, sumUsage, usageOf } from './quotas';
import { quotaExceeded } from './user-changes';
import { findUsers, userRepresentation, type StoredUser, type User } from './users';

export const MAX_BULK_USERS = 1000;

/** The users found among `ids`, read strongly. */
async function readUsers(ids: string[]): Promise<Map<string, StoredUser>> {
  const users = await findUsers(ids);
  // A user held by another bulk move is about to change: read again shortly.
  if ([...users.values()].some((user) => user.bulk_lock)) throw new StaleReadError();
  return users;
}

/** The department (404 if missing) and the users found among `ids`, read strongly. */
async function readDepartmentAndUsers(departmentId: string, ids: string[]) {
  const [department, users] = await Promise.all([findDepartmentItem(departmentId), readUsers(ids)]);
  if (!department) throw notFound('Department', departmentId);
  return { department, users };
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
    const { department, users } = await readDepartmentAndUsers(departmentId, ids);
    const missing = ids.filter((id) => !users.has(id));
    if (missing.length > 0) {
      throw new DomainError('not-found', `Unknown users: ${missing.join(', ')}.`, { missing_user_ids: missing });
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
        targetItem: department,
        users: moving,
        audit: { resourceType: 'department', resourceId: departmentId, changes },
      });
      for (const user of moving) moved.set(user.id, userRepresentation(movedUser(user, departmentId, at)));
    }
    return ids.map((id) => moved.get(id) ?? userRepresentation(users.get(id)!));
  });
}

/** E5: every listed user leaves the department, or nothing changes (404 `not-a-member` names those that are not in it). */
export async function removeUsersFromDepartment(ctx: ChangeContext, departmentId: string, userIds: string[]): Promise<void> {
  const ids = [...new Set(userIds)];
  await withFreshRead(async () => {
    const users = await readUsers(ids);
    const outsiders = ids.filter((id) => users.get(id)?.department_id !== departmentId);
    if (outsiders.length > 0) {
      // Only to choose the right 404: members prove the department exists, so a success never reads it.
      if (!(await findDepartmentItem(departmentId))) throw notFound('Department', departmentId);
      throw notAMember(departmentId, outsiders);
    }
    await runBulkMove({
      ctx,
      target: null,
      users: ids.map((id) => users.get(id)!),
      audit: { resourceType: 'department', resourceId: departmentId, changes: { removed_user_ids: ids } },
    });
  });
}
