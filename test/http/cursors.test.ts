/**
 * Cursors: walking a list page by page by `next_cursor`
 * while users change between the pages never skips or repeats a user that
 * stayed in the list, keeps the list's order, and each page's `total` is
 * exact at the time of the page. A cursor belongs to its list: with other
 * sort or query parameters, altered, or together with an offset, it is 400.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../lib/store/users';
import { useApi } from '../support/api';
import { invariantViolations } from '../support/invariants';
import { matches, orderOf, toPath, type ModelQuery } from '../support/user-list-model';

const api = useApi();

const LAST_NAMES = ['Smith', 'smith', 'Smithers', 'Adams', 'Ådams', 'Zorro', 'Ng', 'ng', 'de la Cruz', 'Øst'];
const ROLES = ['admin', 'manager', 'member', 'guest'] as const;
const DEPARTMENTS = ['cA', 'cB'];
const LOGINS = [null, '2026-02-03T10:00:00.000Z', '2026-05-01T00:00:00.000Z', '2026-05-01T00:00:00.000Z', '2026-09-30T23:59:59.999Z'];

/** The users as the service holds them, kept in step with every change the test makes. */
const users = new Map<string, User>();
let created = 0;

async function createOne(): Promise<void> {
  const i = created++;
  const id = `c${String(i).padStart(3, '0')}`;
  const response = await api.post('/v2/users', {
    id,
    email: `${id}@example.com`,
    last_name: LAST_NAMES[i % LAST_NAMES.length],
    account_role: ROLES[i % 4],
    activated: i % 3 !== 0,
    last_login: LOGINS[i % LOGINS.length],
  });
  expect(response.status, response.text).toBe(201);
  users.set(id, response.body);
  const department = i % 3 === 2 ? null : DEPARTMENTS[i % 2];
  if (department) {
    const moved = await api.post(`/v2/departments/${department}/users/${id}`);
    expect(moved.status, moved.text).toBe(200);
    users.set(id, moved.body);
  }
}

beforeAll(async () => {
  for (const id of DEPARTMENTS) expect((await api.post('/v2/departments', { id, name: `Cursor ${id}` })).status).toBe(201);
  for (let i = 0; i < 40; i++) await createOne();
}, 120_000);

/** A change between two pages: one of the changes a list sees in real life. */
type Change =
  | { kind: 'create' }
  | { kind: 'delete'; pick: number }
  | { kind: 'patch'; pick: number; field: 'activated' | 'last_login' | 'last_name' | 'account_role'; value: number }
  | { kind: 'move'; pick: number; to: number };

const change: fc.Arbitrary<Change> = fc.oneof(
  fc.constant({ kind: 'create' as const }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('patch' as const),
    pick: fc.nat(),
    field: fc.constantFrom('activated' as const, 'last_login' as const, 'last_name' as const, 'account_role' as const),
    value: fc.nat(),
  }),
  fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), to: fc.nat() }),
);

/** Applies a change through the API, answers the id it touched. */
async function apply(c: Change): Promise<string | undefined> {
  if (c.kind === 'create') {
    await createOne();
    return `c${String(created - 1).padStart(3, '0')}`;
  }
  const ids = [...users.keys()];
  if (ids.length === 0) return undefined;
  const id = ids[c.pick % ids.length];
  if (c.kind === 'delete') {
    expect((await api.delete(`/v2/users/${id}`)).status).toBe(204);
    users.delete(id);
  } else if (c.kind === 'patch') {
    const value =
      c.field === 'activated'
        ? c.value % 2 === 0
        : c.field === 'last_login'
          ? LOGINS[c.value % LOGINS.length]
          : c.field === 'last_name'
            ? LAST_NAMES[c.value % LAST_NAMES.length]
            : ROLES[c.value % 4];
    const response = await api.patch(`/v2/users/${id}`, { [c.field]: value });
    expect(response.status, response.text).toBe(200);
    users.set(id, response.body);
  } else {
    const to = [...DEPARTMENTS, null][c.to % 3];
    const from = users.get(id)!.department_id;
    const response = to
      ? await api.post(`/v2/departments/${to}/users/${id}`)
      : from
        ? await api.delete(`/v2/departments/${from}/users/${id}`)
        : undefined;
    if (response) expect(response.status, response.text).toBeLessThan(300);
    users.set(id, { ...users.get(id)!, department_id: to });
  }
  return id;
}

/** Mostly long lists (a filter appears in about one request out of four), walked in small pages. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary, weight: 1 });
const query: fc.Arbitrary<ModelQuery> = fc.record({
  scope: fc.constantFrom('all', 'all', 'in', ...DEPARTMENTS),
  roles: sometimes(fc.subarray([...ROLES], { minLength: 1, maxLength: 3 })),
  prefixes: sometimes(fc.subarray(['sm', 'ad', 'ng', 'z', 'å'], { minLength: 1, maxLength: 2 })),
  activated: sometimes(fc.boolean()),
  // Ranges on a day's or a month's first instant (their counters answer whole) and within one (counted from the index).
  lastLogin: sometimes(
    fc.constantFrom(
      'never' as const,
      'since:2026-05-01' as const,
      'before:2026-05-01T00:00:00Z' as const,
      'since:2026-09-30T12:00:00Z' as const,
      'before:2026-05-01T00:00:00.001Z' as const,
      'since:2026-02-03' as const,
    ),
  ),
  sort: fc.constantFrom('last_name' as const, 'account_role' as const, 'activated' as const, 'last_login' as const),
  direction: fc.constantFrom('asc' as const, 'desc' as const),
  offset: fc.constant(0),
  count: fc.integer({ min: 1, max: 4 }),
});

describe('walking a list by cursor', () => {
  const walked = { pages: 0, changes: 0 };
  it('never skips or repeats a user that stayed, in order, with exact totals, while users change between pages', async () => {
    await fc.assert(
      fc.asyncProperty(query, fc.array(change, { minLength: 1, maxLength: 12 }), async (q, changes) => {
        const before = new Map(users);
        const touched = new Set<string>();
        const seen: string[] = [];
        let cursor: string | undefined;
        for (let page = 0; ; page++) {
          // A walk ends: each page starts strictly after the last (a cursor that does not move would loop for ever).
          expect(page, `pages walked: ${seen.join(' ')}`).toBeLessThanOrEqual(users.size + changes.length + 2);
          const response = await api.get(toPath(q, cursor));
          expect(response.status, response.text).toBe(200);
          // Exact at the time of the page.
          expect(response.body.total).toBe([...users.values()].filter((u) => matches(u, q)).length);
          for (const user of response.body.users as User[]) expect(matches(user, q), `${user.id} does not match`).toBe(true);
          seen.push(...response.body.users.map((u: User) => u.id));
          if (response.body.next_cursor === null) break;
          expect(response.headers.get('link')).toContain(encodeURIComponent(response.body.next_cursor).slice(0, 20));
          cursor = response.body.next_cursor;
          if (page < changes.length) {
            const id = await apply(changes[page]);
            if (id) touched.add(id);
          }
        }
        // A user that stayed: in the list from start to end, untouched by the changes.
        const stayed = [...before.values()].filter((u) => !touched.has(u.id) && matches(u, q) && users.has(u.id));
        const order = orderOf(q);
        const expected = stayed.sort(order).map((u) => u.id);
        const seenStayed = seen.filter((id) => expected.includes(id));
        expect(seenStayed, 'every user that stayed, once, in order').toEqual(expected);
        // A user whose sort field changed while the list was walked may come again at its new place; no other may.
        const untouched = seen.filter((id) => !touched.has(id));
        expect(new Set(untouched).size, 'no untouched user twice').toBe(untouched.length);
        walked.pages += Math.ceil(seen.length / q.count);
        walked.changes += Math.min(changes.length, Math.ceil(seen.length / q.count) - 1);
      }),
      { numRuns: 40 },
    );
    // The property walked long lists and changed users while it did.
    // (About 300 pages and 150 changes in 40 runs; the bounds leave room for the runs' randomness.)
    expect(walked.pages).toBeGreaterThan(150);
    expect(walked.changes).toBeGreaterThan(60);
    expect(await invariantViolations()).toEqual([]);
  }, 300_000);
});

describe('a cursor belongs to its list', () => {
  const first = async (path: string) => {
    const response = await api.get(path);
    expect(response.status, response.text).toBe(200);
    expect(response.body.next_cursor).not.toBeNull();
    return response.body.next_cursor as string;
  };

  it.each([
    ['another sort', '/v2/users?count=2&sort=last_name', '/v2/users?count=2&sort=last_login'],
    ['another direction', '/v2/users?count=2&sort=last_name', '/v2/users?count=2&sort=last_name:desc'],
    ['another query', '/v2/users?count=2&query=account_role:member', '/v2/users?count=2&query=account_role:admin'],
    ['another filter', '/v2/users?count=2&activated=true', '/v2/users?count=2&activated=false'],
    ['another list', '/v2/users?count=2', '/v2/departments/users?count=2'],
    ['another department', `/v2/departments/${DEPARTMENTS[0]}/users?count=2`, `/v2/departments/${DEPARTMENTS[1]}/users?count=2`],
  ])('is a 400 with %s', async (_, from, to) => {
    const cursor = await first(from);
    const response = await api.get(`${to}&cursor=${encodeURIComponent(cursor)}`);
    expect(response.status, response.text).toBe(400);
    expect(response.body).toMatchObject({ type: '/problems/validation', errors: [{ field: 'cursor' }] });
  });

  it('is a 400 when altered anywhere, or given with an offset', async () => {
    const cursor = await first('/v2/users?count=2');
    const [payload, check] = cursor.split('.');
    const flip = (text: string, i: number) => text.slice(0, i) + (text[i] === 'A' ? 'B' : 'A') + text.slice(i + 1);
    for (const altered of [
      flip(payload, 3),
      `${payload}.${flip(check, 5)}`,
      `${Buffer.from('[1,"zz","u0",0]').toString('base64url')}.${check}`,
      'x.y',
      payload,
    ]) {
      const response = await api.get(`/v2/users?count=2&cursor=${encodeURIComponent(altered)}`);
      expect(response.status, altered).toBe(400);
    }
    expect((await api.get(`/v2/users?count=2&offset=2&cursor=${encodeURIComponent(cursor)}`)).status).toBe(400);
    expect((await api.get('/v2/users?offset=10001')).status).toBe(400);
    expect((await api.get('/v2/users?offset=10000')).status).toBe(200);
  });

  it('takes an empty cursor as none: the first page, also beside an offset (a generated collection sends every parameter)', async () => {
    for (const path of ['/v2/users?count=2', '/v2/departments?count=2', '/v2/groups?count=2', '/v2/audit?count=2']) {
      const plain = await api.get(path);
      const empty = await api.get(`${path}&cursor=`);
      expect(empty.status, empty.text).toBe(200);
      expect(empty.body, path).toEqual(plain.body);
    }
    const withOffset = await api.get('/v2/users?count=2&offset=1&cursor=');
    expect(withOffset.status, withOffset.text).toBe(200);
    expect(withOffset.body.offset).toBe(1);
  });
});
