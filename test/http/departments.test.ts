import { describe, expect, it } from 'vitest';
import { READ_TOKEN, useApi } from '../support/api';
import { unique } from '../support/fixtures';

const api = useApi();

async function createDepartment(name = 'Engineering') {
  const response = await api.post('/v2/departments', { id: unique('d'), name });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function placeUser(userId: string, departmentId: string) {
  expect((await api.post(`/v2/departments/${departmentId}/users/${userId}`)).status).toBe(200);
}

describe('POST /v2/departments', () => {
  it('creates a department with user_count 0, Location and ETag', async () => {
    const response = await api.post('/v2/departments', { id: 'eng', name: 'Engineering' });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe('/v2/departments/eng');
    expect(response.headers.get('etag')).toBe('"1"');
    expect(response.body).toEqual({
      id: 'eng',
      name: 'Engineering',
      user_count: 0,
      created_at: expect.any(String),
      updated_at: response.body.created_at,
    });
  });

  it('makes an id when none is given', async () => {
    const response = await api.post('/v2/departments', { name: 'Sales' });
    expect(response.status).toBe(201);
    expect(response.body.id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it('answers 409 for a duplicate id, and only one of racing creates wins', async () => {
    const department = await createDepartment();
    expect((await api.post('/v2/departments', { id: department.id, name: 'Again' })).status).toBe(409);
    const id = unique('race');
    const responses = await Promise.all(Array.from({ length: 10 }, () => api.post('/v2/departments', { id, name: 'Race' })));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(9);
  });

  it.each(['users', 'exports'])('refuses the reserved id %s with 400', async (id) => {
    const response = await api.post('/v2/departments', { id, name: 'Reserved' });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].field).toBe('id');
  });

  it.each([[{}], [{ name: '' }], [{ name: 'x'.repeat(201) }], [{ name: 'ok', extra: true }], [{ name: 42 }], [{ name: 'tab\there' }]])(
    'rejects %j with 400',
    async (body) => {
      const response = await api.post('/v2/departments', body);
      expect(response.status).toBe(400);
      expect(response.body.type).toBe('/problems/validation');
    },
  );
});

describe('GET and PATCH /v2/departments/{department_id}', () => {
  it('reads a department, renames it and bumps its ETag', async () => {
    const department = await createDepartment('Old name');
    const read = await api.get(`/v2/departments/${department.id}.json`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(department);
    const renamed = await api.patch(`/v2/departments/${department.id}`, { name: 'New name' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: department.id, name: 'New name', user_count: 0 });
    expect(renamed.headers.get('etag')).toBe('"2"');
  });

  it('answers 404 for unknown departments', async () => {
    expect((await api.get('/v2/departments/nope')).status).toBe(404);
    const patch = await api.patch('/v2/departments/nope', { name: 'X' });
    expect(patch.status).toBe(404);
    expect(patch.body.type).toBe('/problems/not-found');
  });

  it('refuses a PATCH without name or with unknown fields', async () => {
    const department = await createDepartment();
    expect((await api.patch(`/v2/departments/${department.id}`, {})).status).toBe(400);
    expect((await api.patch(`/v2/departments/${department.id}`, { name: 'A', user_count: 3 })).status).toBe(400);
  });

  it('honours If-Match on PATCH', async () => {
    const department = await createDepartment();
    const stale = await api.patch(`/v2/departments/${department.id}`, { name: 'X' }, { headers: { 'if-match': '"7"' } });
    expect(stale.status).toBe(412);
    const fresh = await api.patch(`/v2/departments/${department.id}`, { name: 'X' }, { headers: { 'if-match': '"1"' } });
    expect(fresh.status).toBe(200);
  });

  it('the department user list answers 404 for an unknown department', async () => {
    const response = await api.get('/v2/departments/nope/users');
    expect(response.status).toBe(404);
  });
});

describe('E8 DELETE /v2/departments/{department_id}', () => {
  it('deletes an empty department with 200 {id, deleted: true}', async () => {
    const department = await createDepartment();
    const response = await api.delete(`/v2/departments/${department.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: department.id, deleted: true });
    expect((await api.get(`/v2/departments/${department.id}`)).status).toBe(404);
    expect((await api.delete(`/v2/departments/${department.id}`)).status).toBe(404);
  });

  it('answers 409 department-not-empty with user_count while it has users', async () => {
    const department = await createDepartment();
    const user = (await api.post('/v2/users', { email: `${unique('m')}@example.com`, last_name: 'Member' })).body;
    await placeUser(user.id, department.id);
    const response = await api.delete(`/v2/departments/${department.id}`);
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ type: '/problems/department-not-empty', status: 409, user_count: 1 });
    expect((await api.get(`/v2/departments/${department.id}`)).body.user_count).toBe(1);
  });

  it('deleting a member user frees the department for deletion', async () => {
    const department = await createDepartment();
    const user = (await api.post('/v2/users', { email: `${unique('m')}@example.com`, last_name: 'Member' })).body;
    await placeUser(user.id, department.id);
    expect((await api.get(`/v2/departments/${department.id}`)).headers.get('etag')).toBe('"2"');
    expect((await api.delete(`/v2/users/${user.id}`)).status).toBe(204);
    expect((await api.get(`/v2/departments/${department.id}`)).body.user_count).toBe(0);
    expect((await api.delete(`/v2/departments/${department.id}`)).status).toBe(200);
  });

  it('is forbidden with the read token and honours If-Match', async () => {
    const department = await createDepartment();
    expect((await api.delete(`/v2/departments/${department.id}`, undefined, { token: READ_TOKEN })).status).toBe(403);
    expect((await api.delete(`/v2/departments/${department.id}`, undefined, { headers: { 'if-match': '"9"' } })).status).toBe(412);
    expect((await api.get(`/v2/departments/${department.id}`)).status).toBe(200);
  });
});
