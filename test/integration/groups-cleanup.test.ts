/**
 * The multi-transaction paths of groups under failure: a G3 in parts whose
 * commit fails or whose creator dies after it, a sweep that crashes, user deletion meeting
 * memberships of a deleted group not yet swept, the lock a user deletion
 * holds against group additions, and the audit trail.
 * Failures are injected through the SDK middleware stack.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { db, tableName } from '../../lib/db/client';
import { userKey } from '../../lib/store/users';
import { deleteGroup, sweepDeletedGroups } from '../../lib/groups/cleanup';
import { createGroup } from '../../lib/groups/create';
import { addUserToGroup, removeUserFromGroup } from '../../lib/groups/members';
import { findGroupItem } from '../../lib/store/groups';
import { healGroupChanges } from '../../lib/groups/bulk-change';
import { DEFAULT_GROUP_TUNING, getGroupWithUsers, withGroupTuning } from '../../lib/groups/groups';
import { StillApplying } from '../../lib/slow-changes';
import { updateGroup } from '../../lib/groups/update';
import { createUser, deleteUser } from '../../lib/users/commands';
import { createDepartment } from '../../lib/departments/departments';
import { runPendingRuleWork } from '../../lib/groups/rule-work';
import { Problem } from '../../lib/problems';
import { invariantViolations, scanTable } from '../support/invariants';
import { unique } from '../support/fixtures';

const ctx = (operationId = 'test') => ({ actor: 'test', operationId, requestId: 'test' });
const MIDDLEWARE = 'inject-group-failure';

/** Makes the calls of `command` whose 1-based number `fails` says throw. */
function failCalls(command: string, fails: (call: number) => boolean) {
  let calls = 0;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === command && fails(++calls)) throw new Error(`injected ${command} failure`);
      return next(args);
    },
    { step: 'initialize', name: MIDDLEWARE },
  );
}

afterEach(() => {
  db().middlewareStack.remove(MIDDLEWARE);
});

async function users(count: number): Promise<string[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const id = unique('u');
      await createUser(ctx(), { id, email: `${id}@example.com`, last_name: 'Member' });
      return id;
    }),
  );
}

/** Runs the rule work until none is left (as the worker would). */
async function settleRuleWork() {
  for (let round = 0; round < 50 && (await runPendingRuleWork()) > 0; round++);
}

const itemsOfGroup = async (groupId: string) => (await scanTable()).filter((item) => item.group_id === groupId || item.id === groupId);

describe('G3 in parts under failure', () => {
  it('creates nothing when its commit fails: no group, name free, header and parts discarded', () =>
    withGroupTuning({ singleTransactionUsers: 2, chunkUsers: 2, chunkConcurrency: 1 }, async () => {
      const ids = await users(7);
      const input = { id: unique('g'), name: unique('Not committed '), user_ids: ids };
      // Call 1 writes the header and the parts, 2 is the commit.
      failCalls('TransactWriteItemsCommand', (call) => call === 2);
      await expect(createGroup(ctx(), input)).rejects.toThrow(/injected/);
      db().middlewareStack.remove(MIDDLEWARE);
      expect(await findGroupItem(input.id)).toBeUndefined();
      expect((await itemsOfGroup(input.id)).filter((item) => item.type !== 'audit')).toEqual([]);
      expect((await scanTable()).filter((item) => item.type === 'audit' && item.resource_id === input.id)).toEqual([]);
      expect(await invariantViolations()).toEqual([]);
      const again = await createGroup(ctx(), input);
      expect(again.group.user_count).toBe(7);
    }));

  it('answers a creation committed but not applied as still applying, and the healer completes it after its lease', () =>
    withGroupTuning({ singleTransactionUsers: 2, chunkUsers: 2, chunkConcurrency: 1 }, async () => {
      const ids = await users(7);
      const input = { id: unique('g'), name: unique('Dead creator '), user_ids: ids };
      // After the commit (call 2) every transaction fails: the parts, and the hand-off to the healer.
      failCalls('TransactWriteItemsCommand', (call) => call >= 3);
      await expect(createGroup(ctx(), input)).rejects.toBeInstanceOf(StillApplying);
      db().middlewareStack.remove(MIDDLEWARE);

      const { group, users: members } = await getGroupWithUsers(input.id);
      expect(group).toMatchObject({ user_count: 7, bulk_status: 'applying' });
      expect(members).toEqual([]);
      await expect(addUserToGroup(ctx(), input.id, ids[0])).rejects.toMatchObject({ slug: 'conflict' });
      await expect(createGroup(ctx(), { name: input.name })).rejects.toMatchObject({ slug: 'conflict' });
      expect(await invariantViolations()).toEqual([]);
      // A member deleted meanwhile is left out of its part, and the count follows.
      await deleteUser(ctx(), ids[0]);

      expect(await healGroupChanges()).toBe(0); // the lease has not passed
      expect(await healGroupChanges(Date.now() + DEFAULT_GROUP_TUNING.changeLeaseMs + 1000)).toBe(1);
      const healed = await getGroupWithUsers(input.id);
      expect(healed.group).toMatchObject({ user_count: 6, bulk_status: null });
      expect(healed.users.map((user) => user.id).sort()).toEqual(ids.slice(1).sort());
      expect(await invariantViolations()).toEqual([]);
      const joined = (await scanTable())
        .filter((item) => item.type === 'audit' && item.resource_id === input.id)
        .flatMap((item) => (item.changes as { added_user_ids?: string[] }).added_user_ids ?? []);
      expect(joined.sort()).toEqual([...ids].sort());
    }));
});

describe('sweepDeletedGroups', () => {
  it('survives a crash half-way and finishes when run again; runs in parallel with itself', () =>
    withGroupTuning({ inlineDeleteMembers: 0, inlineSweepMembers: 0 }, async () => {
      const ids = await users(40);
      const groups = [
        await createGroup(ctx(), { name: unique('Swept '), user_ids: ids }),
        await createGroup(ctx(), { name: unique('Swept ') }),
      ];
      for (const { group } of groups) await deleteGroup(ctx(), group.id);
      expect((await itemsOfGroup(groups[0].group.id)).filter((item) => item.type === 'group-member')).toHaveLength(40);

      failCalls('BatchWriteItemCommand', (call) => call >= 2);
      await expect(sweepDeletedGroups()).rejects.toThrow(/injected/);
      db().middlewareStack.remove(MIDDLEWARE);
      const left = await itemsOfGroup(groups[0].group.id);
      expect(left.filter((item) => item.type === 'user-group').length).toBeLessThan(40);
      expect(left.filter((item) => item.type === 'group-member')).toHaveLength(40); // the group's side goes last: found again
      expect(left.filter((item) => item.type === 'group-cleanup')).toHaveLength(1); // the marker goes last
      expect(await invariantViolations()).toEqual([]);

      const [first, second] = await Promise.all([sweepDeletedGroups(), sweepDeletedGroups()]);
      expect(first + second).toBeGreaterThanOrEqual(2);
      for (const { group } of groups) expect((await itemsOfGroup(group.id)).filter((item) => item.type !== 'audit')).toEqual([]);
      expect(await sweepDeletedGroups()).toBe(0);
      expect(await invariantViolations()).toEqual([]);
    }));

  it('lets a user with memberships of deleted, unswept groups be deleted without touching any counter', () =>
    withGroupTuning({ inlineDeleteMembers: 0, inlineSweepMembers: 0 }, async () => {
      const [u, other] = await users(2);
      const { group } = await createGroup(ctx(), { name: unique('Unswept '), user_ids: [u, other] });
      await deleteGroup(ctx(), group.id);
      await deleteUser(ctx(), u);
      const left = await itemsOfGroup(group.id);
      expect(left.some((item) => item.type === 'group')).toBe(false);
      expect(left.filter((item) => item.type === 'group-member').map((item) => item.user_id)).toEqual([other]);
      expect(await invariantViolations()).toEqual([]);
      await sweepDeletedGroups();
      expect(await invariantViolations()).toEqual([]);
    }));
});

describe('user deletion and group additions', () => {
  const setLock = (userId: string, until: number) =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: userKey(userId),
        UpdateExpression: 'SET group_lock = :until',
        ExpressionAttributeValues: { ':until': new Date(until).toISOString() },
      }),
    );

  it('refuses additions while a deletion holds the lock, accepts them once it has expired', async () => {
    const [u] = await users(1);
    const { group } = await createGroup(ctx(), { name: unique('Locked ') });
    await setLock(u, Date.now() + 60_000); // as a deletion in progress would
    await expect(addUserToGroup(ctx(), group.id, u)).rejects.toMatchObject({ slug: 'conflict' });
    await expect(createGroup(ctx(), { name: unique('Locked '), user_ids: [u] })).rejects.toMatchObject({ slug: 'conflict' });
    await setLock(u, Date.now() - 1); // as one that died long ago
    await addUserToGroup(ctx(), group.id, u);
    expect((await getGroupWithUsers(group.id)).group.user_count).toBe(1);
    expect(await invariantViolations()).toEqual([]);
  });

  it('gives the lock up when the deletion fails, leaving the user and its memberships as they were', async () => {
    const [u] = await users(1);
    const { group } = await createGroup(ctx(), { name: unique('Kept '), user_ids: [u] });
    // The membership removal is the first transaction of the deletion.
    failCalls('TransactWriteItemsCommand', (call) => call === 1);
    await expect(deleteUser(ctx(), u)).rejects.toThrow(/injected/);
    db().middlewareStack.remove(MIDDLEWARE);
    expect((await scanTable()).find((item) => item.pk === userKey(u).pk && item.sk === 'USER')?.group_lock).toBeUndefined();
    const other = await createGroup(ctx(), { name: unique('Kept '), user_ids: [u] });
    expect(other.group.user_count).toBe(1);
    expect((await getGroupWithUsers(group.id)).group.user_count).toBe(1);
    await deleteUser(ctx(), u);
    expect((await getGroupWithUsers(group.id)).group.user_count).toBe(0);
    expect(await invariantViolations()).toEqual([]);
  });

  it('has a user whose deletion fails after it left its groups join its rule groups again (its rule work)', async () => {
    const department = await createDepartment(ctx(), { name: unique('Ruled ') });
    const u = unique('u');
    await createUser(ctx(), { id: u, email: `${u}@example.com`, last_name: 'Member', department_id: department.id });
    const { group } = await createGroup(ctx(), { name: unique('Rule '), rule: `department_id:${department.id}` });
    await settleRuleWork();
    expect((await getGroupWithUsers(group.id)).users.map((member) => member.id)).toEqual([u]);
    // Call 1 takes the user out of its groups, call 2 would delete it.
    failCalls('TransactWriteItemsCommand', (call) => call === 2);
    await expect(deleteUser(ctx(), u)).rejects.toThrow(/injected/);
    db().middlewareStack.remove(MIDDLEWARE);
    await settleRuleWork();
    const after = await getGroupWithUsers(group.id);
    expect(after.users.map((member) => member.id)).toEqual([u]);
    expect(after.group.user_count).toBe(1);
    expect(await invariantViolations()).toEqual([]);
  });
});

describe('audit trail', () => {
  it('records every group change with the group as the resource and the users named', async () => {
    const [a, b] = await users(2);
    const { group } = await createGroup(ctx('G3'), { name: unique('Audited '), user_ids: [a] });
    await addUserToGroup(ctx('G4'), group.id, b);
    await removeUserFromGroup(ctx('G5'), group.id, a);
    await updateGroup(ctx('updateGroup'), group.id, { description: 'Now described' });
    await deleteUser(ctx('deleteUser'), b);
    await deleteGroup(ctx('G6'), group.id);
    const entries = (await scanTable())
      .filter((item) => item.type === 'audit' && item.resource_id === group.id)
      .sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : 0));
    expect(entries.every((entry) => entry.resource_type === 'group')).toBe(true);
    expect(entries.map((entry) => [entry.operation, entry.changes])).toEqual([
      ['G3', expect.objectContaining({ added_user_ids: [a], created: expect.objectContaining({ id: group.id }) })],
      ['G4', { added_user_ids: [b] }],
      ['G5', { removed_user_ids: [a] }],
      ['updateGroup', { description: { from: '', to: 'Now described' } }],
      ['deleteUser', { removed_user_ids: [b], reason: 'user deleted' }],
      ['G6', { deleted: true, user_count: 0 }],
    ]);
  });

  it('answers G4 on a missing user and G5 on a non-member with their own problems', async () => {
    const { group } = await createGroup(ctx(), { name: unique('Errors ') });
    await expect(addUserToGroup(ctx(), group.id, 'nobody')).rejects.toBeInstanceOf(Problem);
    await expect(removeUserFromGroup(ctx(), group.id, 'nobody')).rejects.toMatchObject({ slug: 'not-found' });
  });
});
