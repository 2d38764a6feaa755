/**
 * The bulk move protocol (lib/departments/bulk-move/) when its driver dies:
 * a crash is injected at every transaction of an E3 and an E5, and the
 * healer must finish each one all or nothing, with the counters exact at
 * every point in between.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '../../lib/db/client';
import { BULK_LEASE_MS } from '../../lib/departments/bulk-move/driver';
import { healBulkMoves } from '../../lib/departments/bulk-move/heal';
import { createDepartment } from '../../lib/departments/departments';
import { addUsersToDepartment, removeUsersFromDepartment } from '../../lib/departments/bulk-membership';
import { createUser, updateUser } from '../../lib/users/commands';
import { getUser } from '../../lib/users/user';
import { ContentionError } from '../../lib/db/errors';
import { invariantViolations, scanTable } from '../support/invariants';
import { bulkParts } from '../support/bulk-parts';
import { unique } from '../support/fixtures';

const ctx = { actor: 'test', operationId: 'E3', requestId: 'test' };

/**
 * Makes every TransactWriteItems call from the `crashAt`-th on fail, as if the
 * process had died there; or loses only the answer of the `loseAnswerOf`-th
 * (it is applied, but the caller sees an error).
 */
const crash = { crashAt: Infinity, loseAnswerOf: Infinity, calls: 0 };
db().middlewareStack.add(
  (next, context) => async (args) => {
    if (context.commandName === 'TransactWriteItemsCommand' || context.commandName === 'TransactWriteCommand') {
      crash.calls++;
      if (crash.calls >= crash.crashAt) throw new Error('injected crash');
      if (crash.calls === crash.loseAnswerOf) {
        await next(args);
        throw Object.assign(new Error('injected lost answer'), { name: 'TimeoutError' });
      }
    }
    return next(args);
  },
  { step: 'initialize', name: 'crashInjector' },
);
const crashFrom = (call: number) => Object.assign(crash, { crashAt: call, calls: 0 });
afterEach(() => Object.assign(crash, { crashAt: Infinity, loseAnswerOf: Infinity, calls: 0 }));

async function setUp(userCount: number, sourceCount: number) {
  const target = (await createDepartment(ctx, { id: unique('t'), name: unique('Target ') })).id;
  const sources: string[] = [];
  for (let i = 0; i < sourceCount; i++) sources.push((await createDepartment(ctx, { id: unique('s'), name: unique('Source ') })).id);
  const ids: string[] = [];
  for (let i = 0; i < userCount; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, userCount - i) }, async (_, j) => {
        const id = unique('u');
        await createUser(ctx, {
          id,
          email: `${id}@example.com`,
          last_name: 'Crash',
          activated: j % 2 === 0,
          account_role: j % 3 === 0 ? 'admin' : 'member',
        });
        return id;
      }),
    );
    ids.push(...batch);
  }
  for (const [i, source] of sources.entries()) {
    await addUsersToDepartment(
      ctx,
      source,
      ids.filter((_, j) => j % sourceCount === i),
    );
  }
  return { target, sources, ids };
}

const departmentsOf = async (ids: string[]) => new Set(await Promise.all(ids.map(async (id) => (await getUser(id)).department_id)));
const bulkItems = async () => (await scanTable()).filter((item) => String(item.pk).startsWith('BULK#') || item.bulk_lock);
const afterLease = () => Date.now() + BULK_LEASE_MS + 1000;

describe('a crash at any transaction of a bulk move heals all or nothing', () => {
  // 200 users from 2 departments: reserve, a hold per part (the last commits), an apply per part, finish.
  const parts = bulkParts({ users: 200, lastName: 'Crash', from: ['source0', 'source1'], target: 'target' });
  for (let call = 1; call <= 2 + 2 * parts; call++) {
    it(`E3 crashing from transaction ${call}`, async () => {
      const { target, sources, ids } = await setUp(200, 2);
      crashFrom(call);
      await expect(addUsersToDepartment(ctx, target, ids)).rejects.toThrow();
      const committed = call >= 2 + parts;
      crashFrom(Infinity);

      // Before the heal: counters are exact (reservations included), nobody is half-moved.
      expect(await invariantViolations()).toEqual([]);
      if (call > 1) expect((await bulkItems()).length).toBeGreaterThan(0);

      expect(await healBulkMoves(Date.now())).toBe(0); // the lease has not passed: the driver may still be alive
      expect(await healBulkMoves(afterLease())).toBe(call > 1 ? 1 : 0);
      expect(await bulkItems()).toEqual([]);
      expect(await invariantViolations()).toEqual([]);
      expect(await departmentsOf(ids)).toEqual(committed ? new Set([target]) : new Set(sources));
    });
  }

  it('goes ahead when the commit landed but its answer was lost', async () => {
    const { target, ids } = await setUp(200, 2);
    Object.assign(crash, { loseAnswerOf: 1 + parts, calls: 0 }); // the last hold: the commit point
    const users = await addUsersToDepartment(ctx, target, ids);
    expect(users.every((user) => user.department_id === target)).toBe(true);
    expect(await departmentsOf(ids)).toEqual(new Set([target]));
    expect(await bulkItems()).toEqual([]);
    expect(await invariantViolations()).toEqual([]);
  });

  it('E5 crashing after its commit point is rolled forward', async () => {
    const { target, ids } = await setUp(150, 1);
    await addUsersToDepartment(ctx, target, ids);
    crashFrom(2 + bulkParts({ users: 150, lastName: 'Crash', from: ['target'], target: null })); // header, the holds (the last commits), then the first apply crashes
    await expect(removeUsersFromDepartment({ ...ctx, operationId: 'E5' }, target, ids)).rejects.toThrow();
    crashFrom(Infinity);
    expect(await invariantViolations()).toEqual([]);
    expect(await healBulkMoves(afterLease())).toBe(1);
    expect(await departmentsOf(ids)).toEqual(new Set([null]));
    expect(await invariantViolations()).toEqual([]);
  });

  it('other writers wait for a held user and answer 409 conflict while it stays held', async () => {
    const { target, ids } = await setUp(120, 1);
    crashFrom(2); // reserved and crashed before the first hold completes
    await expect(addUsersToDepartment(ctx, target, ids)).rejects.toThrow();
    crashFrom(3); // reserve + first hold succeed, the second hold crashes: the first part's users stay held
    await expect(addUsersToDepartment(ctx, target, ids)).rejects.toThrow();
    crashFrom(Infinity);
    const held = (await scanTable()).find((item) => item.bulk_lock)!;
    const change = updateUser(ctx, String(held.id), { first_name: 'Changed' });
    // Held throughout the reads: lasting contention, which the API answers 409 `conflict`.
    await expect(change).rejects.toBeInstanceOf(ContentionError);

    expect(await healBulkMoves(afterLease())).toBe(2);
    expect(await bulkItems()).toEqual([]);
    const updated = await updateUser(ctx, String(held.id), { first_name: 'Changed' });
    expect(updated.first_name).toBe('Changed');
    expect(await invariantViolations()).toEqual([]);
  });
});
