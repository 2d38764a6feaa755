/**
 * SCIM changes of more group members than one transaction holds
 * (lib/groups/bulk-change.ts): decided at one commit, applied in parts.
 * Failures are injected through the SDK middleware stack before the commit,
 * in it and after it (a driver that dies), and requests race the change
 * between its commit and its parts. The invariant checker, which counts a
 * change being applied ahead, runs at every stop.
 */
import { StillApplying } from '../../lib/slow-changes';
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '../../lib/db/client';
import { healGroupChanges } from '../../lib/groups/bulk-change';
import { createGroup } from '../../lib/groups/create';
import { DEFAULT_GROUP_TUNING, getGroupWithUsers, withGroupTuning } from '../../lib/groups/groups';
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
/** More additions than one transaction takes. */
const MANY = DEFAULT_GROUP_TUNING.singleTransactionMemberChanges + 5;

type Input = { TransactItems?: Array<Record<string, { Key?: { sk?: string } }>> };
type Middleware = (
  next: (args: { input: unknown }) => Promise<unknown>,
  context: { commandName?: string },
) => (args: { input: unknown }) => Promise<unknown>;
const injected: string[] = [];

function inject(middleware: Middleware) {
  const name = `inject-group-change-${injected.length}`;
  injected.push(name);
  db().middlewareStack.add(middleware as never, { step: 'initialize', name });
}

function stopInjecting() {
  for (const name of injected.splice(0)) db().middlewareStack.remove(name);
}

afterEach(() => {
  stopInjecting();
});

/** What a transaction of the protocol does, told from its keys. */
function stepOf(input: Input): 'commit' | 'part' | 'discard' | 'finish' | undefined {
  const keys = (input.TransactItems ?? []).map((item) => Object.entries(item)[0]).map(([kind, op]) => `${kind} ${op.Key?.sk}`);
  if (keys.includes('Update CHANGE')) return 'commit';
  if (keys.some((key) => key.startsWith('Delete PART#'))) return keys.length > 1 ? 'part' : 'discard';
  if (keys.includes('Delete CHANGE')) return 'discard';
  return undefined;
}

/** Runs `event` once, before the first transaction of `step`. */
function before(step: 'commit' | 'part', event: () => Promise<void>) {
  let done = false;
  inject((next, context) => async (args) => {
    if (!done && context.commandName === 'TransactWriteItemsCommand' && stepOf(args.input as Input) === step) {
      done = true;
      await event();
    }
    return next(args);
  });
}

/** Makes the transactions of the protocol's `steps` fail. */
function failSteps(...steps: Array<ReturnType<typeof stepOf>>) {
  inject((next, context) => async (args) => {
    const step = context.commandName === 'TransactWriteItemsCommand' ? stepOf(args.input as Input) : undefined;
    if (step && steps.includes(step)) throw new Error(`injected ${step} failure`);
    return next(args);
  });
}

async function users(count: number): Promise<string[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const id = unique('u');
      await createUser(admin, { id, email: `${id}@example.com`, last_name: 'Member' });
      return id;
    }),
  );
}

const addMembers = (ids: string[]) => patchOps({ op: 'Add', path: 'members', value: ids.map((value) => ({ value })) });
const memberIdsOf = async (groupId: string) => (await getGroupWithUsers(groupId)).users.map((u) => u.id).sort();
/** Items of the protocol left in the table. */
const changeItems = async () => (await scanTable()).filter((item) => String(item.pk).startsWith('GROUPCHANGE#'));
const afterLease = () => Date.now() + DEFAULT_GROUP_TUNING.changeLeaseMs + 1000;

describe('a change of more members than one transaction holds', () => {
  it('adds, removes and renames at once; the audit names everyone; nothing of the protocol is left', async () => {
    const ids = await users(MANY + 10);
    const [kept, joining] = [ids.slice(0, 10), ids.slice(10)];
    const { group } = await createGroup(admin, { name: unique('Changed '), user_ids: kept });
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
    expect(changed).toMatchObject({ name, user_count: MANY + 6, version: group.version + 1, generation: group.generation });
    expect(await memberIdsOf(group.id)).toEqual([...kept.slice(4), ...joining].sort());
    const item = await findGroupItem(group.id);
    expect(item).toMatchObject({ user_count: MANY + 6, version: group.version + 1 });
    expect(item?.change_id).toBeUndefined();
    expect(await changeItems()).toEqual([]);
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

  it('a PUT is the difference with who is there; a PUT of a few members to a large group starts a new generation', async () => {
    const ids = await users(MANY + 3);
    const { group } = await createGroup(admin, { name: unique('Replaced '), user_ids: ids.slice(0, 3) });
    const put = (members: string[]) =>
      replaceScimGroup(ctx, group.id, { schemas: [GROUP_SCHEMA], displayName: group.name, members: members.map((value) => ({ value })) });
    const grown = await put(ids.slice(2));
    expect(grown).toMatchObject({ user_count: MANY + 1, generation: group.generation });
    expect(await memberIdsOf(group.id)).toEqual(ids.slice(2).sort());
    const shrunk = await put(ids.slice(0, 2));
    expect(shrunk.user_count).toBe(2);
    expect(shrunk.generation).not.toBe(group.generation);
    expect(await memberIdsOf(group.id)).toEqual(ids.slice(0, 2).sort());
    expect(await invariantViolations()).toEqual([]);
  });

  it('an unknown user among them: 404; a stale If-Match: 412; nothing written', async () => {
    const ids = await users(MANY);
    const { group } = await createGroup(admin, { name: unique('Unchanged '), user_ids: ids.slice(0, 2) });
    await expect(patchScimGroup(ctx, group.id, addMembers([...ids.slice(2), 'nobody-here']))).rejects.toMatchObject({ status: 404 });
    await expect(patchScimGroup(ctx, group.id, addMembers(ids), group.version + 7)).rejects.toMatchObject({ status: 412 });
    expect(await findGroupItem(group.id)).toMatchObject({ version: group.version, user_count: 2 });
    expect(await memberIdsOf(group.id)).toEqual(ids.slice(0, 2).sort());
    expect(await changeItems()).toEqual([]);
    expect(await invariantViolations()).toEqual([]);
  });

  it('a commit that fails leaves the group as it was, and what was prepared is discarded', async () => {
    const ids = await users(MANY);
    const { group } = await createGroup(admin, { name: unique('Not committed ') });
    failSteps('commit');
    await expect(patchScimGroup(ctx, group.id, addMembers(ids))).rejects.toThrow(/injected commit/);
    stopInjecting();
    expect(await findGroupItem(group.id)).toMatchObject({ version: group.version, user_count: 0 });
    expect(await changeItems()).toEqual([]);
    expect(await invariantViolations()).toEqual([]);
    expect((await patchScimGroup(ctx, group.id, addMembers(ids))).user_count).toBe(MANY);
  });

  it('a driver that dies before its commit: nothing visible, the healer discards what it prepared after the lease', async () => {
    const ids = await users(MANY);
    const { group } = await createGroup(admin, { name: unique('Died preparing ') });
    failSteps('commit', 'discard');
    await expect(patchScimGroup(ctx, group.id, addMembers(ids))).rejects.toThrow(/injected commit/);
    stopInjecting();
    expect(await findGroupItem(group.id)).toMatchObject({ version: group.version, user_count: 0 });
    expect((await changeItems()).length).toBeGreaterThan(0);
    expect(await invariantViolations()).toEqual([]);
    expect(await healGroupChanges()).toBe(0); // its lease has not passed
    expect(await healGroupChanges(afterLease())).toBe(1);
    expect(await changeItems()).toEqual([]);
    expect(await memberIdsOf(group.id)).toEqual([]);
  });

  it('a driver that dies after its commit: the group is held (409) with its count ahead, and the healer finishes it', () =>
    withGroupTuning({ chunkConcurrency: 1 }, async () => {
      const [other, ...ids] = await users(MANY + 1);
      const { group } = await createGroup(admin, { name: unique('Died applying '), user_ids: ids.slice(0, 5) });
      failSteps('part');
      const removeFive = { op: 'Remove', path: 'members', value: ids.slice(0, 5).map((value) => ({ value })) };
      const add = { op: 'Add', path: 'members', value: ids.slice(5).map((value) => ({ value })) };
      // Committed: never a 5xx; the request answers that it completes in the background (lib/slow-changes.ts).
      await expect(patchScimGroup(ctx, group.id, patchOps(removeFive, add))).rejects.toBeInstanceOf(StillApplying);
      stopInjecting();
      const held = await findGroupItem(group.id);
      expect(held).toMatchObject({ user_count: MANY - 5, change_id: expect.any(String) });
      expect(await memberIdsOf(group.id)).toEqual(ids.slice(0, 5).sort()); // nothing applied yet
      expect(await invariantViolations()).toEqual([]); // the count is ahead by exactly what is left
      await expect(addUserToGroup(admin, group.id, other)).rejects.toMatchObject({ status: 409 });
      await expect(patchScimGroup(ctx, group.id, addMembers([other]))).rejects.toMatchObject({ status: 409 });

      expect(await healGroupChanges(afterLease())).toBe(1);
      expect(await memberIdsOf(group.id)).toEqual(ids.slice(5).sort());
      expect((await findGroupItem(group.id))?.change_id).toBeUndefined();
      expect(await changeItems()).toEqual([]);
      expect(await invariantViolations()).toEqual([]);
      await addUserToGroup(admin, group.id, other);
    }));

  it('users deleted between the commit and their part are left out, and the count stays exact', async () => {
    const ids = await users(MANY + 1);
    const { group } = await createGroup(admin, { name: unique('Deleted meanwhile '), user_ids: ids.slice(0, 1) });
    // One user to be added and one to be removed are deleted once the change is decided.
    before('part', async () => {
      await deleteUser(admin, ids[1]);
      await deleteUser(admin, ids[0]);
      expect(await invariantViolations()).toEqual([]);
    });
    const changed = await patchScimGroup(
      ctx,
      group.id,
      patchOps(
        { op: 'Add', path: 'members', value: ids.slice(1).map((value) => ({ value })) },
        { op: 'Remove', path: `members[value eq "${ids[0]}"]` },
      ),
    );
    expect(changed.user_count).toBe(MANY - 1);
    expect(await memberIdsOf(group.id)).toEqual(ids.slice(2).sort());
    expect(await invariantViolations()).toEqual([]);
  });

  it('a G4 before the commit makes the change read again; both hold', async () => {
    const [other, ...ids] = await users(MANY + 1);
    const { group } = await createGroup(admin, { name: unique('Raced ') });
    before('commit', async () => {
      await addUserToGroup(admin, group.id, other);
    });
    const changed = await patchScimGroup(ctx, group.id, addMembers(ids));
    expect(changed.user_count).toBe(MANY + 1);
    expect(await memberIdsOf(group.id)).toEqual([other, ...ids].sort());
    expect(await changeItems()).toEqual([]);
    expect(await invariantViolations()).toEqual([]);
  });

  it('with an If-Match, a change before the commit is 412 and nothing of the request holds', async () => {
    const [other, ...ids] = await users(MANY + 1);
    const { group } = await createGroup(admin, { name: unique('Raced with If-Match ') });
    before('commit', async () => {
      await addUserToGroup(admin, group.id, other);
    });
    await expect(patchScimGroup(ctx, group.id, addMembers(ids), group.version)).rejects.toMatchObject({ status: 412 });
    expect(await memberIdsOf(group.id)).toEqual([other]);
    expect(await changeItems()).toEqual([]);
    expect(await invariantViolations()).toEqual([]);
  });
});
