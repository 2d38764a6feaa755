/**
 * Rule groups under races the HTTP tests cannot time: two pieces of work
 * following the same user at once, a waiting match that stops matching, an
 * index that lags, a worker told to try again. The rule worker is run by
 * hand (no background functions here), and a change is injected through the
 * SDK middleware stack at the moment a worker is about to commit.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { handler } from '../../functions/ruleWorker';
import { db } from '../../lib/db/client';
import { Update } from '../../lib/db/expression';
import { getItem, updateItem } from '../../lib/db/items';
import { transactWrite } from '../../lib/db/transact';
import { createDepartment } from '../../lib/departments/departments';
import { addUserToDepartment, removeUserFromDepartment } from '../../lib/departments/membership';
import { createGroup } from '../../lib/groups/create';
import { getGroupWithUsers } from '../../lib/groups/groups';
import { runPendingRuleWork, runRuleWork, runRuleWorkAsItComes, runStaleRuleWork } from '../../lib/groups/rule-work';
import { findGroupItem, groupKey } from '../../lib/store/groups';
import { groupRuleWorkWrite, pendingRuleWork, readRuleWork, RULE_WORK_SHARDS, ruleWorkKey } from '../../lib/store/rules';
import { createUser, deleteUser, updateUser } from '../../lib/users/commands';
import { unique } from '../support/fixtures';
import { invariantViolations } from '../support/invariants';

const admin = { actor: 'admin:test', operationId: 'test', requestId: 'test' };

type Key = { pk?: string; sk?: string };
type Input = { TransactItems?: Array<Record<string, { Key?: Key; Item?: Key }>> };
type Middleware = (
  next: (args: { input: unknown }) => Promise<unknown>,
  context: { commandName?: string },
) => (args: { input: unknown }) => Promise<unknown>;
const injected: string[] = [];

function inject(middleware: Middleware) {
  const name = `inject-rule-follow-${injected.length}`;
  injected.push(name);
  db().middlewareStack.add(middleware as never, { step: 'initialize', name });
}

afterEach(() => {
  for (const name of injected.splice(0)) db().middlewareStack.remove(name);
  delete process.env.RULE_GROUP_MAX_USERS;
});

/** Runs `event` once, before the first transaction that `matches`. */
function beforeTransaction(matches: (keys: string[]) => boolean, event: () => Promise<void>) {
  let done = false;
  inject((next, context) => async (args) => {
    if (!done && context.commandName === 'TransactWriteItemsCommand') {
      const keys = ((args.input as Input).TransactItems ?? []).map((item) => {
        const [kind, op] = Object.entries(item)[0];
        const key = op.Key ?? op.Item;
        return `${kind} ${key?.pk} ${key?.sk}`;
      });
      if (matches(keys)) {
        done = true;
        await event();
      }
    }
    return next(args);
  });
}

/** A rule join or leave of this user: its membership written with the group's count. */
const membershipOf = (userId: string) => (keys: string[]) => keys.some((key) => key.includes(userId) && key.includes('MEMBER'));

/** Runs the rule work until none is left (the maintenance sweep's way, without its minute). */
async function drain(): Promise<void> {
  for (let round = 0; round < 50; round++) {
    if ((await pendingRuleWork({ limit: 1 })).length === 0) return;
    await runPendingRuleWork();
  }
  throw new Error('rule work did not drain');
}

async function user(fields: Record<string, unknown> = {}) {
  const id = unique('u');
  await createUser(admin, { id, email: `${id}@example.com`, last_name: 'Member', ...fields } as never);
  return id;
}

async function ruleGroup(rule: string) {
  const { group } = await createGroup(admin, { name: unique('Rule '), rule } as never);
  await drain();
  return group.id;
}

/** Rule work of `n` groups that do not exist (the worker finds nothing to apply and deletes it), 1 ms apart from `from`. */
async function groupWork(n: number, from: number) {
  const work = Array.from({ length: n }, (_, i) => ({ id: unique('g'), at: new Date(from + i).toISOString() }));
  await transactWrite(work.map(({ id, at }) => groupRuleWorkWrite(id, at)));
  return work.map(({ id }) => id);
}

const membersOf = async (groupId: string) => (await getGroupWithUsers(groupId)).users.map((u) => u.id).sort();

beforeEach(() => {
  delete process.env.RULE_GROUP_MAX_USERS;
});

describe('a decision commits only on the user it was made for', () => {
  it('a join decided on a user read before it stopped matching does not commit', async () => {
    const department = (await createDepartment(admin, { id: unique('d'), name: unique('Eng ') })).id;
    const groupId = await ruleGroup(`department_id:${department},account_role:admin`);
    const u = await user({ account_role: 'admin' });
    await drain();
    await addUserToDepartment(admin, department, u);
    // The worker read U in the department and decided to join; U stops matching, and U's new work is followed to the end.
    beforeTransaction(membershipOf(u), async () => {
      await updateUser(admin, u, { account_role: 'member' } as never);
      await runRuleWork('user', u);
    });
    await runRuleWork('user', u);
    await drain();
    expect(await membersOf(groupId)).toEqual([]);
    expect(await findGroupItem(groupId)).toMatchObject({ user_count: 0, rule_status: 'current' });
    expect(await invariantViolations()).toEqual([]);
  });

  it('a leave decided on a user read before it matched again does not commit', async () => {
    const department = (await createDepartment(admin, { id: unique('d'), name: unique('Eng ') })).id;
    const groupId = await ruleGroup(`department_id:${department},account_role:admin`);
    const u = await user({ account_role: 'admin' });
    await addUserToDepartment(admin, department, u);
    await drain();
    expect(await membersOf(groupId)).toEqual([u]);
    await updateUser(admin, u, { account_role: 'member' } as never);
    beforeTransaction(membershipOf(u), async () => {
      await updateUser(admin, u, { account_role: 'admin' } as never);
      await runRuleWork('user', u);
    });
    await runRuleWork('user', u);
    await drain();
    expect(await membersOf(groupId)).toEqual([u]);
    expect(await findGroupItem(groupId)).toMatchObject({ user_count: 1, rule_status: 'current' });
    expect(await invariantViolations()).toEqual([]);
  });
});

describe('a group held at its limit becomes current again once its matches fit', () => {
  /** A rule group of a department holding three members (the limit), all matching. */
  async function fullGroup() {
    process.env.RULE_GROUP_MAX_USERS = '3';
    const department = (await createDepartment(admin, { id: unique('d'), name: unique('Full ') })).id;
    const members = [await user(), await user(), await user()];
    for (const id of members) await addUserToDepartment(admin, department, id);
    const groupId = await ruleGroup(`department_id:${department}`);
    expect(await membersOf(groupId)).toEqual([...members].sort());
    return { department, groupId, members };
  }

  async function waiting(department: string, groupId: string) {
    const id = await user();
    await addUserToDepartment(admin, department, id);
    await drain();
    expect(await findGroupItem(groupId)).toMatchObject({ rule_status: 'over_limit', user_count: 3 });
    return id;
  }

  it('when a waiting match stops matching', async () => {
    const { department, groupId, members } = await fullGroup();
    const d = await waiting(department, groupId);
    await removeUserFromDepartment(admin, department, d);
    await drain();
    expect(await findGroupItem(groupId)).toMatchObject({ rule_status: 'current', user_count: 3 });
    expect(await membersOf(groupId)).toEqual([...members].sort());
  });

  it('when a waiting match is deleted', async () => {
    const { department, groupId, members } = await fullGroup();
    const d = await waiting(department, groupId);
    await deleteUser(admin, d);
    await drain();
    expect(await findGroupItem(groupId)).toMatchObject({ rule_status: 'current', user_count: 3 });
    expect(await membersOf(groupId)).toEqual([...members].sort());
    expect(await invariantViolations()).toEqual([]);
  });

  it('when a member leaves while a join that found the group full marks it over_limit', async () => {
    const { department, groupId, members } = await fullGroup();
    const d = await user();
    await addUserToDepartment(admin, department, d);
    // The join of d found the group full; before it says over_limit, a member leaves (reading the group current).
    const isOverLimit = (keys: string[]) =>
      keys.some((k) => k.startsWith(`Update GROUP#${groupId}`)) && !keys.some((k) => k.includes('MEMBERS#'));
    beforeTransaction(isOverLimit, async () => {
      await removeUserFromDepartment(admin, department, members[0]);
      await runRuleWork('user', members[0]);
    });
    await runRuleWork('user', d);
    await drain();
    expect(await findGroupItem(groupId)).toMatchObject({ rule_status: 'current', user_count: 3 });
    expect(await membersOf(groupId)).toEqual([members[1], members[2], d].sort());
  });

  it('when a member leaves, having read the group current, just after a join that found it full marked it over_limit', async () => {
    const { department, groupId, members } = await fullGroup();
    const d = await user();
    await addUserToDepartment(admin, department, d);
    await removeUserFromDepartment(admin, department, members[0]);
    beforeTransaction(
      (keys) => keys.some((k) => k.startsWith(`Delete MEMBERS#${groupId}`) && k.includes(members[0])),
      async () => {
        await runRuleWork('user', d);
      },
    );
    await runRuleWork('user', members[0]);
    await drain();
    expect(await findGroupItem(groupId)).toMatchObject({ rule_status: 'current', user_count: 3 });
    expect(await membersOf(groupId)).toEqual([members[1], members[2], d].sort());
    expect(await invariantViolations()).toEqual([]);
  });
});

describe('applying a rule does not trust the lagging cell index', () => {
  type Found = { Items?: Array<Record<string, unknown>> };
  const idOf = (item: Record<string, unknown>) => (typeof item.id === 'string' ? item.id : (item.id as { S?: string } | undefined)?.S);
  const isCellIndexQuery = (commandName: string | undefined, input: unknown) =>
    commandName === 'QueryCommand' && (input as { IndexName?: string }).IndexName === 'gsi7';

  it('runs the verifying pass even when the first finds nothing to change', async () => {
    const department = (await createDepartment(admin, { id: unique('d'), name: unique('Lag ') })).id;
    const u = await user();
    await addUserToDepartment(admin, department, u);
    await drain();
    // The index does not show U in its cell for a moment (as if its move were just made).
    const until = Date.now() + 300;
    inject((next, context) => async (args) => {
      const output = (await next(args)) as { output: Found };
      if (isCellIndexQuery(context.commandName, args.input) && Date.now() < until) {
        output.output.Items = output.output.Items?.filter((item) => idOf(item) !== u);
      }
      return output;
    });
    const groupId = await ruleGroup(`department_id:${department}`);
    expect(await membersOf(groupId)).toEqual([u]);
    expect(await findGroupItem(groupId)).toMatchObject({ user_count: 1, rule_status: 'current' });
  });

  it('reads again the users the previous pass added, whom the index may still show as they were', async () => {
    const department = (await createDepartment(admin, { id: unique('d'), name: unique('Lag ') })).id;
    const u = await user({ account_role: 'admin' });
    await addUserToDepartment(admin, department, u);
    await drain();
    // From the moment the apply joins U, the index shows nothing new; U stops matching then, and U's work runs at once.
    let frozen = false;
    const answers = new Map<string, Found>();
    inject((next, context) => async (args) => {
      if (!isCellIndexQuery(context.commandName, args.input)) return next(args);
      const key = JSON.stringify(args.input);
      if (frozen && answers.has(key)) return { output: structuredClone(answers.get(key)), response: {} };
      const result = (await next(args)) as { output: Found };
      if (!frozen) answers.set(key, structuredClone(result.output));
      return result;
    });
    beforeTransaction(membershipOf(u), async () => {
      frozen = true;
      await updateUser(admin, u, { account_role: 'member' } as never);
      await runRuleWork('user', u);
    });
    const { group } = await createGroup(admin, { name: unique('Rule '), rule: `department_id:${department},account_role:admin` } as never);
    await runRuleWork('group', group.id);
    await drain();
    expect(await membersOf(group.id)).toEqual([]);
    expect(await findGroupItem(group.id)).toMatchObject({ user_count: 0, rule_status: 'current' });
    expect(await invariantViolations()).toEqual([]);
  });
});

describe('the shards of the pending work', () => {
  it('lists the work of every shard, oldest first, which the sweep and the local poller run to the end', async () => {
    await drain();
    const old = await groupWork(64, Date.parse('2000-01-01T00:00:00.000Z'));
    const partitions = new Set(await Promise.all(old.map(async (id) => (await getItem(ruleWorkKey('group', id)))?.gsi1pk)));
    expect([...partitions].sort()).toEqual(Array.from({ length: RULE_WORK_SHARDS }, (_, shard) => `RULEWORK#${shard}`));
    expect((await pendingRuleWork({ limit: 10 })).map((work) => work.id)).toEqual(old.slice(0, 10));
    expect((await pendingRuleWork({ limit: 100 })).map((work) => work.id)).toEqual(old);
    expect(await runStaleRuleWork(Date.now())).toBe(64);
    expect(await pendingRuleWork({ limit: 1 })).toEqual([]);
    const recent = await groupWork(16, Date.now());
    // At least: a piece the poller listed just before it finished elsewhere is found gone, and counted again.
    expect(await runRuleWorkAsItComes(20_000)).toBeGreaterThanOrEqual(16);
    expect(await Promise.all(recent.map((id) => readRuleWork('group', id)))).toEqual(recent.map(() => undefined));
    expect(await pendingRuleWork({ limit: 1 })).toEqual([]);
  }, 30_000);

  it("keeps a user's work in one shard through its changes: each change moves its entry inside it", async () => {
    const u = await user();
    const first = await getItem(ruleWorkKey('user', u));
    await updateUser(admin, u, { account_role: 'manager' } as never);
    const second = await getItem(ruleWorkKey('user', u));
    expect(second).toMatchObject({ gsi1pk: first!.gsi1pk, from_cells: [expect.stringContaining('member')] });
    expect(second!.gsi1sk).not.toEqual(first!.gsi1sk);
    await drain();
  });
});

describe('the stream handler', () => {
  it('runs only the records of rule work written, whatever else it is handed', async () => {
    const [groupId] = await groupWork(1, Date.now());
    const work = { type: { S: 'rule-work' }, subject: { S: 'group' }, subject_id: { S: groupId } };
    await handler(
      {
        Records: [
          { eventName: 'REMOVE', dynamodb: { SequenceNumber: '301', OldImage: work } },
          { eventName: 'MODIFY', dynamodb: { SequenceNumber: '302', NewImage: { ...work, type: { S: 'group' } } } },
        ],
      },
      {} as never,
    );
    expect(await readRuleWork('group', groupId)).toBeDefined();
    await handler({ Records: [{ eventName: 'INSERT', dynamodb: { SequenceNumber: '303', NewImage: work } }] }, {} as never);
    expect(await readRuleWork('group', groupId)).toBeUndefined();
  });

  /** One stream record of a group's rule work, as the mapping delivers it. */
  const recordOf = (groupId: string, sequence: string): DynamoDBStreamEvent => ({
    Records: [
      {
        eventName: 'MODIFY',
        dynamodb: { SequenceNumber: sequence, NewImage: { type: { S: 'rule-work' }, subject: { S: 'group' }, subject_id: { S: groupId } } },
      },
    ],
  });
  const hold = (groupId: string) => updateItem(groupKey(groupId), new Update().set('change_id', 'held-by-test'));
  const release = (groupId: string) => updateItem(groupKey(groupId), new Update().remove('change_id'));

  /** A rule group applied, whose rule is to be applied again while a large change holds it. */
  async function heldGroup() {
    const department = (await createDepartment(admin, { id: unique('d'), name: unique('Held ') })).id;
    const groupId = await ruleGroup(`department_id:${department}`);
    await transactWrite([groupRuleWorkWrite(groupId, new Date().toISOString())]);
    await hold(groupId);
    return groupId;
  }

  it('tries work that must wait again for a few seconds, and it is done when the group is free by then', async () => {
    const groupId = await heldGroup();
    setTimeout(() => void release(groupId), 1000);
    await handler(recordOf(groupId, '101'), {} as never);
    expect(await readRuleWork('group', groupId)).toBeUndefined();
  });

  it('leaves work that still waits in the table, for the maintenance sweep, without failing its record', async () => {
    const groupId = await heldGroup();
    await expect(handler(recordOf(groupId, '202'), {} as never)).resolves.toBeUndefined();
    expect(await readRuleWork('group', groupId)).toBeDefined();
    await release(groupId);
    await runStaleRuleWork(Date.now() + 61_000);
    expect(await readRuleWork('group', groupId)).toBeUndefined();
  }, 30_000);
});
