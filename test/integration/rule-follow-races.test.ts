/**
 * Rule groups under races the HTTP tests cannot time: two pieces of work
 * following the same user at once, a waiting match that stops matching, an
 * index that lags, a worker told to try again. The rule worker is run by
 * hand (no background functions here), and a change is injected through the
 * SDK middleware stack at the moment a worker is about to commit.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../lib/db/client';
import { createDepartment } from '../../lib/departments/departments';
import { addUserToDepartment } from '../../lib/departments/membership';
import { createGroup } from '../../lib/groups/create';
import { getGroupWithUsers } from '../../lib/groups/groups';
import { runPendingRuleWork, runRuleWork } from '../../lib/groups/rule-follow';
import { findGroupItem } from '../../lib/store/groups';
import { pendingRuleWork } from '../../lib/store/rules';
import { createUser, updateUser } from '../../lib/users/commands';
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
