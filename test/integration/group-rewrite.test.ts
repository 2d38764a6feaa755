/**
 * SCIM changes of more group members than one transaction holds
 * (lib/groups/rewrite.ts): all or nothing, under failures injected through
 * the SDK middleware stack, a writer that dies, and requests that race the
 * rewrite between its steps and its commit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '../../lib/db/client';
import { sweepDeletedGroups } from '../../lib/groups/cleanup';
import { createGroup } from '../../lib/groups/create';
import { getGroupWithUsers, groupTuning } from '../../lib/groups/groups';
import { addUserToGroup } from '../../lib/groups/members';
import { patchScimGroup, replaceScimGroup } from '../../lib/scim/groups';
import { findGroupItem } from '../../lib/store/groups';
import { createUser, deleteUser } from '../../lib/users/commands';
import { unique } from '../support/fixtures';
import { invariantViolations, scanTable } from '../support/invariants';
import { GROUP_SCHEMA, patchOps } from '../support/scim';

const ctx = { actor: 'scim:test', operationId: 'scimPatchGroup', requestId: 'test' };
/** Who sets the scene, so that the audit entries of the change under test are told apart. */
const admin = { actor: 'admin:test', operationId: 'test', requestId: 'test' };
const MIDDLEWARE = 'inject-rewrite-event';
const injected: string[] = [];
const defaultTuning = { ...groupTuning };
/** More additions than one transaction takes. */
const MANY = groupTuning.singleTransactionMemberChanges + 5;

type Middleware = (
  next: (args: { input: unknown }) => Promise<unknown>,
  context: { commandName?: string },
) => (args: { input: unknown }) => Promise<unknown>;

function inject(middleware: Middleware) {
  const name = `${MIDDLEWARE}-${injected.length}`;
  injected.push(name);
  db().middlewareStack.add(middleware as never, { step: 'initialize', name });
}

function stopInjecting() {
  for (const name of injected.splice(0)) db().middlewareStack.remove(name);
}

afterEach(() => {
  stopInjecting();
  Object.assign(groupTuning, defaultTuning);
});

async function users(count: number): Promise<string[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const id = unique('u');
      await createUser(admin, { id, email: `${id}@example.com`, last_name: 'Member' });
      return id;
    }),
  );
}

/** Runs `event` once, just before the transaction that commits a rewrite (the one that sets `next_removed` aside). */
function beforeCommit(event: () => Promise<void>) {
  let done = false;
  inject((next, context) => async (args) => {
    const input = args.input as { TransactItems?: Array<{ Update?: { UpdateExpression?: string } }> };
    const commits = input.TransactItems?.some(
      (item) =>
        /REMOVE .*#next_generation/.test(item.Update?.UpdateExpression ?? '') && /#generation =/.test(item.Update?.UpdateExpression ?? ''),
    );
    if (context.commandName === 'TransactWriteItemsCommand' && commits && !done) {
      done = true;
      await event();
    }
    return next(args);
  });
}

/** Makes the calls of `command` whose 1-based number `fails` says throw. */
function failCalls(command: string, fails: (call: number) => boolean) {
  let calls = 0;
  inject((next, context) => async (args) => {
    if (context.commandName === command && fails(++calls)) throw new Error(`injected ${command} failure`);
    return next(args);
  });
}

const addMembers = (ids: string[]) => patchOps({ op: 'Add', path: 'members', value: ids.map((value) => ({ value })) });
const memberIdsOf = async (groupId: string) => (await getGroupWithUsers(groupId)).users.map((u) => u.id).sort();
/** The group's membership items and markers, as `<type> <generation>`. */
const leftOf = async (groupId: string) =>
  (await scanTable())
    .filter((item) => item.group_id === groupId && ['group-member', 'user-group', 'group-cleanup'].includes(String(item.type)))
    .map((item) => `${item.type} ${item.generation}`);

describe('a change of more members than one transaction holds', () => {
  it('adds, removes and renames at once; the old generation is swept; the audit names everyone', async () => {
    const ids = await users(MANY + 10);
    const [kept, joining] = [ids.slice(0, 10), ids.slice(10)];
    const { group } = await createGroup(admin, { name: unique('Rewritten '), user_ids: kept });
    const name = unique('Renamed ');
    const changed = await patchScimGroup(
      ctx,
      group.id,
      patchOps(
        { op: 'Add', path: 'members', value: joining.map((value) => ({ value })) },
        { op: 'Remove', path: 'members', value: kept.slice(0, 4).map((value) => ({ value })) },
        { op: 'Replace', path: 'displayName', value: name },
      ),
    );
    expect(changed).toMatchObject({ name, user_count: MANY + 6, version: group.version + 1 });
    expect(await memberIdsOf(group.id)).toEqual([...kept.slice(4), ...joining].sort());
    const item = await findGroupItem(group.id);
    expect(item).toMatchObject({ generation: changed.generation, user_count: MANY + 6 });
    expect(item?.next_generation).toBeUndefined();
    expect((await leftOf(group.id)).every((entry) => entry.endsWith(changed.generation))).toBe(true); // the old generation is gone
    const audit = (await scanTable()).filter(
      (entry) => entry.type === 'audit' && entry.resource_id === group.id && entry.actor === ctx.actor,
    );
    expect(audit.flatMap((entry) => (entry.changes as { added_user_ids?: string[] }).added_user_ids ?? []).sort()).toEqual(
      [...joining].sort(),
    );
    expect(audit.flatMap((entry) => (entry.changes as { removed_user_ids?: string[] }).removed_user_ids ?? []).sort()).toEqual(
      kept.slice(0, 4).sort(),
    );
    expect(await invariantViolations()).toEqual([]);
  });

  it('a PUT that replaces every member by more than a transaction holds', async () => {
    const ids = await users(MANY + 3);
    const { group } = await createGroup(admin, { name: unique('Replaced '), user_ids: ids.slice(0, 3) });
    const replaced = await replaceScimGroup(ctx, group.id, {
      schemas: [GROUP_SCHEMA],
      displayName: group.name,
      members: ids.slice(2).map((value) => ({ value })),
    });
    expect(replaced.user_count).toBe(MANY + 1);
    expect(await memberIdsOf(group.id)).toEqual(ids.slice(2).sort());
    expect(await invariantViolations()).toEqual([]);
  });

  it('an unknown user among them: 404 and nothing changed; a stale If-Match: 412 before anything is written', async () => {
    const ids = await users(MANY);
    const { group } = await createGroup(admin, { name: unique('Unchanged '), user_ids: ids.slice(0, 2) });
    await expect(patchScimGroup(ctx, group.id, addMembers([...ids.slice(2), 'nobody-here']))).rejects.toMatchObject({ status: 404 });
    await expect(patchScimGroup(ctx, group.id, addMembers(ids), group.version + 7)).rejects.toMatchObject({ status: 412 });
    expect(await findGroupItem(group.id)).toMatchObject({ generation: group.generation, version: group.version, user_count: 2 });
    expect(await leftOf(group.id)).toHaveLength(4); // the two members' items, nothing of another generation
    expect((await leftOf(group.id)).every((entry) => entry.endsWith(group.generation))).toBe(true);
    expect(await invariantViolations()).toEqual([]);
  });

  it('rolls back when a step fails: the group unchanged, what was written swept', async () => {
    Object.assign(groupTuning, { chunkUsers: 8, chunkConcurrency: 1 });
    const ids = await users(MANY);
    const { group } = await createGroup(admin, { name: unique('Rolled back ') });
    // Call 1 opens the generation, 2 writes the first step, 3 fails.
    failCalls('TransactWriteItemsCommand', (call) => call === 3);
    await expect(patchScimGroup(ctx, group.id, addMembers(ids))).rejects.toThrow(/injected/);
    stopInjecting();
    const item = await findGroupItem(group.id);
    expect(item).toMatchObject({ generation: group.generation, version: group.version, user_count: 0 });
    expect(item?.next_generation).toBeUndefined();
    expect(await leftOf(group.id)).toEqual([]);
    expect(await invariantViolations()).toEqual([]);
    expect((await patchScimGroup(ctx, group.id, addMembers(ids))).user_count).toBe(MANY);
  });

  it('a writer that dies before its commit: the group unchanged, the next large change waits for the lease, the sweeper removes what it wrote', async () => {
    Object.assign(groupTuning, { chunkUsers: 8, chunkConcurrency: 1, pendingLeaseMs: 1500 });
    const ids = await users(MANY);
    const { group } = await createGroup(admin, { name: unique('Dead writer ') });
    // From the second step on nothing gets through, its roll-back included: as if the function died there.
    failCalls('TransactWriteItemsCommand', (call) => call >= 3);
    failCalls('UpdateItemCommand', () => true);
    await expect(patchScimGroup(ctx, group.id, addMembers(ids))).rejects.toThrow(/injected/);
    stopInjecting();

    const item = await findGroupItem(group.id);
    expect(item).toMatchObject({ generation: group.generation, version: group.version, user_count: 0 });
    expect(item?.next_generation).toEqual(expect.any(String));
    expect(await memberIdsOf(group.id)).toEqual([]);
    expect(await invariantViolations()).toEqual([]); // what it wrote is covered by its marker
    await expect(patchScimGroup(ctx, group.id, addMembers(ids))).rejects.toMatchObject({ status: 409 });
    expect(await sweepDeletedGroups()).toBe(0); // not due before the lease
    await new Promise((resolve) => setTimeout(resolve, groupTuning.pendingLeaseMs + 100));
    expect(await sweepDeletedGroups()).toBe(1);
    expect((await leftOf(group.id)).filter((entry) => entry.endsWith(String(item?.next_generation)))).toEqual([]);
    expect((await patchScimGroup(ctx, group.id, addMembers(ids))).user_count).toBe(MANY);
    expect(await invariantViolations()).toEqual([]);
  });

  it('a user added and deleted before the commit is not counted', async () => {
    const ids = await users(MANY);
    const { group } = await createGroup(admin, { name: unique('Deleted joiner ') });
    beforeCommit(() => deleteUser(admin, ids[0]));
    const changed = await patchScimGroup(ctx, group.id, addMembers(ids));
    expect(changed.user_count).toBe(MANY - 1);
    expect(await memberIdsOf(group.id)).toEqual(ids.slice(1).sort());
    expect(await invariantViolations()).toEqual([]);
  });

  it('a G4 between the steps and the commit makes the change start over from a fresh read: both hold', async () => {
    const [other, ...ids] = await users(MANY + 1);
    const { group } = await createGroup(admin, { name: unique('Raced ') });
    beforeCommit(async () => {
      await addUserToGroup(admin, group.id, other);
    });
    const changed = await patchScimGroup(ctx, group.id, addMembers(ids));
    expect(changed.user_count).toBe(MANY + 1);
    expect(await memberIdsOf(group.id)).toEqual([other, ...ids].sort());
    expect(new Set((await leftOf(group.id)).map((entry) => entry.split(' ')[1]))).toEqual(new Set([changed.generation]));
    expect(await invariantViolations()).toEqual([]);
  });

  it('with an If-Match, a change between the read and the commit is 412 and nothing of the request holds', async () => {
    const [other, ...ids] = await users(MANY + 1);
    const { group } = await createGroup(admin, { name: unique('Raced with If-Match ') });
    beforeCommit(async () => {
      await addUserToGroup(admin, group.id, other);
    });
    await expect(patchScimGroup(ctx, group.id, addMembers(ids), group.version)).rejects.toMatchObject({ status: 412 });
    expect(await memberIdsOf(group.id)).toEqual([other]);
    expect(await invariantViolations()).toEqual([]);
  });
});
