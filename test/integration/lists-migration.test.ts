/**
 * A table written by the version before the list indexes (its item shapes
 * written out here as that version wrote them: users with the department
 * and role index keys and no list attributes, departments without list
 * counters, the old per-role service counters, audit entries keyed
 * `<at>#<id>`, groups without their creation key) keeps working: its lists
 * answer the old way, exactly, until the backfill has counted and indexed
 * every item; changes made meanwhile are counted once; the backfill can stop
 * anywhere and go on, and running it again changes nothing.
 */
import { BatchWriteCommand, DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../lib/db/client';
import { forgetListsState } from '../../lib/lists/users';
import { backfillLists } from '../../lib/lists/migration';
import { readListsState } from '../../lib/store/meta';
import type { User } from '../../lib/store/users';
import { foldCase, nameSortKey } from '../../lib/text';
import { useApi } from '../support/api';
import { invariantViolations, scanTable } from '../support/invariants';
import { modelList, toPath, type ModelQuery } from '../support/user-list-model';

const api = useApi();
const AT = '2026-01-15T09:30:00.000Z';
const ROLES = ['admin', 'manager', 'member', 'guest'] as const;
const NAMES = ['Smith', 'Adams', 'smithers', 'Zorro', 'Ng'];

/** A user item as the previous version wrote it (lib/store/users.ts at 3a05f34). */
function previousUserItem(user: User): Record<string, unknown> {
  const sortKey = nameSortKey(user.last_name, user.id);
  const membership = user.department_id ? 'IN' : 'OUT';
  return {
    pk: `USER#${user.id}`,
    sk: 'USER',
    type: 'user',
    // That version had no user names nor external ids.
    ...Object.fromEntries(Object.entries(user).filter(([field]) => field !== 'user_name' && field !== 'external_id')),
    version: 1,
    last_name_folded: foldCase(user.last_name),
    gsi1pk: `USERS#${membership}`,
    gsi1sk: sortKey,
    gsi3pk: `ROLE#${user.account_role}#${membership}`,
    gsi3sk: sortKey,
    ...(user.department_id ? { gsi2pk: `DEPT#${user.department_id}`, gsi2sk: sortKey } : {}),
  };
}

function previousTable(): { items: Record<string, unknown>[]; users: User[] } {
  const users: User[] = Array.from({ length: 60 }, (_, i) => ({
    id: `m${String(i).padStart(2, '0')}`,
    email: `m${i}@example.com`,
    user_name: `m${i}@example.com`,
    external_id: null,
    first_name: 'Old',
    last_name: NAMES[i % NAMES.length],
    account_role: ROLES[i % 4],
    activated: i % 3 !== 0,
    last_login: i % 4 === 0 ? null : `2026-0${1 + (i % 9)}-1${i % 10}T08:00:00.000Z`,
    department_id: i % 3 === 2 ? null : `md${i % 2}`,
    created_at: AT,
    updated_at: AT,
  }));
  const items: Record<string, unknown>[] = [];
  const counters: Record<string, number> = { departments: 2 };
  for (const user of users) {
    items.push(previousUserItem(user), { pk: `EMAIL#${user.email}`, sk: 'EMAIL', type: 'email', user_id: user.id });
    const counter = `users_${user.department_id ? 'IN' : 'OUT'}_${user.account_role}`;
    counters[counter] = (counters[counter] ?? 0) + 1;
  }
  for (const id of ['md0', 'md1']) {
    const members = users.filter((u) => u.department_id === id);
    items.push({
      pk: `DEPT#${id}`,
      sk: 'DEPT',
      type: 'department',
      id,
      name: `Migrated ${id}`,
      name_folded: foldCase(`Migrated ${id}`),
      gsi1pk: 'DEPTS',
      gsi1sk: nameSortKey(`Migrated ${id}`, id),
      usage_users: members.length,
      usage_activated_users: members.filter((u) => u.activated).length,
      usage_admins: members.filter((u) => u.account_role === 'admin').length,
      usage_managers: members.filter((u) => u.account_role === 'manager').length,
      usage_guests: members.filter((u) => u.account_role === 'guest').length,
      created_at: AT,
      updated_at: AT,
      version: 1,
    });
  }
  for (let i = 0; i < 5; i++) {
    const id = `oldaudit${i}`;
    const at = `2026-01-1${i}T00:00:00.000Z`;
    items.push({
      pk: `AUDIT#${id}`,
      sk: 'AUDIT',
      type: 'audit',
      id,
      at,
      actor: 'old-admin',
      operation: 'createUser',
      request_id: 'r',
      resource_type: 'user',
      resource_id: `m0${i}`,
      changes: {},
      gsi1pk: 'AUDIT',
      gsi1sk: `${at}#${id}`,
    });
  }
  items.push({ pk: 'STATS', sk: 'SHARD#00', ...counters });
  return { items, users };
}

async function load(items: Record<string, unknown>[]) {
  for (let i = 0; i < items.length; i += 25) {
    await db().send(
      new BatchWriteCommand({ RequestItems: { [tableName()]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }),
    );
  }
}

const QUERIES: ModelQuery[] = [
  { scope: 'all', sort: 'last_name', direction: 'asc', offset: 0, count: 100 },
  { scope: 'in', sort: 'last_login', direction: 'desc', offset: 3, count: 10, activated: true },
  { scope: 'md1', sort: 'account_role', direction: 'asc', offset: 0, count: 100, lastLogin: 'since:2026-03-01' },
  { scope: 'all', sort: 'activated', direction: 'desc', offset: 5, count: 20, roles: ['admin', 'guest'], prefixes: ['smi'] },
  { scope: 'all', sort: 'last_name', direction: 'desc', offset: 0, count: 100, lastLogin: 'never' },
];

async function expectListsAgree(users: User[]) {
  for (const q of QUERIES) {
    const response = await api.get(toPath(q));
    expect(response.status, response.text).toBe(200);
    const model = modelList(users, q);
    expect(
      response.body.users.map((u: User) => u.id),
      toPath(q),
    ).toEqual(model.ids);
    expect(response.body.total, toPath(q)).toBe(model.total);
  }
}

describe('a table of the previous version', () => {
  it('answers the old way until backfilled, counts changes made meanwhile once, and is exact after', async () => {
    await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: 'META', sk: 'LISTS' } }));
    forgetListsState();
    const { items, users } = previousTable();
    await load(items);
    expect((await readListsState(true)).ready).toBe(false);

    // The old way answers exactly, by offset and by cursor.
    await expectListsAgree(users);
    const walked: string[] = [];
    for (let cursor: string | undefined; ;) {
      const page = await api.get(`/v2/users?count=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      walked.push(...page.body.users.map((u: User) => u.id));
      if (!page.body.next_cursor) break;
      cursor = page.body.next_cursor;
    }
    expect(walked).toEqual(modelList(users, { ...QUERIES[0], count: 1000 }).ids);

    // Changes meanwhile: a PATCH and a move of users the backfill has not counted, a new user, a deletion.
    const patched = await api.patch('/v2/users/m01', { activated: false, last_login: '2026-11-01T00:00:00.000Z', last_name: 'Adler' });
    expect(patched.status, patched.text).toBe(200);
    expect((await api.post('/v2/departments/md0/users/m02')).status).toBe(200);
    expect((await api.post('/v2/users', { id: 'mnew', email: 'mnew@example.com', last_name: 'Newcomer' })).status).toBe(201);
    expect((await api.delete('/v2/users/m03')).status).toBe(204);
    const now = new Map(users.map((u) => [u.id, u]));
    now.set('m01', patched.body);
    now.set('m02', { ...now.get('m02')!, department_id: 'md0' });
    now.delete('m03');
    now.set('mnew', (await api.get('/v2/users/mnew')).body);
    await expectListsAgree([...now.values()]);

    // The backfill stops after every page of work and goes on from where it stopped.
    let runs = 0;
    for (let run = await backfillLists(0); !run.ready; run = await backfillLists(0)) runs++;
    expect(runs).toBeGreaterThan(3);
    forgetListsState();
    expect((await readListsState(true)).ready).toBe(true);

    expect(await invariantViolations()).toEqual([]);
    await expectListsAgree([...now.values()]);
    // Every user of the previous version now holds its e-mail as its claimed user name (the invariants check claims).
    const userItems = (await scanTable()).filter((item) => item.type === 'user');
    expect(userItems.filter((user) => user.user_name !== user.email)).toEqual([]);
    expect((await api.post('/v2/users', { email: 'other@example.com', last_name: 'X', user_name: 'M5@example.com' })).status).toBe(409);
    const audit = await api.get('/v2/audit?query=actor:old-admin');
    expect(audit.body.entries.map((e: { id: string }) => e.id)).toEqual(['oldaudit4', 'oldaudit3', 'oldaudit2', 'oldaudit1', 'oldaudit0']);

    // Again: nothing changes.
    const before = await scanTable();
    await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: 'META', sk: 'LISTS' } }));
    while (!(await backfillLists()).ready);
    const after = await scanTable();
    const stripMeta = (all: Record<string, unknown>[]) => all.filter((item) => item.pk !== 'META');
    expect(stripMeta(after)).toEqual(stripMeta(before));
  }, 120_000);
});
