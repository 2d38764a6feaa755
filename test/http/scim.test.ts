/**
 * SCIM 2.0 through HTTP: tokens, discovery, users and groups, the mapping of
 * SCIM attributes to the API's, errors as SCIM errors, ETags, and the rules of the admin API
 * (quotas, uniqueness, all-or-nothing) holding for SCIM changes. Every answer
 * is checked against the OpenAPI document by the Api client.
 */
import { describe, expect, it } from 'vitest';
import { READ_TOKEN, useApi } from '../support/api';
import { DEFAULT_GROUP_TUNING } from '../../lib/groups/groups';
import { compareCodePoints, nameSortKey } from '../../lib/text';
import { unique } from '../support/fixtures';
import { invariantViolations } from '../support/invariants';
import { ENTERPRISE_SCHEMA, expectScimError, GROUP_SCHEMA, newScimToken, patchOps, scimClient, USER_SCHEMA } from '../support/scim';

const api = useApi();
const scim = scimClient(api);

function userBody(fields: Record<string, unknown> = {}) {
  const name = unique('ada');
  return {
    schemas: [USER_SCHEMA],
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

describe('SCIM tokens', () => {
  it('shows the secret once, lists without it, and a revoked token stops working', async () => {
    const made = await newScimToken(api, 'Okta production');
    expect(made as unknown).toEqual({
      id: expect.any(String),
      description: 'Okta production',
      token: expect.any(String),
      created_at: expect.any(String),
      expires_at: null,
      last_used_at: null,
    });
    const use = () => api.get('/scim/v2/ServiceProviderConfig', { token: made.token });
    expect((await use()).status).toBe(200);
    const listed = (await api.get('/v2/scim/tokens', { token: READ_TOKEN })).body.tokens.find((t: { id: string }) => t.id === made.id);
    expect(listed).toEqual({
      id: made.id,
      description: 'Okta production',
      created_at: (made as unknown as { created_at: string }).created_at,
      expires_at: null,
      last_used_at: expect.any(String),
    });
    expect(JSON.stringify(listed)).not.toContain(made.token.split('.')[1]);
    expect((await api.delete(`/v2/scim/tokens/${made.id}`)).status).toBe(204);
    expectScimError(await use(), 401);
    expect((await api.delete(`/v2/scim/tokens/${made.id}`)).status).toBe(404);
  });

  it('SCIM routes refuse admin JWTs and wrong secrets; SCIM tokens open no admin route', async () => {
    const made = await newScimToken(api);
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
    expect((await scim.get('/ResourceTypes/User')).body.schemaExtensions).toEqual([{ schema: ENTERPRISE_SCHEMA, required: false }]);
    expectScimError(await scim.get('/ResourceTypes/Device'), 404);
    const schemas = await scim.get('/Schemas');
    expect(schemas.body.Resources.map((r: { id: string }) => r.id)).toEqual([USER_SCHEMA, ENTERPRISE_SCHEMA, GROUP_SCHEMA]);
    const user = (await scim.get(`/Schemas/${USER_SCHEMA}`)).body;
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
  it('creates a user with the mapping of SCIM attributes, readable by both APIs', async () => {
    const body = userBody({ externalId: 'okta-1', roles: [{ value: 'manager', primary: true }] });
    const created = await scim.post('/Users', body);
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('location')).toBe(created.body.meta.location);
    expect(created.headers.get('etag')).toBe(created.body.meta.version);
    expect(created.body).toMatchObject({
      schemas: [USER_SCHEMA],
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
    expectScimError(await scim.patch('/Users/no-such-user', patchOps({ op: 'replace', path: 'active', value: false })), 404);
    expectScimError(await scim.delete('/Users/no-such-user'), 404);
  });

  it('the enterprise department: by id or by name, created when unknown, removed with an empty value', async () => {
    const department = (await api.post('/v2/departments', { id: unique('d'), name: unique('Research ') })).body;
    const byName = await createUser({
      schemas: [USER_SCHEMA, ENTERPRISE_SCHEMA],
      [ENTERPRISE_SCHEMA]: { department: department.name.toUpperCase() },
    });
    expect(byName[ENTERPRISE_SCHEMA]).toEqual({ department: department.name });
    expect((await api.get(`/v2/users/${byName.id}`)).body.department_id).toBe(department.id);
    const byId = await createUser({ schemas: [USER_SCHEMA, ENTERPRISE_SCHEMA], [ENTERPRISE_SCHEMA]: { department: department.id } });
    expect((await api.get(`/v2/users/${byId.id}`)).body.department_id).toBe(department.id);
    const newName = unique('Brand new ');
    const made = await createUser({ schemas: [USER_SCHEMA, ENTERPRISE_SCHEMA], [ENTERPRISE_SCHEMA]: { department: newName } });
    const madeDepartment = (await api.get(`/v2/users/${made.id}`)).body.department_id;
    expect((await api.get(`/v2/departments/${madeDepartment}`)).body.name).toBe(newName);
    const cleared = await scim.patch(
      `/Users/${byName.id}`,
      patchOps({ op: 'replace', path: `${ENTERPRISE_SCHEMA}:department`, value: '' }),
    );
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body[ENTERPRISE_SCHEMA]).toBeUndefined();
    expect((await api.get(`/v2/users/${byName.id}`)).body.department_id).toBeNull();
  });

  it('a move over a quota is 409 with the overage in detail, and nothing changes', async () => {
    const department = (await api.post('/v2/departments', { id: unique('d'), name: unique('Tiny ') })).body;
    expect((await api.put(`/v2/departments/${department.id}/quotas`, { name: 'users', limit: 1 })).status).toBe(200);
    await createUser({ schemas: [USER_SCHEMA, ENTERPRISE_SCHEMA], [ENTERPRISE_SCHEMA]: { department: department.id } });
    const second = await createUser({ displayName: 'ignored' });
    const moved = await scim.patch(
      `/Users/${second.id}`,
      patchOps(
        { op: 'replace', path: `${ENTERPRISE_SCHEMA}:department`, value: department.id },
        { op: 'replace', path: 'name.familyName', value: 'Changed' },
      ),
    );
    expectScimError(moved, 409);
    expect(moved.body.detail).toContain('users: limit 1, usage 1, requested 1');
    expect((await scim.get(`/Users/${second.id}`)).body.name.familyName).toBe('Lovelace');
    expect(await invariantViolations()).toEqual([]);
  });

  it('reactivation is checked against activated_users: 409, and the user stays deactivated', async () => {
    const department = (await api.post('/v2/departments', { id: unique('d'), name: unique('Active ') })).body;
    const inDepartment = { schemas: [USER_SCHEMA, ENTERPRISE_SCHEMA], [ENTERPRISE_SCHEMA]: { department: department.id } };
    await createUser(inDepartment);
    const sleeper = await createUser({ ...inDepartment, active: false });
    expect((await api.put(`/v2/departments/${department.id}/quotas`, { name: 'activated_users', limit: 1 })).status).toBe(200);
    const woken = await scim.patch(`/Users/${sleeper.id}`, patchOps({ op: 'Replace', path: 'active', value: 'True' }));
    expectScimError(woken, 409);
    expect(woken.body.detail).toContain('activated_users');
    expect((await scim.get(`/Users/${sleeper.id}`)).body.active).toBe(false);
  });

  it('PATCH as Entra writes it: capitalised op, string booleans, no path with dotted keys', async () => {
    const user = await createUser();
    const patched = await scim.patch(
      `/Users/${user.id}`,
      patchOps(
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
    const patched = await scim.patch(`/Users/${user.id}`, patchOps({ op: 'replace', value: { active: false } }));
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.active).toBe(false);
    // Still there, deactivated: read it and find it.
    expect((await scim.get(`/Users/${user.id}`)).body.active).toBe(false);
  });

  it('If-Match: a stale version is 412 and changes nothing; the current one works', async () => {
    const user = await createUser();
    const first = await scim.patch(`/Users/${user.id}`, patchOps({ op: 'replace', path: 'name.givenName', value: 'One' }), {
      'if-match': user.meta.version,
    });
    expect(first.status).toBe(200);
    expectScimError(
      await scim.patch(`/Users/${user.id}`, patchOps({ op: 'replace', path: 'name.givenName', value: 'Two' }), {
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
      patchOps({ op: 'replace', path: 'name.givenName', value: 'Changed' }, { op: 'replace', path: 'shoeSize', value: 9 }),
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
    const { id } = await scim.token();
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
      schemas: [GROUP_SCHEMA],
      displayName: name,
      externalId: unique('gx'),
      members: [{ value: a.id }],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.members).toEqual([{ value: a.id, display: a.userName, $ref: expect.stringContaining(`/Users/${a.id}`) }]);
    const id = created.body.id;
    expectScimError(await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: name.toLowerCase() }), 409, 'uniqueness');

    const found = await scim.get(
      `/Groups?filter=${encodeURIComponent(`displayName eq "${name.toUpperCase()}"`)}&excludedAttributes=members`,
    );
    expect(found.body.Resources).toEqual([expect.objectContaining({ id, displayName: name })]);
    expect(found.body.Resources[0].members).toBeUndefined();

    const added = await scim.patch(`/Groups/${id}`, patchOps({ op: 'Add', path: 'members', value: [{ value: b.id }, { value: c.id }] }));
    expect(added.status, added.text).toBe(204);
    expect((await api.get(`/v2/groups/${id}`)).body.user_count).toBe(3);

    const member = await scim.get(
      `/Groups?filter=${encodeURIComponent(`id eq "${id}" and members eq "${b.id}"`)}&excludedAttributes=members`,
    );
    expect(member.body.totalResults).toBe(1);

    const removed = await scim.patch(
      `/Groups/${id}`,
      patchOps({ op: 'Remove', path: 'members', value: [{ value: b.id }] }, { op: 'remove', path: `members[value eq "${c.id}"]` }),
    );
    expect(removed.status, removed.text).toBe(204);
    expect((await scim.get(`/Groups/${id}`)).body.members.map((m: { value: string }) => m.value)).toEqual([a.id]);

    expect((await scim.patch(`/Groups/${id}`, patchOps({ op: 'remove', path: 'members' }))).status).toBe(204);
    const empty = await scim.get(`/Groups/${id}`);
    expect(empty.body.members ?? []).toEqual([]);
    expect((await api.get(`/v2/groups/${id}`)).body.user_count).toBe(0);
    expect(await invariantViolations()).toEqual([]);
  });

  it('a retried member add or removal changes nothing the second time (identity providers retry)', async () => {
    const user = await createUser();
    const group = (await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: unique('Retry ') })).body;
    const add = () => scim.patch(`/Groups/${group.id}`, patchOps({ op: 'add', path: 'members', value: [{ value: user.id }] }));
    const remove = () => scim.patch(`/Groups/${group.id}`, patchOps({ op: 'remove', path: `members[value eq "${user.id}"]` }));
    expect([(await add()).status, (await add()).status]).toEqual([204, 204]);
    expect((await api.get(`/v2/groups/${group.id}`)).body.user_count).toBe(1);
    expect([(await remove()).status, (await remove()).status]).toEqual([204, 204]);
    expect((await api.get(`/v2/groups/${group.id}`)).body.user_count).toBe(0);
    // A retried PUT that names the members the group has changes nothing of them (it once looped on its own adds).
    const put = () =>
      scim.put(`/Groups/${group.id}`, { schemas: [GROUP_SCHEMA], displayName: group.displayName, members: [{ value: user.id }] });
    expect([(await put()).status, (await put()).status]).toEqual([200, 200]);
    expect((await api.get(`/v2/groups/${group.id}`)).body.user_count).toBe(1);
    // A retried create after a lost answer finds the user taken, and creates no second one.
    const body = userBody();
    expect((await scim.post('/Users', body)).status).toBe(201);
    expectScimError(await scim.post('/Users', body), 409, 'uniqueness');
    expect(await invariantViolations()).toEqual([]);
  });

  it('an unknown member fails the whole PATCH', async () => {
    const a = await createUser();
    const created = await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: unique('G ') });
    const failed = await scim.patch(
      `/Groups/${created.body.id}`,
      patchOps({ op: 'add', path: 'members', value: [{ value: a.id }] }, { op: 'add', path: 'members', value: [{ value: 'nobody-here' }] }),
    );
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(failed.status).toBeLessThan(500);
    expect((await api.get(`/v2/groups/${created.body.id}`)).body.user_count).toBe(0);
  });

  it('a PATCH of more members than one transaction holds applies whole (written in steps, switched at once)', async () => {
    const users = await Promise.all(Array.from({ length: DEFAULT_GROUP_TUNING.singleTransactionMemberChanges + 6 }, () => createUser()));
    const group = (
      await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: unique('Large '), members: [{ value: users[0].id }] })
    ).body;
    const patched = await scim.patch(
      `/Groups/${group.id}`,
      patchOps(
        { op: 'Add', path: 'members', value: users.slice(1).map((u) => ({ value: u.id })) },
        { op: 'Remove', path: `members[value eq "${users[0].id}"]` },
      ),
    );
    expect(patched.status, patched.text).toBe(204);
    const after = await scim.get(`/Groups/${group.id}`);
    expect(after.body.members.map((m: { value: string }) => m.value).sort()).toEqual(
      users
        .slice(1)
        .map((u) => u.id)
        .sort(),
    );
    expect(after.body.meta.version).not.toBe(group.meta.version);
    expect((await api.get(`/v2/groups/${group.id}`)).body.user_count).toBe(DEFAULT_GROUP_TUNING.singleTransactionMemberChanges + 5);
    // One unknown member among as many: the whole PATCH fails and nothing changes.
    const failed = await scim.patch(
      `/Groups/${group.id}`,
      patchOps(
        { op: 'remove', path: 'members' },
        {
          op: 'add',
          path: 'members',
          value: [...users.map((u) => ({ value: u.id })), { value: 'nobody-here' }],
        },
      ),
    );
    expectScimError(failed, 404);
    expect((await api.get(`/v2/groups/${group.id}`)).body.user_count).toBe(DEFAULT_GROUP_TUNING.singleTransactionMemberChanges + 5);
    expect(await invariantViolations()).toEqual([]);
  });

  it('PATCH renames; attributes asks for the group back; DELETE', async () => {
    const created = await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: unique('Old ') });
    const renamed = await scim.patch(
      `/Groups/${created.body.id}?attributes=displayName`,
      patchOps({ op: 'replace', path: 'displayName', value: 'Renamed ' + created.body.id }),
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

  it('lists every user, members of a department first, then the others, each by name: walked and by offset alike', async () => {
    const department = (await api.post('/v2/departments', { id: unique('d'), name: unique('Paged ') })).body;
    for (let i = 0; i < 3; i++) {
      // Members named after the others: by name alone, the others would come first.
      const member = await createUser({ name: { givenName: 'M', familyName: `${unique('Zulu')}` } });
      expect((await api.post(`/v2/departments/${department.id}/users/${member.id}`)).status).toBe(200);
      await createUser({ name: { givenName: 'O', familyName: `${unique('Alpha')}` } });
    }
    const everyone = await api.get('/v2/users?count=1000');
    expect(everyone.body.total).toBeLessThan(1000);
    type Listed = { id: string; last_name: string; department_id: string | null };
    const byName = (a: Listed, b: Listed) => compareCodePoints(nameSortKey(a.last_name, a.id), nameSortKey(b.last_name, b.id));
    const users: Listed[] = everyone.body.users;
    const members = users.filter((u) => u.department_id).sort(byName);
    const expected = [...members, ...users.filter((u) => !u.department_id).sort(byName)].map((u) => u.id);

    // Walked page after page (each page keeps where the next starts).
    const walker = scimClient(api);
    const walked: string[] = [];
    for (let start = 1; ; start += 4) {
      const page = await walker.get(`/Users?startIndex=${start}&count=4&attributes=userName`);
      expect(page.status, page.text).toBe(200);
      expect(page.body.totalResults).toBe(expected.length);
      walked.push(...page.body.Resources.map((r: { id: string }) => r.id));
      if (page.body.Resources.length < 4) break;
    }
    expect(walked).toEqual(expected);

    // Asked at once by another client (no kept cursor: an offset), around where the members end.
    const jumper = scimClient(api);
    for (const start of [2, members.length - 1, members.length, members.length + 1, members.length + 2, expected.length]) {
      const page = await jumper.get(`/Users?startIndex=${start}&count=3&attributes=userName`);
      expect(page.status, page.text).toBe(200);
      expect(
        page.body.Resources.map((r: { id: string }) => r.id),
        `startIndex=${start}`,
      ).toEqual(expected.slice(start - 1, start + 2));
    }
  });

  it('count=0 answers only the total', async () => {
    const page = await scim.get('/Users?count=0');
    expect(page.body.itemsPerPage).toBe(0);
    expect(page.body.totalResults).toBeGreaterThan(0);
  });
});

describe('races against DynamoDB Local', () => {
  it('ten creations of one userName in different cases: exactly one 201, the others 409 uniqueness', async () => {
    const name = `${unique('race')}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => scim.post('/Users', userBody({ userName: i % 2 ? name.toUpperCase() : name }))),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    expect(await invariantViolations()).toEqual([]);
  });

  it('two PATCHes with the same If-Match: one applies, the other is 412', async () => {
    const user = await createUser();
    const answers = await Promise.all(
      ['First', 'Second'].map((name) =>
        scim.patch(`/Users/${user.id}`, patchOps({ op: 'replace', path: 'name.givenName', value: name }), {
          'if-match': user.meta.version,
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
    const winner = answers.find((a) => a.status === 200)!.body.name.givenName;
    expect((await scim.get(`/Users/${user.id}`)).body.name.givenName).toBe(winner);
  });

  it('an identity provider and an administrator filling one department at once never pass its quota', async () => {
    const department = (await api.post('/v2/departments', { id: unique('d'), name: unique('Race ') })).body;
    expect((await api.put(`/v2/departments/${department.id}/quotas`, { name: 'users', limit: 5 })).status).toBe(200);
    const users = await Promise.all(Array.from({ length: 12 }, () => createUser()));
    const answers = await Promise.all(
      users.map((user, i) =>
        i % 2
          ? scim.patch(`/Users/${user.id}`, patchOps({ op: 'replace', path: `${ENTERPRISE_SCHEMA}:department`, value: department.name }))
          : api.post(`/v2/departments/${department.id}/users/${user.id}`),
      ),
    );
    // A loser is refused for the quota, or told to retry after a concurrent change won (409 either way).
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect((await api.get(`/v2/departments/${department.id}`)).body.user_count).toBe(5);
    expect(await invariantViolations()).toEqual([]);
  });

  it('members added and removed by the identity provider while an administrator deletes users stay consistent', async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => createUser()));
    const group = (await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: unique('Churn ') })).body;
    await Promise.all([
      ...users.map((user) => scim.patch(`/Groups/${group.id}`, patchOps({ op: 'add', path: 'members', value: [{ value: user.id }] }))),
      ...users.slice(0, 3).map((user) => api.delete(`/v2/users/${user.id}`)),
    ]);
    const members = ((await scim.get(`/Groups/${group.id}`)).body.members ?? []).map((m: { value: string }) => m.value).sort();
    expect(members).toEqual(
      users
        .slice(3)
        .map((user) => user.id)
        .sort(),
    );
    expect(await invariantViolations()).toEqual([]);
  });
});

describe('answers against the schemas the service publishes', () => {
  interface PublishedAttribute {
    name: string;
    type: string;
    multiValued: boolean;
    subAttributes?: PublishedAttribute[];
  }
  const typeOf = (value: unknown) => (typeof value === 'object' && value !== null ? 'complex' : typeof value);

  /** Every attribute of `resource` is one its schema lists, with the listed type and plurality. */
  function conforms(resource: Record<string, unknown>, attributes: PublishedAttribute[], where: string): string[] {
    const wrong: string[] = [];
    for (const [key, value] of Object.entries(resource)) {
      const attribute = attributes.find((a) => a.name === key);
      if (!attribute) {
        wrong.push(`${where}${key}: not in the published schema`);
        continue;
      }
      const values = attribute.multiValued ? (Array.isArray(value) ? value : [Symbol('not an array')]) : [value];
      for (const item of values) {
        const expected = attribute.type === 'reference' || attribute.type === 'dateTime' ? 'string' : attribute.type;
        if (typeOf(item) !== expected) wrong.push(`${where}${key}: ${typeOf(item)}, published ${attribute.type}`);
        else if (expected === 'complex')
          wrong.push(...conforms(item as Record<string, unknown>, attribute.subAttributes ?? [], `${where}${key}.`));
      }
    }
    return wrong;
  }

  it('users and groups hold only attributes of /Schemas, of the published types', async () => {
    const schemas = (await scim.get('/Schemas')).body.Resources as Array<{ id: string; attributes: PublishedAttribute[] }>;
    const attributesOf = (id: string) => schemas.find((schema) => schema.id === id)!.attributes;
    const department = (await api.post('/v2/departments', { id: unique('d'), name: unique('Schema ') })).body;
    const user = await createUser({
      externalId: unique('x'),
      roles: [{ value: 'admin', primary: true }],
      schemas: [USER_SCHEMA, ENTERPRISE_SCHEMA],
      [ENTERPRISE_SCHEMA]: { department: department.id },
    });
    const group = (
      await scim.post('/Groups', {
        schemas: [GROUP_SCHEMA],
        displayName: unique('Schema '),
        externalId: unique('gx'),
        members: [{ value: user.id }],
      })
    ).body;
    const { schemas: _u, meta: _m, [ENTERPRISE_SCHEMA]: extension, ...core } = user;
    const { schemas: _g, meta: _n, ...groupCore } = group;
    expect([
      ...conforms(core, attributesOf(USER_SCHEMA), 'User.'),
      ...conforms(extension, attributesOf(ENTERPRISE_SCHEMA), 'EnterpriseUser.'),
      ...conforms(groupCore, attributesOf(GROUP_SCHEMA), 'Group.'),
    ]).toEqual([]);
    // And every attribute the User schema lists is answered (none is published that the service never returns).
    expect(
      attributesOf(USER_SCHEMA)
        .map((a) => a.name)
        .filter((name) => !(name in core)),
    ).toEqual([]);
  });
});
