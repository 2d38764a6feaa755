/** E1, E2, E4, E6, E7 and the membership rules, including races through HTTP. */
import { describe, expect, it } from 'vitest';
import { READ_TOKEN, useApi } from '../support/api';
import { invariantViolations } from '../support/invariants';
import { createDepartment, unique } from '../support/fixtures';

const api = useApi();

const department = (limits: Record<string, number> = {}) => createDepartment(api, limits);

async function user(fields: Record<string, unknown> = {}) {
  const id = unique('u');
  const response = await api.post('/v2/users', { id, email: `${id}@example.com`, last_name: 'Member', ...fields });
  expect(response.status, response.text).toBe(201);
  return id;
}

const quotas = async (departmentId: string) => (await api.get(`/v2/departments/${departmentId}/quotas`)).body.quotas;
const usageOf = async (departmentId: string, name: string) =>
  (await quotas(departmentId)).find((q: { name: string }) => q.name === name).usage;

describe('E2 POST /v2/departments/{department_id}/users/{user_id}', () => {
  it('adds the user and answers with it; a repeat changes nothing', async () => {
    const d = await department();
    const u = await user();
    const added = await api.post(`/v2/departments/${d}/users/${u}.json`);
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ id: u, department_id: d });
    const again = await api.post(`/v2/departments/${d}/users/${u}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(added.body);
    expect((await api.get(`/v2/departments/${d}`)).body.user_count).toBe(1);
  });

  it('moves a user out of its old department in the same step', async () => {
    const [from, to] = [await department(), await department()];
    const u = await user({ account_role: 'admin', activated: true });
    await api.post(`/v2/departments/${from}/users/${u}`);
    const moved = await api.post(`/v2/departments/${to}/users/${u}`);
    expect(moved.body.department_id).toBe(to);
    expect((await api.get(`/v2/departments/${from}`)).body.user_count).toBe(0);
    expect(await usageOf(from, 'admins')).toBe(0);
    expect(await usageOf(to, 'admins')).toBe(1);
    expect(await usageOf(to, 'activated_users')).toBe(1);
  });

  it('answers 404 not-found for an unknown department or user', async () => {
    const u = await user();
    const d = await department();
    const noDepartment = await api.post(`/v2/departments/nope/users/${u}`);
    expect(noDepartment.status).toBe(404);
    expect(noDepartment.body.type).toBe('/problems/not-found');
    expect((await api.get(`/v2/users/${u}`)).body.department_id).toBeNull();
    expect((await api.post(`/v2/departments/${d}/users/nobody`)).body.type).toBe('/problems/not-found');
  });

  it('answers 409 quota-exceeded with every exceeded quota in overages, and changes nothing', async () => {
    const d = await department({ users: 1, admins: 0 });
    await api.post(`/v2/departments/${d}/users/${await user()}`);
    const admin = await user({ account_role: 'admin' });
    const refused = await api.post(`/v2/departments/${d}/users/${admin}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ type: '/problems/quota-exceeded', status: 409 });
    expect(refused.body.overages).toEqual([
      { quota: 'users', limit: 1, usage: 1, requested: 1, overage: 1 },
      { quota: 'admins', limit: 0, usage: 0, requested: 1, overage: 1 },
    ]);
    expect((await api.get(`/v2/users/${admin}`)).body.department_id).toBeNull();
  });

  it('lets exactly 10 of 40 parallel additions in under a users limit of 10', async () => {
    const d = await department({ users: 10 });
    const ids = await Promise.all(Array.from({ length: 40 }, () => user()));
    const responses = await Promise.all(ids.map((u) => api.post(`/v2/departments/${d}/users/${u}`)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect((await api.get(`/v2/departments/${d}`)).body.user_count).toBe(10);
    expect(await invariantViolations()).toEqual([]);
  });

  it('keeps counters equal to members under parallel moves of the same users among 3 departments', async () => {
    const departments = [await department(), await department(), await department()];
    const ids = await Promise.all(
      Array.from({ length: 6 }, (_, i) => user({ account_role: ['admin', 'guest', 'manager'][i % 3], activated: i % 2 === 0 })),
    );
    const moves = Array.from({ length: 60 }, (_, i) =>
      api.post(`/v2/departments/${departments[i % 3]}/users/${ids[(i * 5) % ids.length]}`),
    );
    const responses = await Promise.all(moves);
    expect(responses.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(await invariantViolations()).toEqual([]);
    const total = (await Promise.all(departments.map((d) => api.get(`/v2/departments/${d}`)))).reduce((n, r) => n + r.body.user_count, 0);
    expect(total).toBe(ids.length);
  });

  it('never leaves a user in a department deleted while additions race it', async () => {
    const d = await department();
    const ids = await Promise.all(Array.from({ length: 10 }, () => user()));
    const [deletion, ...additions] = await Promise.all([
      api.delete(`/v2/departments/${d}`),
      ...ids.map((u) => api.post(`/v2/departments/${d}/users/${u}`)),
    ]);
    const added = additions.filter((r) => r.status === 200).length;
    if (deletion.status === 200) {
      for (const u of ids) expect((await api.get(`/v2/users/${u}`)).body.department_id).toBeNull();
    } else {
      expect(deletion.body.type).toBe('/problems/department-not-empty');
      expect((await api.get(`/v2/departments/${d}`)).body.user_count).toBe(added);
    }
    expect(await invariantViolations()).toEqual([]);
  });
});

describe('E4 DELETE /v2/departments/{department_id}/users/{user_id}', () => {
  it('removes the user (204, empty body); its department_id becomes null', async () => {
    const d = await department();
    const u = await user();
    await api.post(`/v2/departments/${d}/users/${u}`);
    const removed = await api.delete(`/v2/departments/${d}/users/${u}`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect((await api.get(`/v2/users/${u}`)).body.department_id).toBeNull();
    expect((await api.get(`/v2/departments/${d}`)).body.user_count).toBe(0);
  });

  it('answers 404 not-a-member for a user of another department, 404 not-found for unknowns', async () => {
    const [d1, d2] = [await department(), await department()];
    const u = await user();
    await api.post(`/v2/departments/${d1}/users/${u}`);
    const other = await api.delete(`/v2/departments/${d2}/users/${u}`);
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ type: '/problems/not-a-member', user_ids: [u] });
    expect((await api.delete(`/v2/departments/nope/users/${u}`)).body.type).toBe('/problems/not-found');
    expect((await api.delete(`/v2/departments/${d1}/users/nobody`)).body.type).toBe('/problems/not-found');
    expect((await api.get(`/v2/users/${u}`)).body.department_id).toBe(d1);
  });
});

describe('E6 and E7 quotas', () => {
  it('lists six quotas in order, on both paths, with null limits at first', async () => {
    const d = await department();
    const v2 = await api.get(`/v2/departments/${d}/quotas`);
    const plain = await api.get(`/departments/${d}/quotas`);
    expect(v2.status).toBe(200);
    expect(plain.body).toEqual(v2.body);
    expect((await api.get(`/departments/${d}/quotas.json`)).body).toEqual(v2.body);
    expect(v2.body).toEqual({
      department_id: d,
      quotas: [
        { name: 'users', limit: null, usage: 0, editable: true },
        { name: 'activated_users', limit: null, usage: 0, editable: true },
        { name: 'admins', limit: null, usage: 0, editable: true },
        { name: 'managers', limit: null, usage: 0, editable: true },
        { name: 'guests', limit: null, usage: 0, editable: true },
        { name: 'seats', limit: null, usage: 0, editable: false },
      ],
    });
    expect((await api.get('/departments/nope/quotas')).status).toBe(404);
  });

  it('sets and removes a limit; a limit below usage keeps members and stops additions', async () => {
    const d = await department();
    const [a, b] = [await user({ account_role: 'guest' }), await user({ account_role: 'guest' })];
    await api.post(`/v2/departments/${d}/users/${a}`);
    await api.post(`/v2/departments/${d}/users/${b}`);
    const set = await api.put(`/v2/departments/${d}/quotas.json`, { name: 'guests', limit: 1 });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ name: 'guests', limit: 1, usage: 2, editable: true });
    const blocked = await api.post(`/v2/departments/${d}/users/${await user({ account_role: 'guest' })}`);
    expect(blocked.body.overages).toEqual([{ quota: 'guests', limit: 1, usage: 2, requested: 1, overage: 2 }]);
    const cleared = await api.put(`/v2/departments/${d}/quotas`, { name: 'guests', limit: null });
    expect(cleared.body).toEqual({ name: 'guests', limit: null, usage: 2, editable: true });
  });

  it('refuses seats with 403 quota-not-editable and bad bodies with 400', async () => {
    const d = await department();
    const seats = await api.put(`/v2/departments/${d}/quotas`, { name: 'seats', limit: 5 });
    expect(seats.status).toBe(403);
    expect(seats.body.type).toBe('/problems/quota-not-editable');
    for (const body of [
      { name: 'chairs', limit: 1 },
      { name: 'users', limit: -1 },
      { name: 'users', limit: 1.5 },
      { name: 'users', limit: 1_000_000_001 },
      { name: 'users' },
      { name: 'users', limit: '3' },
    ]) {
      const response = await api.put(`/v2/departments/${d}/quotas`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api.put('/v2/departments/nope/quotas', { name: 'users', limit: 1 })).status).toBe(404);
    expect((await api.put(`/v2/departments/${d}/quotas`, { name: 'users', limit: 1 }, { token: READ_TOKEN })).status).toBe(403);
  });
});

describe('user PATCH against quotas', () => {
  it('checks a role or activation change of a member against its department quotas', async () => {
    const d = await department({ admins: 1, activated_users: 0 });
    const [a, b] = [await user({ account_role: 'admin' }), await user()];
    await api.post(`/v2/departments/${d}/users/${a}`);
    await api.post(`/v2/departments/${d}/users/${b}`);
    const promote = await api.patch(`/v2/users/${b}`, { account_role: 'admin' });
    expect(promote.status).toBe(409);
    expect(promote.body.overages).toEqual([{ quota: 'admins', limit: 1, usage: 1, requested: 1, overage: 1 }]);
    const activate = await api.patch(`/v2/users/${b}`, { activated: true });
    expect(activate.body.overages).toEqual([{ quota: 'activated_users', limit: 0, usage: 0, requested: 1, overage: 1 }]);
    expect((await api.patch(`/v2/users/${a}`, { account_role: 'manager' })).status).toBe(200);
    expect(await usageOf(d, 'admins')).toBe(0);
    expect(await usageOf(d, 'managers')).toBe(1);
    expect(await invariantViolations()).toEqual([]);
  });
});
