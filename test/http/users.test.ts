import { describe, expect, it } from 'vitest';
import { invariantViolations } from '../support/invariants';
import { READ_TOKEN, useApi } from '../support/api';
import { unique } from '../support/fixtures';

const api = useApi();

async function createUser(fields: Record<string, unknown> = {}) {
  const id = unique('u');
  const response = await api.post('/v2/users', { id, email: `${id}@example.com`, last_name: 'Lovelace', ...fields });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

describe('POST /v2/users', () => {
  it('creates a user with defaults, a Location header and an ETag', async () => {
    const response = await api.post('/v2/users', { id: 'ada', email: 'Ada@Example.com', last_name: 'Lovelace', first_name: 'Ada' });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe('/v2/users/ada');
    expect(response.headers.get('etag')).toMatch(/^"\d+"$/);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.body).toEqual({
      id: 'ada',
      user_name: 'Ada@Example.com',
      external_id: null,
      email: 'Ada@Example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      account_role: 'member',
      activated: false,
      last_login: null,
      department_id: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      updated_at: response.body.created_at,
    });
  });

  it('keeps user names unique case-insensitively and external ids unique exactly, on create and PATCH', async () => {
    const a = unique('un');
    const first = await api.post('/v2/users', {
      id: a,
      email: `${a}@example.com`,
      last_name: 'One',
      user_name: `${a}.Sign`,
      external_id: `ext-${a}`,
    });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ user_name: `${a}.Sign`, external_id: `ext-${a}` });
    const b = unique('un');
    const sameName = await api.post('/v2/users', { id: b, email: `${b}@example.com`, last_name: 'Two', user_name: `${a}.SIGN` });
    expect(sameName.status).toBe(409);
    expect(sameName.body).toMatchObject({ type: '/problems/conflict', field: 'user_name' });
    const sameExternal = await api.post('/v2/users', { id: b, email: `${b}@example.com`, last_name: 'Two', external_id: `ext-${a}` });
    expect(sameExternal.status).toBe(409);
    expect(sameExternal.body).toMatchObject({ field: 'external_id' });
    // External ids are exact: another case is another id.
    const otherCase = await api.post('/v2/users', { id: b, email: `${b}@example.com`, last_name: 'Two', external_id: `EXT-${a}` });
    expect(otherCase.status, otherCase.text).toBe(201);
    // A rename frees the old name; clearing the external id frees it.
    expect((await api.patch(`/v2/users/${a}`, { user_name: `${a}.renamed`, external_id: null })).status).toBe(200);
    const c = unique('un');
    const reuse = await api.post('/v2/users', {
      id: c,
      email: `${c}@example.com`,
      last_name: 'Three',
      user_name: `${a}.sign`,
      external_id: `ext-${a}`,
    });
    expect(reuse.status, reuse.text).toBe(201);
    expect((await api.patch(`/v2/users/${c}`, { user_name: `${a}.RENAMED` })).status).toBe(409);
    expect((await api.patch(`/v2/users/${c}`, { user_name: '' })).status).toBe(400);
    expect(await invariantViolations()).toEqual([]);
  });

  it('makes an id when none is given', async () => {
    const response = await api.post('/v2/users', { email: `${unique('x')}@example.com`, last_name: 'Hopper' });
    expect(response.status).toBe(201);
    expect(response.body.id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(response.headers.get('location')).toBe(`/v2/users/${response.body.id}`);
  });

  it('normalises last_login to UTC milliseconds', async () => {
    const user = await createUser({ last_login: '2026-11-01T10:30:00+01:00', account_role: 'admin', activated: true });
    expect(user.last_login).toBe('2026-11-01T09:30:00.000Z');
    expect(user.account_role).toBe('admin');
    expect(user.activated).toBe(true);
  });

  it('answers 409 conflict for a duplicate id', async () => {
    const user = await createUser();
    const response = await api.post('/v2/users', { id: user.id, email: `${unique('y')}@example.com`, last_name: 'Dup' });
    expect(response.status).toBe(409);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.body).toMatchObject({ type: '/problems/conflict', status: 409, title: 'Conflict' });
  });

  it('answers 409 conflict for a duplicate e-mail, compared case-insensitively', async () => {
    const user = await createUser();
    const response = await api.post('/v2/users', { email: user.email.toUpperCase(), last_name: 'Dup' });
    expect(response.status).toBe(409);
    expect(response.body.type).toBe('/problems/conflict');
  });

  it('lets exactly one of many racing creates with the same e-mail win', async () => {
    const email = `${unique('race')}@example.com`;
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => api.post('/v2/users', { id: unique(`r${i}`), email, last_name: 'Racer' })),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(11);
  });

  it('lets exactly one of many racing creates with the same id win', async () => {
    const id = unique('same');
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => api.post('/v2/users', { id, email: `${unique(`s${i}`)}@example.com`, last_name: 'Racer' })),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(11);
    // The losers' e-mail claims must not have been left behind.
    const loser = responses.findIndex((r) => r.status === 409);
    expect(loser).toBeGreaterThanOrEqual(0);
  });

  it.each([
    [{ last_name: 'NoEmail' }, 'email'],
    [{ email: 'not-an-email', last_name: 'X' }, 'email'],
    [{ email: 'a@example.com' }, 'last_name'],
    [{ email: 'a@example.com', last_name: '' }, 'last_name'],
    [{ email: 'a@example.com', last_name: 'x'.repeat(201) }, 'last_name'],
    [{ email: 'a@example.com', last_name: 'X', account_role: 'owner' }, 'account_role'],
    [{ email: 'a@example.com', last_name: 'X', activated: 'yes' }, 'activated'],
    [{ email: 'a@example.com', last_name: 'X', last_login: 'yesterday' }, 'last_login'],
    [{ email: 'a@example.com', last_name: 'X', id: 'has space' }, 'id'],
    [{ email: 'a@example.com', last_name: 'X', id: 'x'.repeat(65) }, 'id'],
    [{ email: 'a@example.com', last_name: 'X', department_id: 'eng' }, ''],
    [{ email: 'a@example.com', last_name: 'X', surprise: 1 }, ''],
  ])('rejects %j with 400 naming the field', async (body, field) => {
    const response = await api.post('/v2/users', body);
    expect(response.status).toBe(400);
    expect(response.body.type).toBe('/problems/validation');
    expect(response.body.errors.length).toBeGreaterThan(0);
    for (const error of response.body.errors) expect(error).toEqual({ field: expect.any(String), message: expect.any(String) });
    if (field) expect(response.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    // Every message says what is wrong: never zod's bare "Invalid input".
    for (const error of response.body.errors) expect(error.message).not.toMatch(/^invalid input$/i);
  });

  it('says which required fields are missing, and what type a field must have', async () => {
    const missing = await api.post('/v2/users', {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([
      { field: 'email', message: 'is required' },
      { field: 'last_name', message: 'is required' },
    ]);
    const wrongType = await api.post('/v2/users', { email: 'a@example.com', last_name: 'X', first_name: 5 });
    expect(wrongType.body.errors).toEqual([{ field: 'first_name', message: 'must be a string' }]);
    const notAnObject = await api.post('/v2/users', ['ada']);
    expect(notAnObject.body.errors).toEqual([{ field: 'body', message: 'must be an object' }]);
    const noBody = await api.request('POST', '/v2/users', { headers: { 'content-type': 'application/json' } });
    expect(noBody.body.errors).toEqual([{ field: 'body', message: 'is required' }]);
  });
});

describe('GET /v2/users/{user_id}', () => {
  it('returns the user with its ETag, also under the .json form', async () => {
    const user = await createUser();
    const response = await api.get(`/v2/users/${user.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(user);
    expect(response.headers.get('etag')).toBe('"1"');
    const json = await api.get(`/v2/users/${user.id}.json`);
    expect(json.status).toBe(200);
    expect(json.body).toEqual(user);
  });

  it('answers 404 not-found for an unknown user', async () => {
    const response = await api.get('/v2/users/nobody');
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ type: '/problems/not-found', status: 404 });
  });

  it('answers 400 for an id outside the pattern', async () => {
    const response = await api.get('/v2/users/bad%20id');
    expect(response.status).toBe(400);
    expect(response.body.type).toBe('/problems/validation');
  });

  it('is allowed with the read-only token', async () => {
    const user = await createUser();
    expect((await api.get(`/v2/users/${user.id}`, { token: READ_TOKEN })).status).toBe(200);
  });
});

describe('PATCH /v2/users/{user_id}', () => {
  it('changes the given fields, bumps updated_at and the ETag', async () => {
    const user = await createUser();
    const response = await api.patch(`/v2/users/${user.id}`, { first_name: 'Grace', account_role: 'manager', activated: true });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: user.id, first_name: 'Grace', account_role: 'manager', activated: true, email: user.email });
    expect(response.body.updated_at >= user.updated_at).toBe(true);
    expect(response.headers.get('etag')).toBe('"2"');
    expect((await api.get(`/v2/users/${user.id}`)).body).toEqual(response.body);
  });

  it('moves the e-mail claim: the old address becomes free, the new one taken', async () => {
    const user = await createUser();
    const other = await createUser();
    const newEmail = `${unique('new')}@example.com`;
    expect((await api.patch(`/v2/users/${user.id}`, { email: newEmail })).status).toBe(200);
    expect((await api.patch(`/v2/users/${other.id}`, { email: newEmail.toUpperCase() })).status).toBe(409);
    expect((await api.patch(`/v2/users/${other.id}`, { email: user.email })).status).toBe(200);
  });

  it('accepts a change of case of the own e-mail', async () => {
    const user = await createUser();
    const response = await api.patch(`/v2/users/${user.id}`, { email: user.email.toUpperCase() });
    expect(response.status).toBe(200);
    expect(response.body.email).toBe(user.email.toUpperCase());
  });

  it('clears last_login with null', async () => {
    const user = await createUser({ last_login: '2026-01-01T00:00:00Z' });
    const response = await api.patch(`/v2/users/${user.id}`, { last_login: null });
    expect(response.body.last_login).toBeNull();
  });

  it('refuses department_id with 400', async () => {
    const user = await createUser();
    const response = await api.patch(`/v2/users/${user.id}`, { department_id: 'eng' });
    expect(response.status).toBe(400);
    expect(response.body.type).toBe('/problems/validation');
  });

  it('answers 404 for an unknown user and 403 for the read token', async () => {
    expect((await api.patch('/v2/users/nobody', { first_name: 'X' })).status).toBe(404);
    const user = await createUser();
    const forbidden = await api.patch(`/v2/users/${user.id}`, { first_name: 'X' }, { token: READ_TOKEN });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.type).toBe('/problems/forbidden');
  });

  it('honours If-Match: a stale tag gives 412 and changes nothing', async () => {
    const user = await createUser();
    const first = await api.patch(`/v2/users/${user.id}`, { first_name: 'One' }, { headers: { 'if-match': '"1"' } });
    expect(first.status).toBe(200);
    const stale = await api.patch(`/v2/users/${user.id}`, { first_name: 'Two' }, { headers: { 'if-match': '"1"' } });
    expect(stale.status).toBe(412);
    expect(stale.body.type).toBe('/problems/precondition-failed');
    expect((await api.get(`/v2/users/${user.id}`)).body.first_name).toBe('One');
  });
});

describe('DELETE /v2/users/{user_id}', () => {
  it('deletes the user (204, empty body) and frees its e-mail', async () => {
    const user = await createUser();
    const response = await api.delete(`/v2/users/${user.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await api.get(`/v2/users/${user.id}`)).status).toBe(404);
    expect((await api.delete(`/v2/users/${user.id}`)).status).toBe(404);
    expect((await api.post('/v2/users', { email: user.email, last_name: 'Again' })).status).toBe(201);
  });
});
