/**
 * Slow changes (lib/slow-changes.ts): a change that would outlast its request answers 202 before the request's time
 * runs out, completes in the background, and is never answered with a 5xx once committed.
 *
 * The route handlers run in this process, each call with an answer window of WINDOW_MS (withAnswerWindow) instead of
 * its function's 28 s less the margin, and one transaction is held in the SDK client's middleware for HOLD_MS, well
 * past the window: a G3's commit, the first part of an E3 after its commit, a G6's sweep of memberships.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { db, tableName } from '../../lib/db/client';
import { sweepDeletedGroups } from '../../lib/groups/cleanup';
import { withAnswerWindow } from '../../lib/slow-changes';
import { directUsers as directUsersInto } from '../support/measure/dataset';
import { useApi } from '../support/api';
import { auditSince, createDepartment, unique } from '../support/fixtures';
import { invariantViolations } from '../support/invariants';

const WINDOW_MS = 3_000;
const HOLD_MS = 8_000;
/** An E3's window: its ~23 hold transactions must commit within it on a loaded machine, its held part outlast it. */
const MOVE_WINDOW_MS = 12_000;
const MOVE_HOLD_MS = 20_000;

/** The call to hold: the first of `command` that `matches` (after `after` matched one, when given). */
let hold:
  | {
      command: RegExp;
      matches: (input: any) => boolean;
      after?: (input: any) => boolean;
      armed?: boolean;
      done?: boolean;
      ms?: number;
    }
  | undefined;
let windowMs = WINDOW_MS;
type Client = { middlewareStack: { add: (...args: any[]) => void } };
(db() as unknown as Client).middlewareStack.add(
  (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: { input: any }) => {
    const held = hold;
    if (held && !held.done && held.command.test(context.commandName ?? '')) {
      if (held.after && !held.armed) {
        if (held.after(args.input)) held.armed = true;
      } else if (held.matches(args.input)) {
        held.done = true;
        await new Promise((resolve) => setTimeout(resolve, held.ms ?? HOLD_MS));
      }
    }
    return next(args);
  },
  { step: 'initialize', name: 'hold-a-call' },
);
afterEach(() => {
  hold = undefined;
  windowMs = WINDOW_MS;
});

const api = useApi({
  inProcess: { because: 'injects faults through the SDK client', around: (call) => withAnswerWindow(windowMs, call) },
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The input as the document client has it, or already marshalled. */
const plain = (value: any) => value?.S ?? value;
const auditPutOf = (resourceId: string) => (input: any) =>
  (input?.TransactItems ?? []).some(
    (item: any) => plain(item.Put?.Item?.type) === 'audit' && plain(item.Put?.Item?.resource_id) === resourceId,
  );

const directUsers = (prefix: string, count: number) => directUsersInto(tableName(), prefix, count);

/** The invariant checker's findings, but for the claims that users written straight into the table do not have. */
const violations = async () => (await invariantViolations()).filter((line) => !/^0 (email|user_name) claims for/.test(line));

/** Polls `read` until `done` holds of its answer, for at most `ms`. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await sleep(250);
  }
}

describe('slow changes', () => {
  it('answers a G3 of 1,000 users whose commit is held 202 before the deadline; the group then completes, every join audited once', async () => {
    const ids = await directUsers(unique('slow'), 1000);
    const id = unique('g');
    const since = new Date().toISOString();
    hold = { command: /^TransactWrite/, matches: auditPutOf(id) };
    const key = { headers: { 'idempotency-key': unique('key-') } };
    const body = { id, name: unique('Slow '), user_ids: ids };

    const started = Date.now();
    const answer = await api.post('/v2/groups', body, key);
    const took = Date.now() - started;
    expect(answer.status, answer.text).toBe(202);
    expect(answer.body).toEqual({ status: 'applying', resource: `/v2/groups/${id}` });
    expect(answer.headers.get('location')).toBe(`/v2/groups/${id}`);
    expect(took, 'answered within its window, while the commit was still held').toBeLessThan(HOLD_MS);
    // Still held: a repeat with the same key answers the same 202.
    expect((await api.post('/v2/groups', body, key)).status).toBe(202);

    const done = await until(
      () => api.get(`/v2/groups/${id}`),
      (group) => group.status === 200 && group.body.bulk_status === null,
    );
    expect(done.body).toMatchObject({ id, user_count: 1000, bulk_status: null });
    const repeat = await api.post('/v2/groups', body, key);
    expect(repeat.status, repeat.text).toBe(201);
    expect(repeat.body).toMatchObject({ id, user_count: 1000, bulk_status: null });
    expect(repeat.body.users).toHaveLength(1000);

    const joins = (await auditSince(api, since))
      .filter((entry) => entry.resource_id === id)
      .flatMap((entry) => entry.changes.added_user_ids ?? []);
    expect(joins).toHaveLength(1000);
    expect(new Set(joins)).toEqual(new Set(ids));
    expect(await violations()).toEqual([]);
  }, 120_000);

  it('answers an E3 of 1,000 users whose parts outlast the request 202 naming the department; the move then completes', async () => {
    const ids = await directUsers(unique('slowmv'), 1000);
    const department = await createDepartment(api);
    // The commit is the hold that writes the move's audit entry; the first part applied after it is held.
    hold = { command: /^TransactWrite/, after: auditPutOf(department), matches: () => true, ms: MOVE_HOLD_MS };
    windowMs = MOVE_WINDOW_MS;
    const key = { headers: { 'idempotency-key': unique('key-') } };

    const answer = await api.post(`/v2/departments/${department}/users`, { user_ids: ids }, key);
    expect(answer.status, answer.text).toBe(202);
    expect(answer.body).toEqual({ status: 'applying', resource: `/v2/departments/${department}` });

    const repeat = await until(
      () => api.post(`/v2/departments/${department}/users`, { user_ids: ids }, key),
      (read) => read.status === 200,
    );
    expect(repeat.status, repeat.text).toBe(200);
    expect(repeat.body.users.map((user: any) => user.id)).toEqual(ids);
    expect(repeat.body.users.every((user: any) => user.department_id === department)).toBe(true);
    expect(await violations()).toEqual([]);
  }, 120_000);

  it('answers a G6 whose sweep of memberships outlasts the request 204; the sweeper removes the rest', async () => {
    const ids = await directUsers(unique('slowdel'), 200);
    const created = await api.post('/v2/groups', { name: unique('Deleted slowly '), user_ids: ids });
    expect(created.status, created.text).toBe(201);
    hold = { command: /^BatchWrite/, matches: () => true };

    const started = Date.now();
    const answer = await api.delete(`/v2/groups/${created.body.id}`);
    expect(answer.status, answer.text).toBe(204);
    expect(Date.now() - started).toBeLessThan(HOLD_MS);
    expect((await api.get(`/v2/groups/${created.body.id}`)).status).toBe(404);
    await sleep(HOLD_MS);
    await sweepDeletedGroups();
    expect(await violations()).toEqual([]);
  }, 60_000);
});
