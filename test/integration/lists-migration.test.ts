/**
 * A table written by the version before the list indexes (its item shapes
 * written out here as that version wrote them: users with the department
 * and role index keys and no list attributes, departments without list
 * counters, the old per-role service counters, audit entries keyed
 * `<at>#<id>`, groups without their creation key) keeps working: its lists
 * answer the old way, exactly, until the backfill has counted and indexed
 * every item; changes made meanwhile are counted once; the backfill can stop
 * anywhere and go on, and running it again changes nothing. A table of the
 * version before the count indexes sorts departments and groups by
 * `user_count` in memory until both indexes are there and ACTIVE.
 */
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createTable, tableDefinition } from '../../infra/local/services';
import { db, tableName } from '../../lib/db/client';
import { resetConfig } from '../../lib/config';
import { COUNT_INDEXES, INDEXES, indexList, type IndexDefinition } from '../../lib/db/table';
import { forgetListsState, listStoredUsers } from '../../lib/lists/users';
import { backfillLists } from '../../lib/lists/migration';
import { newTableListsItem, readListsState } from '../../lib/store/meta';
import type { User } from '../../lib/store/users';
import { compareCodePoints, foldCase, nameSortKey } from '../../lib/text';
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

/** A table as a version before `missing` made it: every other index of this version. */
async function createTableWithout(name: string, missing: IndexDefinition[]): Promise<void> {
  await db().send(
    new CreateTableCommand(
      tableDefinition(
        name,
        indexList.filter((index) => !missing.includes(index)),
      ),
    ),
  );
}

/** Switches the service (and this process's knowledge of the migration) to another table. */
function useTable(name: string): void {
  process.env.TABLE_NAME = name;
  resetConfig();
  forgetListsState();
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

async function expectListsAgree(users: User[], queries = QUERIES) {
  for (const q of queries) {
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

    // SCIM's order (members of a department first, each part by name), walked across the end of the backfill:
    // two pages the old way now, the rest from the same cursor once the indexes answer.
    const membersFirst = (cursor?: string) =>
      listStoredUsers(
        { kind: 'all' },
        { count: 7, offset: 0, cursor, sort: { field: 'last_name', direction: 'asc' }, filters: {}, membershipFirst: true },
      );
    const scimOrder = [...now.values()]
      .map((u) => ({ id: u.id, key: `${u.department_id ? 0 : 1}${nameSortKey(u.last_name, u.id)}` }))
      .sort((a, b) => compareCodePoints(a.key, b.key))
      .map((u) => u.id);
    const scimWalk: string[] = [];
    let scimCursor: string | undefined;
    for (let page = 0; page < 2; page++) {
      const listed = await membersFirst(scimCursor);
      scimWalk.push(...listed.users.map((u) => u.id));
      scimCursor = listed.next_cursor ?? undefined;
    }

    // The backfill stops after every page of work and goes on from where it stopped.
    let runs = 0;
    for (let run = await backfillLists(0); !run.ready; run = await backfillLists(0)) runs++;
    expect(runs).toBeGreaterThan(3);
    forgetListsState();
    expect((await readListsState(true)).ready).toBe(true);
    for (; scimCursor;) {
      const listed = await membersFirst(scimCursor);
      scimWalk.push(...listed.users.map((u) => u.id));
      scimCursor = listed.next_cursor ?? undefined;
    }
    expect(scimWalk).toEqual(scimOrder);

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

describe('a table without the count indexes', () => {
  const byCount = async (path: string) => {
    const response = await api.get(path);
    expect(response.status, response.text).toBe(200);
    return response.body;
  };
  const walk = async (kind: 'departments' | 'groups', direction: 'asc' | 'desc') => {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await byCount(
        `/v2/${kind}?sort=user_count:${direction}&count=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      ids.push(...page[kind].map((item: { id: string }) => item.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return ids;
  };

  it('sorts by user_count in memory until both are ACTIVE, then reads them, with the same answers and cursors', async () => {
    // A table as the version before the count indexes made it: the other indexes, ready for the other lists.
    const fileTable = tableName();
    const oldTable = `${fileTable}-before-counts`;
    await createTableWithout(oldTable, COUNT_INDEXES);
    const { count_indexes: _, ...previousMeta } = newTableListsItem();
    await db().send(new PutCommand({ TableName: oldTable, Item: previousMeta }));
    useTable(oldTable);
    try {
      // Departments and groups with members, some of equal counts.
      for (const [i, size] of [3, 1, 0, 1, 2].entries()) {
        expect((await api.post('/v2/departments', { id: `cd${i}`, name: `Counted ${i}` })).status).toBe(201);
        const members = Array.from({ length: size }, (_, k) => `cu${i}x${k}`);
        for (const id of members) {
          expect((await api.post('/v2/users', { id, email: `${id}@example.com`, last_name: 'Counted' })).status).toBe(201);
          expect((await api.post(`/v2/departments/cd${i}/users/${id}`)).status).toBe(200);
        }
        expect((await api.post('/v2/groups', { id: `cg${i}`, name: `Counted ${i}`, user_ids: members })).status).toBe(201);
      }

      // The old way, while the indexes are missing: every sort, a prefix, and walks by cursor of 2 at a time.
      const paths = [
        '/v2/departments?sort=user_count:desc',
        '/v2/groups?sort=user_count&query=name:count',
        '/v2/departments?sort=user_count&offset=1&count=3',
      ];
      const before = await Promise.all(paths.map(byCount));
      expect(before[0].departments.map((d: { id: string }) => d.id)).toEqual(['cd0', 'cd4', 'cd1', 'cd3', 'cd2']);
      expect(before[1].groups.map((g: { id: string }) => g.id)).toEqual(['cg2', 'cg1', 'cg3', 'cg4', 'cg0']);
      expect(before[2].departments.map((d: { id: string }) => d.id)).toEqual(['cd1', 'cd3', 'cd4']);
      const walks = { desc: await walk('departments', 'desc'), asc: await walk('groups', 'asc') };
      expect(walks).toEqual({ desc: ['cd0', 'cd4', 'cd1', 'cd3', 'cd2'], asc: ['cg2', 'cg1', 'cg3', 'cg4', 'cg0'] });
      expect(await backfillLists()).toMatchObject({ ready: true, countIndexes: false });
      expect((await readListsState(true)).countIndexes).toBe(false);

      // npm start on an old data directory adds the missing indexes one at a time and waits for each; the next
      // backfill run sees them ACTIVE, and the lists read them: the same answers and walks.
      expect(await createTable(process.env.DYNAMODB_ENDPOINT!, oldTable, process.env.AWS_REGION)).toEqual(COUNT_INDEXES.map((i) => i.name));
      expect(await backfillLists()).toMatchObject({ ready: true, countIndexes: true });
      forgetListsState();
      expect(await Promise.all(paths.map(byCount))).toEqual(before);
      expect({ desc: await walk('departments', 'desc'), asc: await walk('groups', 'asc') }).toEqual(walks);
      expect(await invariantViolations()).toEqual([]);
    } finally {
      useTable(fileTable);
    }
  }, 120_000);
});

describe('a table without the inactive index', () => {
  it('merges the cells for deactivated users until the index is there and backfilled, then reads it, with the same answers', async () => {
    const fileTable = tableName();
    const oldTable = `${fileTable}-before-inactive`;
    await createTableWithout(oldTable, [INDEXES.inactiveByName]);
    const { inactive_index: _, ...previousMeta } = newTableListsItem();
    await db().send(new PutCommand({ TableName: oldTable, Item: previousMeta }));
    useTable(oldTable);
    // Which indexes the lists query.
    const read = new Set<string>();
    db().middlewareStack.add(
      (next) => async (args) => {
        const index = (args.input as { IndexName?: string }).IndexName;
        if (index) read.add(index);
        return next(args);
      },
      { step: 'initialize', name: 'indexesRead' },
    );
    try {
      const users: User[] = [];
      expect((await api.post('/v2/departments', { id: 'id0', name: 'Inactive 0' })).status).toBe(201);
      for (let i = 0; i < 24; i++) {
        const created = await api.post('/v2/users', {
          id: `iu${String(i).padStart(2, '0')}`,
          email: `iu${i}@example.com`,
          last_name: NAMES[i % NAMES.length],
          account_role: ROLES[i % 4],
          activated: i % 3 !== 0,
          ...(i % 2 ? { last_login: `2026-0${1 + (i % 9)}-12T08:00:00.000Z` } : {}),
        });
        expect(created.status, created.text).toBe(201);
        if (i % 4 === 3) users.push(created.body);
        else {
          const joined = await api.post(`/v2/departments/id0/users/${created.body.id}`);
          expect(joined.status, joined.text).toBe(200);
          users.push({ ...created.body, department_id: 'id0' });
        }
      }
      // As the previous version wrote them: no entry in the inactive index.
      for (const item of await scanTable()) {
        if (item.gsi11pk !== undefined) {
          await db().send(
            new UpdateCommand({ TableName: oldTable, Key: { pk: item.pk, sk: item.sk }, UpdateExpression: 'REMOVE gsi11pk' }),
          );
        }
      }
      const queries: ModelQuery[] = [
        { scope: 'all', sort: 'last_name', direction: 'asc', offset: 0, count: 100, activated: false },
        { scope: 'in', sort: 'last_name', direction: 'desc', offset: 1, count: 3, activated: false },
        { scope: 'id0', sort: 'last_name', direction: 'asc', offset: 0, count: 100, activated: false, roles: ['admin', 'member'] },
        { scope: 'id0', sort: 'last_name', direction: 'asc', offset: 0, count: 100, activated: false, lastLogin: 'since:2026-03-01' },
      ];
      await expectListsAgree(users, queries);
      expect(read.has(INDEXES.inactiveByName.name)).toBe(false);

      // npm start adds the index; a user deactivated meanwhile is put in it by its own change.
      expect(await createTable(process.env.DYNAMODB_ENDPOINT!, oldTable, process.env.AWS_REGION)).toEqual([INDEXES.inactiveByName.name]);
      const patched = await api.patch('/v2/users/iu01', { activated: false });
      expect(patched.status, patched.text).toBe(200);
      users[1] = patched.body;
      await expectListsAgree(users, queries);
      expect(read.has(INDEXES.inactiveByName.name)).toBe(false);

      // The backfill goes cell by cell, a page at a time, and then the lists read the index: the same answers.
      let runs = 0;
      for (let run = await backfillLists(0); !run.inactiveIndex; run = await backfillLists(0)) runs++;
      expect(runs).toBeGreaterThan(3);
      forgetListsState();
      await expectListsAgree(users, queries);
      expect(read.has(INDEXES.inactiveByName.name)).toBe(true);
      expect(await invariantViolations()).toEqual([]);
    } finally {
      db().middlewareStack.remove('indexesRead');
      useTable(fileTable);
    }
  }, 120_000);
});
