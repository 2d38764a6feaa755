/**
 * Single-user department membership: E2 (add or move) and E4 (remove). Each
 * is one transaction from lib/users/changes.ts: the user item conditional on
 * the version read, the old department's counters down, the new
 * department's up under its quota conditions and conditional on the
 * department existing.
 */
import { recordChange, type ChangeContext } from '../audit/context';
import { transactWrite, withFreshRead } from '../db/transact';
import { recordMetric } from '../metrics';
import { findDepartment } from '../store/departments';
import { userChangeWrites } from '../users/changes';
import { getUserForChange, userRepresentation, type StoredUser } from '../users/user';
import { departmentNotFound, notAMember } from './errors';
import { overagesOf, quotaExceeded, usageOf } from './quotas';

/**
 * E2: the user is in `departmentId` afterwards, having left any other
 * department in the same step. A dry run reads the department and answers
 * with the same checks (404, 409 with overages) without writing.
 */
export async function addUserToDepartment(
  ctx: ChangeContext,
  departmentId: string,
  userId: string,
  options: { dryRun?: boolean } = {},
): Promise<StoredUser> {
  return withFreshRead(async () => {
    const before = await getUserForChange(userId);
    if (before.department_id === departmentId) return before; // already a member: nothing changes
    const now = new Date().toISOString();
    const after = { ...userRepresentation(before), department_id: departmentId, updated_at: now };
    if (options.dryRun) {
      const department = await findDepartment(departmentId);
      if (!department) throw departmentNotFound(departmentId);
      const overages = overagesOf(department, usageOf(before));
      if (overages.length > 0) throw quotaExceeded(departmentId, overages);
      return { ...after, version: before.version + 1 };
    }
    const changes = { added_user_ids: [userId], ...(before.department_id ? { moved_from: { [userId]: before.department_id } } : {}) };
    await transactWrite([
      ...userChangeWrites({ before, after }, now),
      recordChange(ctx, { resourceType: 'department', resourceId: departmentId, changes }),
    ]);
    recordMetric('userMoves', 1, { Operation: 'E2' });
    return { ...after, version: before.version + 1 };
  });
}

/** E4: the user leaves `departmentId` and belongs to none. */
export async function removeUserFromDepartment(ctx: ChangeContext, departmentId: string, userId: string): Promise<void> {
  await withFreshRead(async () => {
    const before = await getUserForChange(userId);
    if (before.department_id !== departmentId) {
      // Only to choose the right 404: the write below never relies on this read.
      if (!(await findDepartment(departmentId))) throw departmentNotFound(departmentId);
      throw notAMember(departmentId, [userId]);
    }
    const now = new Date().toISOString();
    const after = { ...userRepresentation(before), department_id: null, updated_at: now };
    await transactWrite([
      ...userChangeWrites({ before, after }, now),
      recordChange(ctx, { resourceType: 'department', resourceId: departmentId, changes: { removed_user_ids: [userId] } }),
    ]);
    recordMetric('userMoves', 1, { Operation: 'E4' });
  });
}
