/**
 * SCIM 2.0 through HTTP: tokens, discovery, users and groups, the mapping of
 * API.md, errors as SCIM errors, ETags, and the rules of the admin API
 * (quotas, uniqueness, all-or-nothing) holding for SCIM changes. Every answer
 * is checked against the OpenAPI document by the Api client.
 */
import { describe, expect, it } from 'vitest';
import { READ_TOKEN, useApi, type ApiResponse } from '../support/api';
import { unique } from '../support/fixtures';
import { invariantViolations } from '../support/invariants';

const api = useApi();

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

async function newToken(description = 'test IdP'): Promise<{ id: string; token: string }> {
  const response = await api.post('/v2/scim/tokens', { description });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

let tokenPromise: Promise<{ id: string; token: string }> | undefined;
const token = () => (tokenPromise ??= newToken());

const scim = {
  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
    const { token: secret } = await token();
    return api.request(method, `/scim/v2${path}`, {
      token: secret,
      ...(body === undefined ? {} : { rawBody: JSON.stringify(body) }),
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }), ...headers },
    });
  },
  get: (path: string, headers?: Record<string, string>) => scim.request('GET', path, undefined, headers),
  post: (path: string, body: unknown) => scim.request('POST', path, body),
  put: (path: string, body: unknown, headers?: Record<string, string>) => scim.request('PUT', path, body, headers),
  patch: (path: string, body: unknown, headers?: Record<string, string>) => scim.request('PATCH', path, body, headers),
  delete: (path: string, headers?: Record<string, string>) => scim.request('DELETE', path, undefined, headers),
};

const ops = (...Operations: unknown[]) => ({ schemas: [PATCH], Operations });

function userBody(fields: Record<string, unknown> = {}) {
  const name = unique('ada');
  return {
    schemas: [USER],
    userName: `${name}@example.com`,
    name: { givenName: 'Ada', familyName: 'Lovelace' },
    emails: [{ value: `${name}@example.com`, type: 'work', primary: true }],
    active: true,
    ...fields,
  };
}

async function createUser(fields: Record<string, unknown> = {}) {
  const response = await scim.post('/Users', userBody(fields));
  expect(response.status, response.text).toBe(201);
  return response.body;
}

function expectScimError(response: ApiResponse, status: number, scimType?: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/scim\+json/);
  expect(response.body.schemas).toEqual([ERROR]);
  expect(response.body.status).toBe(String(status));
  if (scimType) expect(response.body.scimType).toBe(scimType);
}

describe('SCIM tokens', () => {
  it('shows the secret once, lists without it, and a revoked token stops working', async () => {
    const made = await newToken('Okta production');
    expect(made as unknown).toEqual({
      id: expect.any(String),
      description: 'Okta production',
      token: expect.any(String),
      created_at: expect.any(String),
      last_used_at: null,
    });
    const use = () => api.get('/scim/v2/ServiceProviderConfig', { token: made.token });
    expect((await use()).status).toBe(200);
    const listed = (await api.get('/v2/scim/tokens', { token: READ_TOKEN })).body.tokens.find((t: { id: string }) => t.id === made.id);
    expect(listed).toEqual({
      id: made.id,
      description: 'Okta production',
      created_at: (made as unknown as { created_at: string }).created_at,
      last_used_at: expect.any(String),
    });
    expect(JSON.stringify(listed)).not.toContain(made.token.split('.')[1]);
    expect((await api.delete(`/v2/scim/tokens/${made.id}`)).status).toBe(204);
    expectScimError(await use(), 401);
    expect((await api.delete(`/v2/scim/tokens/${made.id}`)).status).toBe(404);
  });

  it('SCIM routes refuse admin JWTs and wrong secrets; SCIM tokens open no admin route', async () => {
    const made = await newToken();
    expectScimError(await api.get('/scim/v2/Users', {}), 401);
    expectScimError(await api.get('/scim/v2/Users', { token: `${made.token.split('.')[0]}.wrong` }), 401);
    expectScimError(await api.get('/scim/v2/Users', { token: null }), 401);
    const admin = await api.get('/v2/users', { token: made.token });
    expect(admin.status).toBe(401);
  });
});

describe('discovery', () => {
  it('ServiceProviderConfig says what is supported, truthfully', async () => {
    const { body } = await scim.get('/ServiceProviderConfig');
    expect(body.patch.supported).toBe(true);
    expect(body.filter).toEqual({ supported: true, maxResults: 200 });
    expect(body.etag.supported).toBe(true);
    expect(body.bulk.supported).toBe(false);
    expect(body.sort.supported).toBe(false);
  });

  it('ResourceTypes and Schemas, listed and one by one', async () => {
    const types = await scim.get('/ResourceTypes');
    expect(types.body.Resources.map((r: { id: string }) => r.id)).toEqual(['User', 'Group']);
    expect((await scim.get('/ResourceTypes/User')).body.schemaExtensions).toEqual([{ schema: ENTERPRISE, required: false }]);
    expectScimError(await scim.get('/ResourceTypes/Device'), 404);
    const schemas = await scim.get('/Schemas');
    expect(schemas.body.Resources.map((r: { id: string }) => r.id)).toEqual([USER, ENTERPRISE, GROUP]);
    const user = (await scim.get(`/Schemas/${USER}`)).body;
    expect(user.attributes.map((a: { name: string }) => a.name)).toEqual([
      'id',
      'externalId',
      'userName',
      'name',
      'emails',
      'active',
      'roles',
    ]);
  });
});

describe('Users', () => {
  it('creates a user with the mapping of API.md, readable by both APIs', async () => {
    const body = userBody({ externalId: 'okta-1', roles: [{ value: 'manager', primary: true }] });
    const created = await scim.post('/Users', body);
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('location')).toBe(created.body.meta.location);
    expect(created.headers.get('etag')).toBe(created.body.meta.version);
    expect(created.body).toMatchObject({
      schemas: [USER],
      userName: body.userName,
      externalId: 'okta-1',
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      active: true,
      roles: [{ value: 'manager', primary: true }],
      meta: { resourceType: 'User', version: 'W/"1"' },
    });
    const admin = await api.get(`/v2/users/${created.body.id}`, { token: READ_TOKEN });
    expect(admin.body).toMatchObject({
      email: body.emails[0].value,
      first_name: 'Ada',
      last_name: 'Lovelace',
      activated: true,
      account_role: 'manager',
      user_name: body.userName,
      external_id: 'okta-1',
    });
    expect((await scim.get(`/Users/${created.body.id}`)).body).toEqual(created.body);
  });

  it('userName is unique case-insensitively: 409 uniqueness, and found by eq in any case', async () => {
    const user = await createUser();
    expectScimError(await scim.post('/Users', userBody({ userName: user.userName.toUpperCase() })), 409, 'uniqueness');
    const found = await scim.get(`/Users?filter=${encodeURIComponent(`userName eq "${user.userName.toUpperCase()}"`)}`);
    expect(found.body).toMatchObject({ totalResults: 1, startIndex: 1, itemsPerPage: 1 });
    expect(found.body.Resources[0].id).toBe(user.id);
    const none = await scim.get(`/Users?filter=${encodeURIComponent('userName eq "nobody@example.com"')}`);
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });
  });

  it('externalId, emails.value and id look-ups', async () => {
    const user = await createUser({ externalId: unique('ext') });
    for (const filter of [
      `externalId eq "${user.externalId}"`,
      `emails.value eq "${user.emails[0].value}"`,
      `emails[type eq "work"].value eq "${user.emails[0].value}"`,
      `id eq "${user.id}"`,
    ]) {
      const found = await scim.get(`/Users?filter=${encodeURIComponent(filter)}`);
      expect(
        found.body.Resources.map((r: { id: string }) => r.id),
        filter,
      ).toEqual([user.id]);
    }
  });

  it('an unknown filter attribute or a bad filter is 400 invalidFilter', async () => {
    expectScimError(await scim.get(`/Users?filter=${encodeURIComponent('shoeSize eq "9"')}`), 400, 'invalidFilter');
    expectScimError(await scim.get(`/Users?filter=${encodeURIComponent('userName eq')}`), 400, 'invalidFilter');
  });

  it('unknown id: 404 SCIM error', async () => {
    expectScimError(await scim.get('/Users/no-such-user'), 404);
    expectScimError(await scim.patch('/Users/no-such-user', ops({ op: 'replace', path: 'active', value: false })), 404);
    expectScimError(await scim.delete('/Users/no-such-user'), 404);
  });

  it('the enterprise department: by id or by name, created when unknown, removed with an empty value', async () => {
    const department = (await api.post('/v2/departments', { id: unique('d'), name: unique('Research ') })).body;
    const byName = await createUser({ schemas: [USER, ENTERPRISE], [ENTERPRISE]: { department: department.name.toUpperCase() } });
    expect(byName[ENTERPRISE]).toEqual({ department: department.name });
    expect((await api.get(`/v2/users/${byName.id}`)).body.department_id).toBe(department.id);
    const byId = await createUser({ schemas: [USER, ENTERPRISE], [ENTERPRISE]: { department: department.id } });
    expect((await api.get(`/v2/users/${byId.id}`)).body.department_id).toBe(department.id);
    const newName = unique('Brand new ');
    const made = await createUser({ schemas: [USER, ENTERPRISE], [ENTERPRISE]: { department: newName } });
    const madeDepartment = (await api.get(`/v2/users/${made.id}`)).body.department_id;
    expect((await api.get(`/v2/departments/${madeDepartment}`)).body.name).toBe(newName);
    const cleared = await scim.patch(`/Users/${byName.id}`, ops({ op: 'replace', path: `${ENTERPRISE}:department`, value: '' }));
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body[ENTERPRISE]).toBeUndefined();
    expect((await api.get(`/v2/users/${byName.id}`)).body.department_id).toBeNull();
  });

  it('a move over a quota is 409 with the overage in detail, and nothing changes', async () => {
    const department = (await api.post('/v2/departments', { id: unique('d'), name: unique('Tiny ') })).body;
    expect((await api.put(`/v2/departments/${department.id}/quotas`, { name: 'users', limit: 1 })).status).toBe(200);
    await createUser({ schemas: [USER, ENTERPRISE], [ENTERPRISE]: { department: department.id } });
    const second = await createUser({ displayName: 'ignored' });
    const moved = await scim.patch(
      `/Users/${second.id}`,
      ops(
        { op: 'replace', path: `${ENTERPRISE}:department`, value: department.id },
        { op: 'replace', path: 'name.familyName', value: 'Changed' },
      ),
    );
    expectScimError(moved, 409);
    expect(moved.body.detail).toContain('users: limit 1, usage 1, requested 1');
    expect((await scim.get(`/Users/${second.id}`)).body.name.familyName).toBe('Lovelace');
    expect(await invariantViolations()).toEqual([]);
  });

  it('PATCH as Entra writes it: capitalised op, string booleans, no path with dotted keys', async () => {
    const user = await createUser();
    const patched = await scim.patch(
      `/Users/${user.id}`,
      ops(
        { op: 'Replace', path: 'active', value: 'False' },
        { op: 'Replace', value: { 'name.givenName': 'Augusta', 'name.FamilyName': 'King' } },
        { op: 'Add', path: 'emails[type eq "work"].value', value: `${user.id}@new.example.com` },
      ),
    );
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      active: false,
      name: { givenName: 'Augusta', familyName: 'King' },
      emails: [{ value: `${user.id}@new.example.com` }],
    });
    expect(patched.body.meta.version).toBe('W/"2"');
    expect((await api.get(`/v2/users/${user.id}`)).body.activated).toBe(false);
  });

  it('PATCH as Okta writes it: replace with a value object', async () => {
    const user = await createUser();
    const patched = await scim.patch(`/Users/${user.id}`, ops({ op: 'replace', value: { active: false } }));
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.active).toBe(false);
    // Still there, deactivated: read it and find it.
    expect((await scim.get(`/Users/${user.id}`)).body.active).toBe(false);
  });

  it('If-Match: a stale version is 412 and changes nothing; the current one works', async () => {
    const user = await createUser();
    const first = await scim.patch(`/Users/${user.id}`, ops({ op: 'replace', path: 'name.givenName', value: 'One' }), {
      'if-match': user.meta.version,
    });
    expect(first.status).toBe(200);
    expectScimError(
      await scim.patch(`/Users/${user.id}`, ops({ op: 'replace', path: 'name.givenName', value: 'Two' }), {
        'if-match': user.meta.version,
      }),
      412,
    );
    expectScimError(await scim.delete(`/Users/${user.id}`, { 'if-match': user.meta.version }), 412);
    expect((await scim.get(`/Users/${user.id}`)).body.name.givenName).toBe('One');
  });

  it('PUT replaces; a bad PATCH path is 400 and nothing of the request is applied', async () => {
    const user = await createUser({ externalId: unique('x') });
    const replaced = await scim.put(
      `/Users/${user.id}`,
      userBody({ userName: user.userName, name: { givenName: 'Grace', familyName: 'Hopper' } }),
    );
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.name).toEqual({ givenName: 'Grace', familyName: 'Hopper' });
    expect(replaced.body.externalId).toBeUndefined();
    const bad = await scim.patch(
      `/Users/${user.id}`,
      ops({ op: 'replace', path: 'name.givenName', value: 'Changed' }, { op: 'replace', path: 'shoeSize', value: 9 }),
    );
    expectScimError(bad, 400);
    expect((await scim.get(`/Users/${user.id}`)).body.name.givenName).toBe('Grace');
  });

  it('DELETE removes the user from the admin API too', async () => {
    const user = await createUser();
    expect((await scim.delete(`/Users/${user.id}`)).status).toBe(204);
    expectScimError(await scim.get(`/Users/${user.id}`), 404);
    expect((await api.get(`/v2/users/${user.id}`)).status).toBe(404);
  });

  it('changes are audited with actor scim:<token id>', async () => {
    const { id } = await token();
    const user = await createUser();
    const audit = await api.get(`/v2/audit?query=${encodeURIComponent(`resource_id:${user.id}`)}`, { token: READ_TOKEN });
    expect(audit.status, audit.text).toBe(200);
    expect(audit.body.entries[0].actor).toBe(`scim:${id}`);
  });

  it('attributes and excludedAttributes project the answer', async () => {
    const user = await createUser();
    const only = await scim.get(`/Users/${user.id}?attributes=userName`);
    expect(Object.keys(only.body).sort()).toEqual(['id', 'meta', 'schemas', 'userName']);
    const without = await scim.get(`/Users/${user.id}?excludedAttributes=emails,name`);
    expect(without.body.emails).toBeUndefined();
    expect(without.body.userName).toBe(user.userName);
  });
});

describe('Groups', () => {
  it('create with members, look up by displayName, add, remove by value, remove all', async () => {
    const [a, b, c] = [await createUser(), await createUser(), await createUser()];
    const name = unique('Admins ');
    const created = await scim.post('/Groups', {
      schemas: [GROUP],
      displayName: name,
      externalId: unique('gx'),
      members: [{ value: a.id }],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.members).toEqual([{ value: a.id, display: a.userName, $ref: expect.stringContaining(`/Users/${a.id}`) }]);
    const id = created.body.id;
    expectScimError(await scim.post('/Groups', { schemas: [GROUP], displayName: name.toLowerCase() }), 409, 'uniqueness');

    const found = await scim.get(
      `/Groups?filter=${encodeURIComponent(`displayName eq "${name.toUpperCase()}"`)}&excludedAttributes=members`,
    );
    expect(found.body.Resources).toEqual([expect.objectContaining({ id, displayName: name })]);
    expect(found.body.Resources[0].members).toBeUndefined();

    const added = await scim.patch(`/Groups/${id}`, ops({ op: 'Add', path: 'members', value: [{ value: b.id }, { value: c.id }] }));
    expect(added.status, added.text).toBe(204);
    expect((await api.get(`/v2/groups/${id}`)).body.user_count).toBe(3);

    const member = await scim.get(
      `/Groups?filter=${encodeURIComponent(`id eq "${id}" and members eq "${b.id}"`)}&excludedAttributes=members`,
    );
    expect(member.body.totalResults).toBe(1);

    const removed = await scim.patch(
      `/Groups/${id}`,
      ops({ op: 'Remove', path: 'members', value: [{ value: b.id }] }, { op: 'remove', path: `members[value eq "${c.id}"]` }),
    );
    expect(removed.status, removed.text).toBe(204);
    expect((await scim.get(`/Groups/${id}`)).body.members.map((m: { value: string }) => m.value)).toEqual([a.id]);

    expect((await scim.patch(`/Groups/${id}`, ops({ op: 'remove', path: 'members' }))).status).toBe(204);
    const empty = await scim.get(`/Groups/${id}`);
    expect(empty.body.members ?? []).toEqual([]);
    expect((await api.get(`/v2/groups/${id}`)).body.user_count).toBe(0);
    expect(await invariantViolations()).toEqual([]);
  });

  it('an unknown member fails the whole PATCH', async () => {
    const a = await createUser();
    const created = await scim.post('/Groups', { schemas: [GROUP], displayName: unique('G ') });
    const failed = await scim.patch(
      `/Groups/${created.body.id}`,
      ops({ op: 'add', path: 'members', value: [{ value: a.id }] }, { op: 'add', path: 'members', value: [{ value: 'nobody-here' }] }),
    );
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(failed.status).toBeLessThan(500);
    expect((await api.get(`/v2/groups/${created.body.id}`)).body.user_count).toBe(0);
  });

  it('PATCH renames; attributes asks for the group back; DELETE', async () => {
    const created = await scim.post('/Groups', { schemas: [GROUP], displayName: unique('Old ') });
    const renamed = await scim.patch(
      `/Groups/${created.body.id}?attributes=displayName`,
      ops({ op: 'replace', path: 'displayName', value: 'Renamed ' + created.body.id }),
    );
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.displayName).toBe('Renamed ' + created.body.id);
    expect((await scim.delete(`/Groups/${created.body.id}`)).status).toBe(204);
    expectScimError(await scim.get(`/Groups/${created.body.id}`), 404);
  });
});

describe('paging', () => {
  it('startIndex pages walk every user once, to the end', async () => {
    const tag = unique('Pager');
    const made = new Set<string>();
    for (let i = 0; i < 7; i++) made.add((await createUser({ name: { givenName: 'P', familyName: `${tag}${i}` } })).id);
    const filter = encodeURIComponent(`name.familyName sw "${tag}"`);
    const seen: string[] = [];
    let total = 0;
    for (let start = 1; ; start += 3) {
      const page = await scim.get(`/Users?filter=${filter}&startIndex=${start}&count=3`);
      expect(page.status, page.text).toBe(200);
      total = page.body.totalResults;
      seen.push(...page.body.Resources.map((r: { id: string }) => r.id));
      if (page.body.Resources.length < 3) break;
    }
    expect(total).toBe(7);
    expect(new Set(seen)).toEqual(made);
    expect(seen).toHaveLength(7);
  });

  it('count=0 answers only the total', async () => {
    const page = await scim.get('/Users?count=0');
    expect(page.body.itemsPerPage).toBe(0);
    expect(page.body.totalResults).toBeGreaterThan(0);
  });
});
