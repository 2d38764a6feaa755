/**
 * GET /v2/departments and GET /v2/groups (sort fields `name`,
 * `created_at`, `user_count`, either direction, ties by id ascending; query
 * attribute `name`, a case-insensitive prefix; offset or cursor) against an
 * in-memory model: every combination of parameters, and cursor walks while
 * members come and go between the pages, so that `user_count` (the count
 * indexes' sort key) changes under the walk.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareCodePoints, foldCase } from '../../lib/text';
import { useApi } from '../support/api';
import { invariantViolations } from '../support/invariants';

const api = useApi();

type Kind = 'departments' | 'groups';
type Field = 'name' | 'created_at' | 'user_count';

interface Named {
  id: string;
  name: string;
  user_count: number;
  created_at: string;
}

interface NamedQuery {
  kind: Kind;
  sort: Field;
  direction: 'asc' | 'desc';
  prefixes?: string[];
  offset: number;
  count: number;
}

/** Names with ties once folded, prefixes of one another and non-ASCII letters. */
const NAMES = ['Alpha', 'alpha', 'Alphabet', 'beta', 'Beta team', 'Ärger', 'ärger', 'zulu', 'Zeta', 'al', 'B', 'Ωmega'];
const PREFIXES = ['al', 'ALPHA', 'b', 'är', 'z', 'ω', 'nomatch'];

/** What the service holds, kept in step with every change the test makes; members by user id. */
const model: Record<Kind, Map<string, Named & { members: Set<string> }>> = { departments: new Map(), groups: new Map() };
const userIds: string[] = [];
/** Each user's department (a user is in at most one). */
const departmentOf = new Map<string, string | null>();

const matches = (item: Named, prefixes: string[] | undefined) =>
  !prefixes || prefixes.some((p) => foldCase(item.name).startsWith(foldCase(p)));

function order(q: Pick<NamedQuery, 'sort' | 'direction'>) {
  const sign = q.direction === 'desc' ? -1 : 1;
  const field = (item: Named): string | number =>
    q.sort === 'name' ? foldCase(item.name) : q.sort === 'created_at' ? item.created_at : item.user_count;
  return (a: Named, b: Named) => {
    const x = field(a);
    const y = field(b);
    const byField = typeof x === 'number' ? x - (y as number) : compareCodePoints(x, y as string);
    return sign * byField || compareCodePoints(a.id, b.id);
  };
}

function modelPage(q: NamedQuery): { ids: string[]; total: number } {
  const all = [...model[q.kind].values()].filter((item) => matches(item, q.prefixes)).sort(order(q));
  return { ids: all.slice(q.offset, q.offset + q.count).map((item) => item.id), total: all.length };
}

function toPath(q: NamedQuery, cursor?: string): string {
  const params = [`count=${q.count}`, `sort=${q.sort}:${q.direction}`];
  if (q.prefixes) params.push(`query=${q.prefixes.map((p) => `name:${encodeURIComponent(p)}`).join(',')}`);
  params.push(cursor ? `cursor=${encodeURIComponent(cursor)}` : `offset=${q.offset}`);
  return `/v2/${q.kind}?${params.join('&')}`;
}

async function createDepartment(i: number) {
  const id = `nd${String((i * 5) % 13).padStart(2, '0')}x${i}`;
  const response = await api.post('/v2/departments', { id, name: NAMES[i % NAMES.length] });
  expect(response.status, response.text).toBe(201);
  model.departments.set(id, { ...response.body, members: new Set() });
}

async function createGroup(i: number, members: string[]) {
  const id = `ng${String((i * 7) % 11).padStart(2, '0')}x${i}`;
  const response = await api.post('/v2/groups', { id, name: `${NAMES[i % NAMES.length]} ${i}`, user_ids: members });
  expect(response.status, response.text).toBe(201);
  model.groups.set(id, { ...response.body, members: new Set(members) });
}

/** Moves a user into a department (E2) or out of its own (E4). */
async function moveUser(userId: string, to: string | null) {
  const from = departmentOf.get(userId) ?? null;
  if (from === to) return;
  const response = to
    ? await api.post(`/v2/departments/${to}/users/${userId}`)
    : await api.delete(`/v2/departments/${from}/users/${userId}`);
  expect(response.status, response.text).toBeLessThan(300);
  if (from) {
    const department = model.departments.get(from)!;
    department.members.delete(userId);
    department.user_count--;
  }
  if (to) {
    const department = model.departments.get(to)!;
    department.members.add(userId);
    department.user_count++;
  }
  departmentOf.set(userId, to);
}

/** Adds a user to a group (G4) or removes it (G5). */
async function toggleMember(groupId: string, userId: string) {
  const group = model.groups.get(groupId)!;
  if (group.members.has(userId)) {
    expect((await api.delete(`/v2/groups/${groupId}/users/${userId}`)).status).toBe(204);
    group.members.delete(userId);
    group.user_count--;
  } else {
    const response = await api.post(`/v2/groups/${groupId}/users/${userId}`);
    expect(response.status, response.text).toBe(200);
    group.members.add(userId);
    group.user_count++;
  }
}

beforeAll(async () => {
  for (let i = 0; i < 24; i++) {
    const id = `nu${String(i).padStart(2, '0')}`;
    const response = await api.post('/v2/users', { id, email: `${id}@example.com`, last_name: `Named ${i}` });
    expect(response.status, response.text).toBe(201);
    userIds.push(id);
    departmentOf.set(id, null);
  }
  for (let i = 0; i < 16; i++) await createDepartment(i);
  // Members in skewed numbers: several departments of equal size (ties by id), many empty ones.
  const departments = [...model.departments.keys()];
  for (const [i, userId] of userIds.entries()) if (i % 4 !== 3) await moveUser(userId, departments[[0, 0, 0, 1, 1, 2, 3, 4][i % 8]]);
  for (let i = 0; i < 14; i++) await createGroup(i, userIds.slice(0, [0, 1, 1, 2, 3, 0, 5][i % 7]));
}, 120_000);

const field = fc.constantFrom<Field>('name', 'created_at', 'user_count');
const query: fc.Arbitrary<NamedQuery> = fc.record({
  kind: fc.constantFrom<Kind>('departments', 'groups'),
  sort: fc.oneof({ arbitrary: fc.constant<Field>('user_count'), weight: 2 }, { arbitrary: field, weight: 2 }),
  direction: fc.constantFrom('asc' as const, 'desc' as const),
  prefixes: fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 2 },
    { arbitrary: fc.subarray(PREFIXES, { minLength: 1, maxLength: 2 }), weight: 1 },
  ),
  offset: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20 })),
  count: fc.integer({ min: 1, max: 8 }),
});

describe('GET /v2/departments and GET /v2/groups', () => {
  it('agree with the model for random combinations of sort, direction, prefixes, offset and count', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const response = await api.get(toPath(q));
        expect(response.status, response.text).toBe(200);
        const expected = modelPage(q);
        const items = response.body[q.kind] as Named[];
        expect(
          items.map((item) => item.id),
          toPath(q),
        ).toEqual(expected.ids);
        expect(response.body.total, toPath(q)).toBe(expected.total);
        expect(response.body.offset).toBe(q.offset);
        for (const item of items) expect(item.user_count, item.id).toBe(model[q.kind].get(item.id)!.user_count);
        // A page followed by its cursor is the same as the next offset.
        if (response.body.next_cursor) {
          const next = await api.get(toPath(q, response.body.next_cursor));
          expect(next.status, next.text).toBe(200);
          expect(next.body[q.kind].map((item: Named) => item.id)).toEqual(modelPage({ ...q, offset: q.offset + q.count }).ids);
          expect(next.body.offset).toBe(q.offset + items.length);
        } else expect(q.offset + items.length).toBeGreaterThanOrEqual(expected.total);
      }),
      { numRuns: 120 },
    );
  }, 300_000);

  it.each([
    ['departments', 'asc'],
    ['departments', 'desc'],
    ['groups', 'asc'],
    ['groups', 'desc'],
  ] as const)('walks %s by user_count %s to the end by cursor, at any page size', async (kind, direction) => {
    for (const count of [1, 2, 3, 5, 100]) {
      const q: NamedQuery = { kind, sort: 'user_count', direction, offset: 0, count };
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const response = await api.get(toPath(q, cursor));
        expect(response.status, response.text).toBe(200);
        seen.push(...response.body[kind].map((item: Named) => item.id));
        cursor = response.body.next_cursor ?? undefined;
      } while (cursor);
      expect(seen, `count=${count}`).toEqual(modelPage({ ...q, count: 1000 }).ids);
    }
  });
});

/** A change between two pages of a walk: a membership that moves a count, or a new department or group. */
type Change = { kind: 'move'; user: number; to: number } | { kind: 'member'; group: number; user: number } | { kind: 'create'; of: Kind };

const change: fc.Arbitrary<Change> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('move' as const), user: fc.nat(), to: fc.nat() }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('member' as const), group: fc.nat(), user: fc.nat() }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('create' as const), of: fc.constantFrom<Kind>('departments', 'groups') }), weight: 1 },
);

let extra = 100;
/** Applies a change through the API; answers the departments or groups whose place in the order it moved. */
async function apply(c: Change): Promise<string[]> {
  if (c.kind === 'create') {
    const i = extra++;
    if (c.of === 'departments') await createDepartment(i);
    else await createGroup(i, []);
    return [];
  }
  const userId = userIds[c.user % userIds.length];
  if (c.kind === 'move') {
    const departments = [...model.departments.keys()];
    const to = c.to % 3 === 0 ? null : departments[c.to % departments.length];
    const from = departmentOf.get(userId) ?? null;
    await moveUser(userId, to);
    return [from, to].filter((id): id is string => id !== null);
  }
  const groups = [...model.groups.keys()];
  const groupId = groups[c.group % groups.length];
  await toggleMember(groupId, userId);
  return [groupId];
}

describe('walking a named list by cursor while counts change', () => {
  it('never skips or repeats one whose count stayed, in order, with exact totals', async () => {
    let changed = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Kind>('departments', 'groups'),
        fc.constantFrom('asc' as const, 'desc' as const),
        fc.option(fc.constantFrom<string[]>(['al'], ['b', 'z']), { nil: undefined }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(change, { minLength: 1, maxLength: 10 }),
        async (kind, direction, prefixes, count, changes) => {
          const q: NamedQuery = { kind, sort: 'user_count', direction, prefixes, offset: 0, count };
          const before = new Map([...model[kind]].map(([id, item]) => [id, { ...item }]));
          const touched = new Set<string>();
          const seen: string[] = [];
          let cursor: string | undefined;
          for (let page = 0; ; page++) {
            expect(page, `pages walked: ${seen.join(' ')}`).toBeLessThanOrEqual(model[kind].size + changes.length + 2);
            const response = await api.get(toPath(q, cursor));
            expect(response.status, response.text).toBe(200);
            expect(response.body.total).toBe([...model[kind].values()].filter((item) => matches(item, prefixes)).length);
            seen.push(...response.body[kind].map((item: Named) => item.id));
            if (response.body.next_cursor === null) break;
            cursor = response.body.next_cursor;
            if (page < changes.length) {
              for (const id of await apply(changes[page])) touched.add(id);
              changed++;
            }
          }
          // One that stayed: there from start to end with the same count.
          const stayed = [...before.values()].filter((item) => !touched.has(item.id) && matches(item, prefixes));
          const expected = stayed.sort(order(q)).map((item) => item.id);
          expect(
            seen.filter((id) => expected.includes(id)),
            'every one whose count stayed, once, in order',
          ).toEqual(expected);
          const untouched = seen.filter((id) => !touched.has(id));
          expect(new Set(untouched).size, 'none whose count stayed twice').toBe(untouched.length);
        },
      ),
      { numRuns: 40 },
    );
    expect(changed).toBeGreaterThan(40);
    expect(await invariantViolations()).toEqual([]);
  }, 300_000);
});
