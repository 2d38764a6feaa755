/**
 * List semantics (paging, sort, filters, totals) checked against a plain
 * in-memory model over a fixed population with awkward names and ties.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../lib/store/users';
import { useApi } from '../support/api';
import { modelList as listOf, toPath, type ModelQuery } from '../support/user-list-model';

const modelList = (q: ModelQuery) => listOf(users, q);

const api = useApi();

const LAST_NAMES = ['smith', 'Smith', 'smith jr', 'Šmíd', 'adams', 'Adams', 'zorro', 'Ó Briain', 'de la Cruz', 'Smithson', 'ädams'];
const ROLES = ['admin', 'manager', 'member', 'guest'] as const;
const DEPARTMENTS = ['dA', 'dB', 'dC'];

let users: User[] = [];

beforeAll(async () => {
  for (const id of DEPARTMENTS) expect((await api.post('/v2/departments', { id, name: `Dept ${id}` })).status).toBe(201);
  const created: User[] = [];
  for (let i = 0; i < 44; i++) {
    const response = await api.post('/v2/users', {
      id: `u${String((i * 7) % 44).padStart(2, '0')}`,
      email: `user${i}@example.com`,
      last_name: LAST_NAMES[i % LAST_NAMES.length],
      account_role: ROLES[i % 3 === 0 ? 0 : i % 4],
      activated: i % 3 !== 1,
      last_login: i % 5 === 0 ? null : new Date(Date.UTC(2026, i % 12, 1 + (i % 27))).toISOString(),
    });
    expect(response.status, response.text).toBe(201);
    created.push(response.body);
  }
  // Two of three users join a department (E2).
  users = [];
  for (const [i, user] of created.entries()) {
    const departmentId = i % 3 === 2 ? null : DEPARTMENTS[i % DEPARTMENTS.length];
    if (departmentId) expect((await api.post(`/v2/departments/${departmentId}/users/${user.id}`)).status).toBe(200);
    users.push({ ...user, department_id: departmentId });
  }
});

describe("GET /v2/users and a department's users", () => {
  it('pages through everything in last_name order with stable ties', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 50; offset += 7) {
      const response = await api.get(`/v2/users?count=7&offset=${offset}`);
      expect(response.status).toBe(200);
      expect(response.body.total).toBe(users.length);
      expect(response.body.offset).toBe(offset);
      expect(response.body.count).toBe(response.body.users.length);
      seen.push(...response.body.users.map((u: User) => u.id));
    }
    expect(seen).toEqual(modelList({ scope: 'all', sort: 'last_name', direction: 'asc', offset: 0, count: 1000 }).ids);
  });

  it('defaults to count 100 and offset 0', async () => {
    const response = await api.get('/v2/users');
    expect(response.body).toMatchObject({ total: users.length, count: users.length, offset: 0 });
  });

  it('agrees with the model for random combinations of parameters', async () => {
    const query = fc.record(
      {
        scope: fc.constantFrom('all', 'in', ...DEPARTMENTS),
        roles: fc.subarray([...ROLES], { minLength: 1 }),
        prefixes: fc.subarray(['sm', 'ad', 'SMITH', 'z', 'ó', 'de la', 'q'], { minLength: 1, maxLength: 2 }),
        departments: fc.subarray(DEPARTMENTS, { minLength: 1 }),
        activated: fc.boolean(),
        lastLogin: fc.constantFrom('never', 'since:2026-06-01', 'before:2026-04-15T12:00:00Z', 'since:2026-03-02T00:00:00.000Z'),
        sort: fc.constantFrom('last_name', 'account_role', 'activated', 'last_login'),
        direction: fc.constantFrom('asc', 'desc'),
        offset: fc.integer({ min: 0, max: 30 }),
        count: fc.integer({ min: 1, max: 25 }),
      },
      { requiredKeys: ['scope', 'sort', 'direction', 'offset', 'count'] },
    );
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const model = modelList(q as ModelQuery);
        const response = await api.get(toPath(q as ModelQuery));
        expect(response.status, response.text).toBe(200);
        expect(response.body.users.map((u: User) => u.id)).toEqual(model.ids);
        expect(response.body.total).toBe(model.total);
      }),
      { numRuns: 120 },
    );
  });

  it('places an offset by name, in either direction, within ties and names that prefix others, and past the end', async () => {
    // Unfiltered and sorted by name: the last-name counters place the offset (lib/lists/users/skip.ts).
    const query = fc.record({
      scope: fc.constantFrom('all' as const, 'in' as const, ...DEPARTMENTS),
      sort: fc.constant('last_name' as const),
      direction: fc.constantFrom('asc' as const, 'desc' as const),
      offset: fc.integer({ min: 1, max: 50 }),
      count: fc.integer({ min: 1, max: 9 }),
    });
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const model = modelList(q);
        const response = await api.get(toPath(q));
        expect(response.status, response.text).toBe(200);
        expect(response.body.users.map((u: User) => u.id)).toEqual(model.ids);
        expect(response.body).toMatchObject({ total: model.total, offset: q.offset });
      }),
      { numRuns: 60 },
    );
  });

  it.each([
    ['sort=email', 'sort'],
    ['sort=last_name:up', 'sort'],
    ['query=shoe_size:9', 'query'],
    ['query=account_role', 'query'],
    ['query=account_role:owner', 'query'],
    ['activated=yes', 'activated'],
    ['last_login=yesterday', 'last_login'],
    ['last_login=since:not-a-date', 'last_login'],
    ['count=0', 'count'],
    ['count=1001', 'count'],
    ['offset=-1', 'offset'],
    ['colour=blue', 'query'],
  ])('answers 400 for %s', async (params) => {
    const response = await api.get(`/v2/users?${params}`);
    expect(response.status).toBe(400);
    expect(response.body.type).toBe('/problems/validation');
  });
});

describe('GET /v2/departments', () => {
  it('lists departments by name with totals, filters by name prefix and sorts by user_count', async () => {
    const all = await api.get('/v2/departments');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(DEPARTMENTS.length);
    expect(all.body.departments.map((d: { id: string }) => d.id)).toEqual(DEPARTMENTS);
    const byCount = await api.get('/v2/departments?sort=user_count:desc');
    const counts = byCount.body.departments.map((d: { user_count: number }) => d.user_count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(counts.reduce((a: number, b: number) => a + b, 0)).toBe(users.filter((u) => u.department_id).length);
    const filtered = await api.get('/v2/departments?query=name:DEPT%20Db');
    expect(filtered.body).toMatchObject({ total: 1, count: 1 });
    expect(filtered.body.departments[0].id).toBe('dB');
    const desc = await api.get('/v2/departments?sort=desc&count=2&offset=1');
    expect(desc.body.departments.map((d: { id: string }) => d.id)).toEqual(['dB', 'dA']);
    expect((await api.get('/v2/departments?sort=size')).status).toBe(400);
  });
});
