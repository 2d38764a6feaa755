/**
 * SCIM writes are held to the admin API's field rules (lib/schemas), whatever
 * the dialect: a value out of its rules is a 400 `invalidValue` naming the
 * SCIM attribute, a malformed body a 400 `invalidSyntax`, an id no resource
 * can have a 404 — never a 201 that stores it, nor a 500 from a DynamoDB key
 * too large. Each refusal leaves nothing stored.
 */
import { describe, expect, it } from 'vitest';
import { READ_TOKEN, useApi, type ApiResponse } from '../support/api';
import { unique } from '../support/fixtures';
import { ENTERPRISE_SCHEMA, expectScimError, filterQuery, GROUP_SCHEMA, patchOps, scimClient, USER_SCHEMA } from '../support/scim';

const api = useApi();
const scim = scimClient(api);

function userBody(fields: Record<string, unknown> = {}) {
  const name = unique('val');
  return {
    schemas: [USER_SCHEMA, ENTERPRISE_SCHEMA],
    userName: `${name}@example.com`,
    name: { givenName: 'Ada', familyName: 'Lovelace' },
    emails: [{ value: `${name}@example.com`, type: 'work', primary: true }],
    ...fields,
  };
}
const groupBody = (fields: Record<string, unknown> = {}) => ({ schemas: [GROUP_SCHEMA], displayName: unique('Val group '), ...fields });

async function createScimUser() {
  const response = await scim.post('/Users', userBody());
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string; userName: string; meta: { version: string } };
}
async function createScimGroup(members: string[] = []) {
  const response = await scim.post('/Groups', groupBody({ members: members.map((value) => ({ value })) }));
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string; displayName: string; meta: { version: string } };
}

/** How many users, groups and departments the service holds: what a refused request must leave as it was. */
async function stored(): Promise<Record<string, number>> {
  const total = async (path: string) => {
    const response = await api.get(`${path}?count=1`, { token: READ_TOKEN });
    expect(response.status, response.text).toBe(200);
    return response.body.total as number;
  };
  return { users: await total('/v2/users'), groups: await total('/v2/groups'), departments: await total('/v2/departments') };
}

/** A 400 `invalidValue` whose detail names the SCIM attribute and the rule. */
function expectInvalidValue(response: ApiResponse, detail: string | RegExp): void {
  expectScimError(response, 400, 'invalidValue');
  expect(response.body.detail).toMatch(detail);
}

const LONG = (length: number, char = 'x') => char.repeat(length);

describe("the review's inputs, refused with nothing stored", () => {
  it.each([
    {
      name: 'an e-mail that is none',
      fields: { emails: [{ value: 'not-an-email', primary: true }] },
      detail: 'emails.value: must be an e-mail address',
    },
    {
      name: 'the sort-key separator in givenName',
      fields: { name: { givenName: 'A\u0001B', familyName: 'L' } },
      detail: 'name.givenName: must not contain control characters',
    },
    {
      name: 'CRLF in familyName',
      fields: { name: { givenName: 'A', familyName: 'Love\r\nlace' } },
      detail: 'name.familyName: must not contain control characters',
    },
    {
      name: 'a 300 KB givenName',
      fields: { name: { givenName: LONG(300_000), familyName: 'L' } },
      detail: 'name.givenName: must be at most 200 characters',
    },
    { name: 'a 3,000-character userName', fields: { userName: LONG(3000) }, detail: 'userName: must be at most 255 characters' },
    {
      name: 'a 1,500-character familyName',
      fields: { name: { givenName: 'A', familyName: LONG(1500) } },
      detail: 'name.familyName: must be at most 200 characters',
    },
    {
      name: 'a 1,500-character department',
      fields: { [ENTERPRISE_SCHEMA]: { department: LONG(1500) } },
      detail: `${ENTERPRISE_SCHEMA}:department: must be at most 200 characters`,
    },
    { name: 'a 3,000-character externalId', fields: { externalId: LONG(3000) }, detail: 'externalId: must be at most 255 characters' },
    { name: 'emails that are not a list', fields: { emails: {} }, detail: 'emails must be a list' },
  ])('POST /Users with $name: 400 invalidValue', async ({ fields, detail }) => {
    const before = await stored();
    expectInvalidValue(await scim.post('/Users', userBody(fields)), detail);
    expect(await stored()).toEqual(before);
  });

  it('PUT and PATCH of a user are held to the same rules, and leave the user as it was', async () => {
    const user = await createScimUser();
    const before = await stored();
    expectInvalidValue(await scim.put(`/Users/${user.id}`, userBody({ userName: LONG(3000) })), 'userName: must be at most 255 characters');
    expectInvalidValue(
      await scim.put(`/Users/${user.id}`, userBody({ [ENTERPRISE_SCHEMA]: { department: `Eng\u0001` } })),
      `${ENTERPRISE_SCHEMA}:department: must not contain control characters`,
    );
    const patches = [
      { op: 'replace', path: 'name.givenName', value: 'A\u0001' },
      { op: 'replace', value: { 'name.familyName': LONG(1500) } }, // Entra's path-less dotted key
      { op: 'replace', path: 'emails[type eq "work"].value', value: 'not-an-email' },
      { op: 'replace', path: 'userName', value: LONG(3000) },
      { op: 'add', path: `${ENTERPRISE_SCHEMA}:department`, value: LONG(1500) },
      { op: 'replace', path: 'externalId', value: 'a\r\nb' },
    ];
    for (const operation of patches) {
      const response = await scim.patch(`/Users/${user.id}`, patchOps(operation));
      expectScimError(response, 400, 'invalidValue');
    }
    const after = await scim.get(`/Users/${user.id}`);
    expect(after.body.meta.version).toBe(user.meta.version);
    expect(after.body.userName).toBe(user.userName);
    expect(await stored()).toEqual(before);
  });

  it('a group: displayName, externalId and members by the rules of G3, on POST, PUT and PATCH', async () => {
    const member = await createScimUser();
    const group = await createScimGroup([member.id]);
    const before = await stored();
    const badMember = { value: LONG(3000, 'm') };
    expectInvalidValue(await scim.post('/Groups', groupBody({ displayName: LONG(1500) })), 'displayName: must be at most 200 characters');
    expectInvalidValue(
      await scim.post('/Groups', groupBody({ displayName: 'Eng\r\nOps' })),
      'displayName: must not contain control characters',
    );
    expectInvalidValue(await scim.post('/Groups', groupBody({ externalId: LONG(3000) })), 'externalId: must be at most 255 characters');
    expectInvalidValue(
      await scim.post('/Groups', groupBody({ members: [{ value: member.id }, badMember] })),
      /^members\[value eq "m{64}… \(3000 characters\)"\]: must be 1–64 characters/,
    );
    expectInvalidValue(await scim.put(`/Groups/${group.id}`, groupBody({ members: [badMember] })), 'members[value eq');
    expectInvalidValue(await scim.put(`/Groups/${group.id}`, groupBody({ displayName: LONG(201) })), 'displayName: must be at most 200');
    for (const operation of [
      { op: 'add', path: 'members', value: [badMember] },
      { op: 'remove', path: 'members', value: [{ value: 'a.b' }] },
      { op: 'remove', path: `members[value eq "${LONG(400)}"]` },
      { op: 'replace', path: 'displayName', value: LONG(1500) },
      { op: 'replace', path: 'externalId', value: 'x\u0001' },
    ]) {
      expectScimError(await scim.patch(`/Groups/${group.id}`, patchOps(operation)), 400, 'invalidValue');
    }
    const after = await scim.get(`/Groups/${group.id}`);
    expect(after.body.meta.version).toBe(group.meta.version);
    expect(after.body.members.map((m: { value: string }) => m.value)).toEqual([member.id]);
    expect(await stored()).toEqual(before);
  });

  it('a member list over what G3 takes is refused before any read', async () => {
    const members = Array.from({ length: 20_001 }, (_, i) => ({ value: `u${i}` }));
    expectInvalidValue(await scim.post('/Groups', groupBody({ members })), 'members: must list at most 20000 ids');
  });

  it('an id in a SCIM path that no resource can have is a 404, for every method', async () => {
    const user = await createScimUser();
    const group = await createScimGroup();
    for (const bad of [LONG(3000), LONG(65), 'a.b', 'é']) {
      const id = encodeURIComponent(bad);
      expectScimError(await scim.get(`/Users/${id}`), 404);
      expectScimError(await scim.put(`/Users/${id}`, userBody()), 404);
      expectScimError(await scim.patch(`/Users/${id}`, patchOps({ op: 'replace', path: 'active', value: false })), 404);
      expectScimError(await scim.delete(`/Users/${id}`), 404);
      expectScimError(await scim.get(`/Groups/${id}`), 404);
      expectScimError(await scim.put(`/Groups/${id}`, groupBody()), 404);
      expectScimError(await scim.patch(`/Groups/${id}`, patchOps({ op: 'add', path: 'members', value: [{ value: user.id }] })), 404);
      expectScimError(await scim.delete(`/Groups/${id}`), 404);
    }
    // The admin API's paths refuse it too (400: the contract's path rule), never a 500.
    expect((await api.get(`/v2/users/${LONG(3000)}`, { token: READ_TOKEN })).status).toBe(400);
    expect((await api.get(`/v2/groups/${LONG(3000)}`, { token: READ_TOKEN })).status).toBe(400);
    expect((await scim.get(`/Groups/${group.id}`)).status).toBe(200);
  });

  it('a filter by a value no resource can hold finds nothing (no look-up by a key too large)', async () => {
    for (const filter of [
      `userName eq "${LONG(1900)}"`,
      `externalId eq "${LONG(1900)}"`,
      `id eq "${LONG(1900)}"`,
      `emails[type eq "work"].value eq "${LONG(1900)}@example.com"`,
      `name.familyName sw "${LONG(1500)}"`,
    ]) {
      const response = await scim.get(`/Users?${filterQuery(filter)}`);
      expect(response.status, `${filter.slice(0, 40)}: ${response.text}`).toBe(200);
      expect(response.body.totalResults).toBe(0);
    }
    for (const filter of [`displayName eq "${LONG(1900)}"`, `externalId eq "${LONG(1900)}"`, `id eq "${LONG(1900)}"`]) {
      const response = await scim.get(`/Groups?${filterQuery(filter)}`);
      expect(response.status, `${filter.slice(0, 40)}: ${response.text}`).toBe(200);
      expect(response.body.totalResults).toBe(0);
    }
  });
});

describe('malformed bodies and ignored attributes', () => {
  it('a body that is not JSON, or not an object, is 400 invalidSyntax', async () => {
    const { token } = await scim.token();
    for (const raw of ['{"userName": ', '[]', '"ada"']) {
      const response = await api.request('POST', '/scim/v2/Users', {
        token,
        rawBody: raw,
        headers: { 'content-type': 'application/scim+json' },
      });
      expectScimError(response, 400, 'invalidSyntax');
    }
  });

  it('attributes the service ignores are accepted in a dialect, but bounded by the 1 MiB body limit', async () => {
    const before = await stored();
    const ignored = { displayName: 'Ada L.', title: 'Countess', phoneNumbers: [{ value: '+44 1', type: 'work' }] };
    const created = await scim.post('/Users', userBody({ ...ignored, active: 'True' }));
    expect(created.status, created.text).toBe(201);
    expect(created.body.active).toBe(true);
    expectScimError(await scim.post('/Users', userBody({ title: LONG(1_100_000) })), 413);
    expect((await stored()).users).toBe(before.users + 1);
  });
});

/**
 * Each field refused by one door is refused by the other: the admin API's
 * request (400 `validation`) and the SCIM attribute it maps to (400
 * `invalidValue` naming it); the longest value the rule allows passes both.
 */
describe('SCIM and the admin API refuse the same values', () => {
  type Case = {
    field: string;
    bad: unknown[];
    /** The longest value allowed, one per door (accepted by both: held to one bound, not merely to some bound below); none where that is no plain text. */
    longest?: (char: string) => string;
    admin: (value: unknown) => { path: string; body: Record<string, unknown> };
    scim: (value: unknown) => { path: string; body: Record<string, unknown> };
    attribute: string;
  };
  const adminUser = (fields: Record<string, unknown>) => ({
    path: '/v2/users',
    body: { email: `${unique('adm')}@example.com`, last_name: 'Lovelace', ...fields },
  });
  const cases: Case[] = [
    {
      field: 'email',
      bad: ['not-an-email', 'ada@', `${LONG(250)}@example.com`, 'a b@example.com'],
      longest: (char) => `${LONG(64, char)}@${LONG(63, 'b')}.${LONG(63, 'c')}.${LONG(58, 'd')}.io`,
      admin: (email) => adminUser({ email }),
      scim: (email) => ({ path: '/Users', body: userBody({ emails: [{ value: email, primary: true }] }) }),
      attribute: 'emails.value',
    },
    {
      field: 'first_name',
      bad: [LONG(201), 'A\u0001', 'A\r\nB', 'A\u007f'],
      longest: (char) => LONG(200, char),
      admin: (first_name) => adminUser({ first_name }),
      scim: (givenName) => ({ path: '/Users', body: userBody({ name: { givenName, familyName: 'L' } }) }),
      attribute: 'name.givenName',
    },
    {
      field: 'last_name',
      bad: [LONG(201), 'L\u0000', 'L\t'],
      longest: (char) => LONG(200, char),
      admin: (last_name) => adminUser({ last_name }),
      scim: (familyName) => ({ path: '/Users', body: userBody({ name: { givenName: 'A', familyName } }) }),
      attribute: 'name.familyName',
    },
    {
      field: 'user_name',
      bad: [LONG(256), 'ada\u0001', 'ada\n'],
      longest: (char) => LONG(255, char),
      admin: (user_name) => adminUser({ user_name }),
      scim: (userName) => ({ path: '/Users', body: userBody({ userName }) }),
      attribute: 'userName',
    },
    {
      field: 'external_id',
      bad: [LONG(256), 'okta\u0001', 'okta\r\n1'],
      longest: (char) => LONG(255, char),
      admin: (external_id) => adminUser({ external_id }),
      scim: (externalId) => ({ path: '/Users', body: userBody({ externalId }) }),
      attribute: 'externalId',
    },
    {
      field: 'account_role',
      bad: ['owner', 'Admin'],
      admin: (account_role) => adminUser({ account_role }),
      scim: (value) => ({ path: '/Users', body: userBody({ roles: [{ value, primary: true }] }) }),
      attribute: 'roles.value',
    },
    {
      field: 'department name',
      bad: [LONG(201), 'Eng\u0001', 'Eng\r\nOps'],
      longest: (char) => LONG(200, char),
      admin: (name) => ({ path: '/v2/departments', body: { name } }),
      scim: (department) => ({ path: '/Users', body: userBody({ [ENTERPRISE_SCHEMA]: { department } }) }),
      attribute: `${ENTERPRISE_SCHEMA}:department`,
    },
    {
      field: 'group name',
      bad: [LONG(201), 'G\u0001', 'G\r\n'],
      longest: (char) => LONG(200, char),
      admin: (name) => ({ path: '/v2/groups', body: { name } }),
      scim: (displayName) => ({ path: '/Groups', body: groupBody({ displayName }) }),
      attribute: 'displayName',
    },
    {
      field: 'group external_id',
      bad: [LONG(256), 'g\u0001'],
      longest: (char) => LONG(255, char),
      admin: (external_id) => ({ path: '/v2/groups', body: { name: unique('G '), external_id } }),
      scim: (externalId) => ({ path: '/Groups', body: groupBody({ externalId }) }),
      attribute: 'externalId',
    },
    {
      field: 'group user id',
      bad: [LONG(65), 'a.b', 'a b', 'é'],
      admin: (id) => ({ path: '/v2/groups', body: { name: unique('G '), user_ids: [id] } }),
      scim: (value) => ({ path: '/Groups', body: groupBody({ members: [{ value }] }) }),
      attribute: 'members[value eq',
    },
  ];

  it.each(cases)('$field', async ({ bad, longest, admin, scim: viaScim, attribute }) => {
    for (const value of bad) {
      const label = JSON.stringify(value).slice(0, 40);
      const byAdmin = admin(value);
      const refused = await api.post(byAdmin.path, byAdmin.body);
      expect(refused.status, `admin API, ${label}: ${refused.text}`).toBe(400);
      const byScim = viaScim(value);
      const response = await scim.post(byScim.path, byScim.body);
      expect(response.status, `SCIM, ${label}: ${response.text}`).toBe(400);
      expect(response.body.scimType).toBe('invalidValue');
      expect(response.body.detail.startsWith(attribute), response.body.detail).toBe(true);
    }
    if (longest === undefined) return;
    const byAdmin = admin(longest('a'));
    const accepted = await api.post(byAdmin.path, byAdmin.body);
    expect(accepted.status, `admin API: ${accepted.text}`).toBe(201);
    const byScim = viaScim(longest('z'));
    const created = await scim.post(byScim.path, byScim.body);
    expect(created.status, `SCIM: ${created.text}`).toBe(201);
  });
});
