/** Creating, updating and deleting users; each is one transaction built by changes.ts (a deletion first leaves the user's groups). */
import { recordChange, type ChangeContext } from '../audit/context';
import { transactWrite, withFreshRead } from '../db/transact';
import { GROUP_LOCK_MS, leaveAllGroups, lockGroupAdditions, unlockGroupAdditions } from '../groups/members';
import { newId } from '../ids';
import { preconditionFailed } from '../problems';
import type { AccountRole } from '../schemas/enums';
import { USER_FIELDS } from '../store/users';
import { userChangeWrites, type UserChange } from './changes';
import { getUserForChange, userRepresentation, type StoredUser, type User } from './user';

export interface NewUser {
  id?: string;
  /** Only SCIM creates a user in a department (the admin API moves it with E2). */
  department_id?: string | null;
  email: string;
  last_name: string;
  first_name?: string;
  /** Defaults to the e-mail. */
  user_name?: string;
  external_id?: string | null;
  account_role?: AccountRole;
  activated?: boolean;
  last_login?: string | null;
}

export type UserPatch = Partial<
  Pick<User, 'email' | 'first_name' | 'last_name' | 'user_name' | 'external_id' | 'account_role' | 'activated' | 'last_login'>
>;

/** Commits one user change with its audit entry. */
async function commitUserChange(ctx: ChangeContext, change: UserChange, changes: Record<string, unknown>, now: string) {
  const subject = (change.after ?? change.before)!;
  await transactWrite([
    ...userChangeWrites(change, now),
    recordChange(ctx, { resourceType: 'user', resourceId: subject.id, changes }),
  ]);
}

export async function createUser(ctx: ChangeContext, input: NewUser): Promise<StoredUser> {
  const now = new Date().toISOString();
  const user: User = {
    id: input.id ?? newId(),
    user_name: input.user_name ?? input.email,
    external_id: input.external_id ?? null,
    email: input.email,
    first_name: input.first_name ?? '',
    last_name: input.last_name,
    account_role: input.account_role ?? 'member',
    activated: input.activated ?? false,
    last_login: input.last_login ?? null,
    department_id: input.department_id ?? null,
    created_at: now,
    updated_at: now,
  };
  await commitUserChange(ctx, { before: null, after: user }, { created: user }, now);
  return { ...user, version: 1 };
}

/** Field-by-field differences, as the audit trail records them. */
function differences(before: User, after: User): Record<string, { from: unknown; to: unknown }> {
  const changed: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of USER_FIELDS) {
    if (field !== 'updated_at' && before[field] !== after[field]) changed[field] = { from: before[field], to: after[field] };
  }
  return changed;
}

/**
 * PATCH of a user. A change of role or activation of a department member
 * moves that department's counters in the same transaction, under its quota
 * conditions (409 `quota-exceeded`).
 */
export async function updateUser(ctx: ChangeContext, id: string, patch: UserPatch, expectedVersion?: number): Promise<StoredUser> {
  return changeUser(ctx, id, () => patch, expectedVersion);
}

/** What a change may set: the fields of a PATCH and the department (SCIM moves a user as it changes it). */
export type UserFieldsChange = UserPatch & { department_id?: string | null };

/**
 * A change of any of a user's fields, its department included, computed
 * from the user as read: one transaction (the item, its claims, both
 * departments' counters under their quotas, the audit entry), so a move
 * over a quota changes nothing at all. Read again and recomputed when the
 * user changed meanwhile. SCIM's PUT and PATCH come here.
 */
export async function changeUser(
  ctx: ChangeContext,
  id: string,
  compute: (before: StoredUser) => UserFieldsChange | Promise<UserFieldsChange>,
  expectedVersion?: number,
): Promise<StoredUser> {
  return withFreshRead(async () => {
    const before = await getUserForChange(id);
    if (expectedVersion !== undefined && expectedVersion !== before.version) throw preconditionFailed();
    const change = await compute(before);
    const now = new Date().toISOString();
    const after: User = { ...userRepresentation(before), ...change, updated_at: now };
    const changed = differences(before, after);
    if (Object.keys(changed).length === 0) return before;
    await commitUserChange(ctx, { before, after, expectedVersion }, changed, now);
    return { ...after, version: before.version + 1 };
  });
}

/**
 * DELETE of a user. It first locks out group additions and leaves its
 * groups, in transactions of their own (a user may be in more groups than
 * one transaction holds; see lib/groups/members.ts), then is deleted, leaving
 * its department, in one transaction conditional on the version read before
 * the lock: a change since then (which drops the lock) makes it start over.
 */
export async function deleteUser(ctx: ChangeContext, id: string, expectedVersion?: number): Promise<void> {
  await withFreshRead(async () => {
    const before = await getUserForChange(id);
    // A stale If-Match fails before any membership goes.
    if (expectedVersion !== undefined && expectedVersion !== before.version) throw preconditionFailed();
    const lockedUntil = await lockGroupAdditions(before);
    try {
      await leaveAllGroups(ctx, id, lockedUntil - GROUP_LOCK_MS / 2);
      await commitUserChange(
        ctx,
        { before, after: null, expectedVersion },
        { deleted: userRepresentation(before) },
        new Date().toISOString(),
      );
    } catch (error) {
      await unlockGroupAdditions(id, lockedUntil);
      throw error;
    }
  });
}
