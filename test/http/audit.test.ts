/** GET /v2/audit, and the audit trail's promise: one record per applied change, none for a failed or empty one. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useApi } from '../support/api';

const api = useApi();
let run = 0;

/** Every entry of a list, walked page by page with `next_cursor` (the audit list has no offset and no total). */
async function entries(query: string, count = 1000): Promise<any[]> {
  const all: any[] = [];
  for (let cursor: string | null = null; ;) {
    const page = await api.get(`/v2/audit?count=${count}&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(page.status, page.text).toBe(200);
    expect(page.body).not.toHaveProperty('total');
    all.push(...page.body.entries);
    cursor = page.body.next_cursor;
    if (cursor === null) return all;
  }
}

describe('GET /v2/audit', () => {
  it('lists changes newest first with who, what and which operation, filtered by actor, operation and resource', async () => {
    const since = new Date().toISOString();
    const d = `a${++run}dept`;
    await api.post('/v2/departments', { id: d, name: 'Audited' });
    await api.post('/v2/users', { id: `${d}u`, email: `${d}u@example.com`, last_name: 'Audit' });
    await api.post(`/v2/departments/${d}/users/${d}u`);

    const listed = await api.get(`/v2/audit?since=${since}`);
    expect(listed.body.count).toBe(3);
    expect(listed.body.next_cursor).toBeNull();
    expect(listed.body.entries.map((e: { operation: string }) => e.operation)).toEqual(['E2', 'createUser', 'createDepartment']);
    expect(listed.body.entries[0]).toMatchObject({
      actor: 'local-admin',
      resource_type: 'department',
      resource_id: d,
      changes: { added_user_ids: [`${d}u`] },
    });
    const times = listed.body.entries.map((e: { at: string }) => e.at);
    expect([...times].sort().reverse()).toEqual(times);

    expect(await entries(`since=${since}&query=operation:E2,operation:createUser`)).toHaveLength(2);
    expect(await entries(`since=${since}&query=resource_id:${d},operation:E2`)).toHaveLength(1);
    expect(await entries(`since=${since}&query=actor:someone-else`)).toHaveLength(0);
    expect(await entries(`since=${since}&before=${listed.body.entries[0].at}`)).toHaveLength(2);
    // Page by page with the cursor: the same entries, in the same order, each once.
    const first = await api.get(`/v2/audit?since=${since}&count=1`);
    expect(first.body).toMatchObject({ count: 1 });
    expect(first.headers.get('link')).toContain('rel="next"');
    const second = await api.get(`/v2/audit?since=${since}&count=1&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.body.entries[0].id).toBe(listed.body.entries[1].id);
    expect((await entries(`since=${since}`, 1)).map((e) => e.id)).toEqual(listed.body.entries.map((e: { id: string }) => e.id));
  });

  it.each([
    'query=nope:1',
    'query=actor',
    'since=yesterday',
    'count=0',
    'sort=at',
    'since=2026-01-02T00:00:00Z&before=2026-01-01T00:00:00Z',
    'offset=1',
    'cursor=not-a-cursor',
  ])('answers 400 for %s', async (query) => {
    expect((await api.get(`/v2/audit?${query}`)).status).toBe(400);
  });

  it('is read-only for the read token and needs a token', async () => {
    expect((await api.get('/v2/audit', { token: null })).status).toBe(401);
  });
});

type Op =
  | { kind: 'createUser' | 'deleteUser'; user: number }
  | { kind: 'patchUser'; user: number }
  | { kind: 'E2' | 'E4'; user: number; department: number }
  | { kind: 'E3' | 'E5'; users: number[]; department: number }
  | { kind: 'E7'; department: number; limit: number | null };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('createUser' as const, 'deleteUser' as const, 'patchUser' as const), user: fc.nat(3) }),
  fc.record({ kind: fc.constantFrom('E2' as const, 'E4' as const), user: fc.nat(3), department: fc.nat(2) }),
  fc.record({
    kind: fc.constantFrom('E3' as const, 'E5' as const),
    users: fc.array(fc.nat(3), { minLength: 1, maxLength: 3 }),
    department: fc.nat(2),
  }),
  fc.record({ kind: fc.constant('E7' as const), department: fc.nat(2), limit: fc.option(fc.nat(2), { nil: null }) }),
);

describe('audit trail completeness', () => {
  it('holds exactly one record per applied change and none for a failed one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary, { minLength: 5, maxLength: 25 }), async (ops) => {
        const prefix = `p${++run}x`;
        const since = new Date().toISOString();
        const departments = [`${prefix}d0`, `${prefix}d1`, `${prefix}missing`];
        for (const d of departments.slice(0, 2)) expect((await api.post('/v2/departments', { id: d, name: d })).status).toBe(201);
        let applied = 2;
        const membership = new Map<string, string | null>(); // the service's answers tell where each user is
        const user = (n: number) => `${prefix}u${n}`;
        let patches = 0;
        for (const op of ops) {
          let response;
          let changed = false;
          switch (op.kind) {
            case 'createUser':
              response = await api.post('/v2/users', { id: user(op.user), email: `${user(op.user)}@example.com`, last_name: 'A' });
              if (response.status === 201) membership.set(user(op.user), null);
              changed = response.status === 201;
              break;
            case 'deleteUser':
              response = await api.delete(`/v2/users/${user(op.user)}`);
              if (response.status === 204) membership.delete(user(op.user));
              changed = response.status === 204;
              break;
            case 'patchUser':
              response = await api.patch(`/v2/users/${user(op.user)}`, { first_name: `Name${++patches}` });
              changed = response.status === 200;
              break;
            case 'E2': {
              const wasIn = membership.get(user(op.user));
              response = await api.post(`/v2/departments/${departments[op.department]}/users/${user(op.user)}`);
              changed = response.status === 200 && wasIn !== departments[op.department];
              if (response.status === 200) membership.set(user(op.user), departments[op.department]);
              break;
            }
            case 'E4':
              response = await api.delete(`/v2/departments/${departments[op.department]}/users/${user(op.user)}`);
              changed = response.status === 204;
              if (changed) membership.set(user(op.user), null);
              break;
            case 'E3': {
              const ids = op.users.map(user);
              const moving = ids.some((id) => membership.get(id) !== departments[op.department]);
              response = await api.post(`/v2/departments/${departments[op.department]}/users`, { user_ids: ids });
              changed = response.status === 200 && moving;
              if (response.status === 200) for (const id of ids) membership.set(id, departments[op.department]);
              break;
            }
            case 'E5':
              response = await api.delete(`/v2/departments/${departments[op.department]}/users`, { user_ids: op.users.map(user) });
              changed = response.status === 204;
              if (changed) for (const id of op.users.map(user)) membership.set(id, null);
              break;
            case 'E7':
              response = await api.put(`/v2/departments/${departments[op.department]}/quotas`, { name: 'users', limit: op.limit });
              changed = response.status === 200;
              break;
          }
          expect(response.status, `${op.kind}: ${response.text}`).toBeLessThan(500);
          if (changed) applied++;
        }
        const trail = await entries(`since=${since}`);
        expect(trail.filter((entry) => JSON.stringify(entry).includes(prefix))).toHaveLength(applied);
      }),
      { numRuns: 12 },
    );
  });
});
