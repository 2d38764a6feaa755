/** E3 and E5 through HTTP: every membership rule for bulk requests (docs/concurrency.md). */
import { describe, expect, it } from 'vitest';
import { scanTable, invariantViolations } from '../support/invariants';
import { useApi } from '../support/api';
import { createDepartment, unique } from '../support/fixtures';

const api = useApi();

const department = (limits: Record<string, number> = {}) => createDepartment(api, limits);

async function users(count: number, fields: Record<string, unknown> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 25) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(25, count - start) }, async () => {
        const id = unique('u');
        const response = await api.post('/v2/users', { id, email: `${id}@example.com`, last_name: 'Bulk', ...fields });
        expect(response.status, response.text).toBe(201);
        return id;
      }),
    );
    ids.push(...batch);
  }
  return ids;
}

const departmentOf = async (userId: string) => (await api.get(`/v2/users/${userId}`)).body.department_id;
const userCount = async (departmentId: string) => (await api.get(`/v2/departments/${departmentId}`)).body.user_count;
const usage = async (departmentId: string) =>
  Object.fromEntries(
    (await api.get(`/v2/departments/${departmentId}/quotas`)).body.quotas.map((q: { name: string; usage: number }) => [q.name, q.usage]),
  );
const openBulkItems = async () => (await scanTable()).filter((item) => String(item.pk).startsWith('BULK#') || item.bulk_lock);

describe('E3 POST /v2/departments/{department_id}/users', () => {
  it('adds every user, answers them in request order with repeats ignored, and moves users from other departments', async () => {
    const [from, to] = [await department(), await department()];
    const [a, b, c] = await users(3, { account_role: 'admin', activated: true });
    expect((await api.post(`/v2/departments/${from}/users/${b}`)).status).toBe(200);
    expect((await api.post(`/v2/departments/${to}/users/${c}`)).status).toBe(200);

    const response = await api.post(`/v2/departments/${to}/users.json`, { user_ids: [b, a, b, c] });
    expect(response.status, response.text).toBe(200);
    expect(response.body.users.map((u: { id: string }) => u.id)).toEqual([b, a, c]);
    expect(response.body.users.every((u: { department_id: string }) => u.department_id === to)).toBe(true);
    expect(response.body.users[0]).toEqual((await api.get(`/v2/users/${b}`)).body);
    expect(await userCount(from)).toBe(0);
    expect(await usage(to)).toMatchObject({ users: 3, admins: 3, activated_users: 3, seats: 3 });
    expect(await invariantViolations()).toEqual([]);
  });

  it('answers 404 not-found for an unknown department, and with missing_user_ids for unknown users, changing nothing', async () => {
    const d = await department();
    const [a] = await users(1);
    const noDepartment = await api.post('/v2/departments/nope/users', { user_ids: [a] });
    expect(noDepartment.status).toBe(404);
    expect(noDepartment.body.type).toBe('/problems/not-found');

    const unknown = await api.post(`/v2/departments/${d}/users`, { user_ids: [a, 'ghost1', 'ghost2', 'ghost1'] });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
    expect(unknown.body).toMatchObject({ type: '/problems/not-found', status: 404, missing_user_ids: ['ghost1', 'ghost2'] });
    expect(await departmentOf(a)).toBeNull();
    expect(await userCount(d)).toBe(0);
  });

  it('answers 409 quota-exceeded with every overage for the whole request, changing nothing', async () => {
    const d = await department({ users: 3, admins: 1 });
    const [member] = await users(1);
    const admins = await users(2, { account_role: 'admin' });
    const plain = await users(2);
    expect((await api.post(`/v2/departments/${d}/users/${member}`)).status).toBe(200);

    const response = await api.post(`/v2/departments/${d}/users`, { user_ids: [member, ...admins, ...plain] });
    expect(response.status).toBe(409);
    expect(response.body.type).toBe('/problems/quota-exceeded');
    expect(response.body.overages).toEqual([
      { quota: 'users', limit: 3, usage: 1, requested: 4, overage: 2 },
      { quota: 'admins', limit: 1, usage: 0, requested: 2, overage: 1 },
    ]);
    for (const id of [...admins, ...plain]) expect(await departmentOf(id)).toBeNull();
    expect(await userCount(d)).toBe(1);

    // Users already in the department add nothing: this one fits exactly.
    const fits = await api.post(`/v2/departments/${d}/users`, { user_ids: [member, admins[0], plain[0]] });
    expect(fits.status, fits.text).toBe(200);
    expect(await usage(d)).toMatchObject({ users: 3, admins: 1 });
  });

  it('rejects bad bodies with 400 before touching anything', async () => {
    const d = await department();
    const tooMany = Array.from({ length: 1001 }, (_, i) => `u${i}`);
    for (const body of [
      {},
      { user_ids: [] },
      { user_ids: tooMany },
      { user_ids: ['bad id'] },
      { user_ids: ['a'], extra: 1 },
      { user_ids: 'a' },
    ]) {
      const response = await api.post(`/v2/departments/${d}/users`, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body.type).toBe('/problems/validation');
    }
    expect((await api.post(`/v2/departments/${d}/users`, undefined, { rawBody: 'user_ids=a' })).status).toBe(415);
  });

  it('moves hundreds of users from several departments in one all-or-nothing request', async () => {
    const sources = [await department(), await department(), await department()];
    const target = await department();
    const ids = await users(240, { activated: true });
    for (const [i, source] of sources.entries()) {
      const slice = ids.slice(i * 60, i * 60 + 60);
      expect((await api.post(`/v2/departments/${source}/users`, { user_ids: slice })).status).toBe(200);
    }
    const response = await api.post(`/v2/departments/${target}/users`, { user_ids: ids });
    expect(response.status, response.text).toBe(200);
    expect(response.body.users).toHaveLength(240);
    expect(await usage(target)).toMatchObject({ users: 240, activated_users: 240 });
    for (const source of sources) expect(await userCount(source)).toBe(0);
    expect(await openBulkItems()).toEqual([]);
    expect(await invariantViolations()).toEqual([]);

    const listed = await api.get(`/v2/departments/${target}/users?count=1000`);
    expect(listed.body.total).toBe(240);
  });

  it('refuses a large request over a limit without moving anyone', async () => {
    const source = await department();
    const target = await department({ users: 150 });
    const ids = await users(151);
    expect((await api.post(`/v2/departments/${source}/users`, { user_ids: ids.slice(0, 100) })).status).toBe(200);
    const response = await api.post(`/v2/departments/${target}/users`, { user_ids: ids });
    expect(response.status).toBe(409);
    expect(response.body.overages).toEqual([{ quota: 'users', limit: 150, usage: 0, requested: 151, overage: 1 }]);
    expect(await userCount(source)).toBe(100);
    expect(await userCount(target)).toBe(0);
    expect(await openBulkItems()).toEqual([]);
  });
});

describe('E5 DELETE /v2/departments/{department_id}/users', () => {
  it('removes every listed member and answers 204 with an empty body', async () => {
    const d = await department();
    const ids = await users(4, { account_role: 'guest' });
    expect((await api.post(`/v2/departments/${d}/users`, { user_ids: ids })).status).toBe(200);
    const response = await api.delete(`/v2/departments/${d}/users`, { user_ids: [ids[0], ids[1], ids[0]] });
    expect(response.status, response.text).toBe(204);
    expect(response.text).toBe('');
    expect(await departmentOf(ids[0])).toBeNull();
    expect(await departmentOf(ids[2])).toBe(d);
    expect(await usage(d)).toMatchObject({ users: 2, guests: 2 });
    expect(await invariantViolations()).toEqual([]);
  });

  it('answers 404 not-a-member naming users outside the department (unknown ones too), changing nothing', async () => {
    const [d, other] = [await department(), await department()];
    const [inside, elsewhere, nowhere] = await users(3);
    await api.post(`/v2/departments/${d}/users/${inside}`);
    await api.post(`/v2/departments/${other}/users/${elsewhere}`);
    const response = await api.delete(`/v2/departments/${d}/users`, { user_ids: [inside, elsewhere, nowhere, 'ghost'] });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ type: '/problems/not-a-member', user_ids: [elsewhere, nowhere, 'ghost'] });
    expect(await departmentOf(inside)).toBe(d);
    expect(await departmentOf(elsewhere)).toBe(other);

    const noDepartment = await api.delete('/v2/departments/nope/users', { user_ids: [inside] });
    expect(noDepartment.status).toBe(404);
    expect(noDepartment.body.type).toBe('/problems/not-found');
  });

  it('removes hundreds of members in one request', async () => {
    const d = await department();
    const ids = await users(200, { account_role: 'manager' });
    expect((await api.post(`/v2/departments/${d}/users`, { user_ids: ids })).status).toBe(200);
    const response = await api.delete(`/v2/departments/${d}/users`, { user_ids: ids });
    expect(response.status, response.text).toBe(204);
    expect(await usage(d)).toMatchObject({ users: 0, managers: 0 });
    expect((await api.delete(`/v2/departments/${d}`)).status).toBe(200);
    expect(await openBulkItems()).toEqual([]);
    expect(await invariantViolations()).toEqual([]);
  });
});
