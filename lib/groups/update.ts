/** PATCH /v2/groups/{id}: rename and/or re-describe a group. */
import type { ChangeContext } from '../audit/context';
import { StaleReadError } from '../db/errors';
import { transactWrite, withFreshRead, type Write } from '../db/transact';
import { preconditionFailed } from '../problems';
import { isPublished, updateGroupWrite, type StoredGroup } from '../store/groups';
import { getGroup, groupAudit, groupNotFound, identityChangeWrites } from './groups';

export interface GroupPatch {
  name?: string;
  description?: string;
  external_id?: string | null;
}

/**
 * A rename moves the name claim in the same transaction (unless only the case
 * changes). The write is conditional on the name read (so the claim released
 * is the one the group holds), and on the If-Match version when given; not on
 * the version otherwise, so that membership changes, which bump it, do not
 * make the update retry.
 */
export async function updateGroup(ctx: ChangeContext, id: string, patch: GroupPatch, expectedVersion?: number): Promise<StoredGroup> {
  return withFreshRead(async () => {
    const before = await getGroup(id);
    const after = { ...before, ...patch };
    const changes: Record<string, { from: string | null; to: string | null }> = {};
    if (after.name !== before.name) changes.name = { from: before.name, to: after.name };
    if (after.description !== before.description) changes.description = { from: before.description, to: after.description };
    if (after.external_id !== before.external_id) changes.external_id = { from: before.external_id, to: after.external_id };
    if (Object.keys(changes).length === 0) {
      if (expectedVersion !== undefined && expectedVersion !== before.version) throw preconditionFailed();
      return before;
    }
    const now = new Date().toISOString();
    const writes: Write[] = [
      updateGroupWrite(
        { id, nameBefore: before.name, name: after.name, description: after.description, external_id: after.external_id },
        now,
        expectedVersion,
        (stored) => {
          if (!isPublished(stored)) return groupNotFound(id);
          return expectedVersion !== undefined && stored.version !== expectedVersion ? preconditionFailed() : new StaleReadError();
        },
      ),
    ];
    writes.push(...identityChangeWrites(before, after));
    writes.push(groupAudit(ctx, id, changes, now));
    await transactWrite(writes);
    return { ...after, updated_at: now, version: before.version + 1 };
  });
}
