/**
 * Microsoft Entra ID's provisioning client, request by request as Microsoft
 * documents it ("Tutorial: Develop and plan provisioning for a SCIM
 * endpoint", its request/response examples, and "Known issues and
 * resolutions with SCIM 2.0 compliance", with and without the
 * `aadOptscim062020` flag): the connection test with a random userName,
 * users with the enterprise extension, PATCH with capitalised `op`, string
 * booleans, value-filter paths and path-less values keyed by paths,
 * attributes the service does not keep (`title`, phone numbers, `manager`),
 * groups found by `displayName` and by `id … and members eq …`, members
 * added and removed by value with `$ref: null`, and deprovisioning.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { unique } from '../support/fixtures';
import { invariantViolations } from '../support/invariants';
import {
  ENTERPRISE_SCHEMA,
  expectScimError,
  filterQuery,
  GROUP_SCHEMA,
  LIST_SCHEMA,
  patchOps,
  scimClient,
  USER_SCHEMA,
} from '../support/scim';

const api = useApi();
const entra = scimClient(api);
/** The same client with the tenant URL Microsoft recommends, `…/scim/v2?aadOptscim062020`. */
const flagged = scimClient(api, { flag: 'aadOptscim062020' });

/** The user of Microsoft's tutorial ("Create User" request), with a fresh userName. */
function entraUser(department?: string) {
  const userName = `Test_User_${randomUUID()}@testuser.com`;
  return {
    schemas: [USER_SCHEMA, ENTERPRISE_SCHEMA],
    externalId: randomUUID(),
    userName,
    active: true,
    emails: [{ primary: true, type: 'work', value: userName }],
    meta: { resourceType: 'User' },
    name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
    roles: [],
    ...(department ? { [ENTERPRISE_SCHEMA]: { department } } : {}),
  };
}

async function createEntraUser(department?: string) {
  const response = await entra.post('/Users', entraUser(department));
  expect(response.status, response.text).toBe(201);
  return response.body;
}

describe('Entra: connection and users', () => {
  it('answers the connection test (a random userName) with an empty ListResponse', async () => {
    const response = await entra.get(`/Users?${filterQuery(`userName eq "${randomUUID()}"`)}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ schemas: [LIST_SCHEMA], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });
  });

  it('creates a user with the enterprise department, then finds it by externalId and by userName', async () => {
    const department = unique('Sales ');
    const body = entraUser(department);
    const created = await entra.post('/Users', body);
    expect(created.status, created.text).toBe(201);
    expect(created.body[ENTERPRISE_SCHEMA]).toEqual({ department });
    expect(created.body.name).toEqual({ givenName: 'givenName', familyName: 'familyName' });
    for (const filter of [`externalId eq "${body.externalId}"`, `userName eq "${body.userName}"`]) {
      const found = await entra.get(`/Users?${filterQuery(filter)}`);
      expect(
        found.body.Resources.map((user: { id: string }) => user.id),
        filter,
      ).toEqual([created.body.id]);
    }
  });

  it('PATCHes as Entra writes by default: Replace/Add, value-filter paths, string booleans, unkept attributes', async () => {
    const user = await createEntraUser();
    const patched = await entra.patch(
      `/Users/${user.id}`,
      patchOps(
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@microsoft.com' },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
        { op: 'Add', path: 'title', value: 'Manager' },
        { op: 'Add', path: 'phoneNumbers[type eq "work"].value', value: '+1 555 0100' },
        { op: 'Add', path: `${ENTERPRISE_SCHEMA}:manager`, value: 'some-manager-id' },
        { op: 'Add', path: `${ENTERPRISE_SCHEMA}:employeeNumber`, value: '701984' },
        { op: 'Replace', path: 'active', value: 'True' },
      ),
    );
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      emails: [{ value: 'updatedEmail@microsoft.com', type: 'work', primary: true }],
      name: { familyName: 'updatedFamilyName' },
      active: true,
    });
    expect(patched.body.title).toBeUndefined();
  });

  it('PATCHes without a path, with keys that are paths (Entra before aadOptscim062020)', async () => {
    const user = await createEntraUser();
    const patched = await entra.patch(
      `/Users/${user.id}`,
      patchOps({
        op: 'Add',
        value: { 'name.givenName': 'Barbara', 'name.familyName': 'Jensen', 'emails[type eq "work"].value': 'bjensen@example.com' },
      }),
    );
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.name).toEqual({ givenName: 'Barbara', familyName: 'Jensen' });
    expect(patched.body.emails[0].value).toBe('bjensen@example.com');
  });

  it('moves a user between departments by name, and out of any by removing the attribute', async () => {
    const first = unique('Ops ');
    const second = unique('Finance ');
    const user = await createEntraUser(first);
    const moved = await entra.patch(
      `/Users/${user.id}`,
      patchOps({ op: 'Replace', path: `${ENTERPRISE_SCHEMA}:department`, value: second }),
    );
    expect(moved.body[ENTERPRISE_SCHEMA]).toEqual({ department: second });
    const out = await entra.patch(`/Users/${user.id}`, patchOps({ op: 'Remove', path: `${ENTERPRISE_SCHEMA}:department` }));
    expect(out.status, out.text).toBe(200);
    expect((await api.get(`/v2/users/${user.id}`)).body.department_id).toBeNull();
    expect(await invariantViolations()).toEqual([]);
  });

  it('deprovisions: active "False", the user is still there and reads back deactivated; then DELETE', async () => {
    const user = await createEntraUser();
    const disabled = await entra.patch(`/Users/${user.id}`, patchOps({ op: 'Replace', path: 'active', value: 'False' }));
    expect(disabled.status, disabled.text).toBe(200);
    expect((await entra.get(`/Users/${user.id}`)).body.active).toBe(false);
    expect((await entra.delete(`/Users/${user.id}`)).status).toBe(204);
    expectScimError(await entra.get(`/Users/${user.id}`), 404);
  });

  it('refuses a userName change onto a taken one with 409 uniqueness, and changes nothing', async () => {
    const [a, b] = [await createEntraUser(), await createEntraUser()];
    const clash = await entra.patch(
      `/Users/${b.id}`,
      patchOps({ op: 'Replace', path: 'name.givenName', value: 'Changed' }, { op: 'Replace', path: 'userName', value: a.userName }),
    );
    expectScimError(clash, 409, 'uniqueness');
    expect((await entra.get(`/Users/${b.id}`)).body.name.givenName).toBe('givenName');
  });
});

describe('Entra with ?aadOptscim062020 in its tenant URL', () => {
  it('sends the flag on every request: look-up, create, RFC 7644 PATCH, roles by value filter, delete', async () => {
    expect((await flagged.get(`/Users?${filterQuery(`userName eq "${randomUUID()}"`)}`)).body.totalResults).toBe(0);
    const created = await flagged.post('/Users', entraUser(unique('Flagged ')));
    expect(created.status, created.text).toBe(201);
    const patched = await flagged.patch(
      `/Users/${created.body.id}`,
      patchOps({ op: 'replace', path: 'active', value: false }, { op: 'add', path: 'roles[primary eq "True"].value', value: 'manager' }),
    );
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ active: false, roles: [{ value: 'manager', primary: true }] });
    expect((await api.get(`/v2/users/${created.body.id}`)).body.account_role).toBe('manager');
    expect((await flagged.delete(`/Users/${created.body.id}`)).status).toBe(204);
  });
});

describe('Entra: groups', () => {
  it('creates, finds by displayName without members, adds with $ref null, checks membership, removes by value, renames', async () => {
    const [a, b] = [await createEntraUser(), await createEntraUser()];
    const displayName = `Group_${randomUUID()}`;
    const created = await entra.post('/Groups', {
      externalId: randomUUID(),
      displayName,
      meta: { resourceType: 'Group' },
      schemas: [GROUP_SCHEMA],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;

    const found = await entra.get(`/Groups?excludedAttributes=members&${filterQuery(`displayName eq "${displayName}"`)}`);
    expect(found.body.Resources).toEqual([expect.objectContaining({ id, displayName })]);
    expect(found.body.Resources[0].members).toBeUndefined();

    const added = await entra.patch(
      `/Groups/${id}`,
      patchOps({
        op: 'Add',
        path: 'members',
        value: [
          { $ref: null, value: a.id },
          { $ref: null, value: b.id },
        ],
      }),
    );
    expect(added.status, added.text).toBe(204);

    const isMember = (user: string) =>
      entra.get(`/Groups?excludedAttributes=members&${filterQuery(`id eq "${id}" and members eq "${user}"`)}`);
    expect((await isMember(a.id)).body.totalResults).toBe(1);

    const removed = await entra.patch(`/Groups/${id}`, patchOps({ op: 'Remove', path: 'members', value: [{ $ref: null, value: a.id }] }));
    expect(removed.status, removed.text).toBe(204);
    expect((await isMember(a.id)).body.totalResults).toBe(0);
    expect((await isMember(b.id)).body.totalResults).toBe(1);

    const renamed = await entra.patch(`/Groups/${id}`, patchOps({ op: 'Replace', path: 'displayName', value: `${displayName} (renamed)` }));
    expect(renamed.status, renamed.text).toBe(204);
    expect((await api.get(`/v2/groups/${id}`)).body.name).toBe(`${displayName} (renamed)`);

    const cleared = await entra.patch(`/Groups/${id}`, patchOps({ op: 'Remove', path: 'members' }));
    expect(cleared.status).toBe(204);
    expect((await api.get(`/v2/groups/${id}`)).body.user_count).toBe(0);
    expect(await invariantViolations()).toEqual([]);
  });

  it('adds many members in one PATCH, all or nothing', async () => {
    const users = await Promise.all(Array.from({ length: 8 }, () => createEntraUser()));
    const created = await entra.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: `Bulk_${randomUUID()}` });
    const values = users.map((user) => ({ $ref: null, value: user.id }));
    const failed = await entra.patch(
      `/Groups/${created.body.id}`,
      patchOps({ op: 'Add', path: 'members', value: [...values, { value: 'deleted-user' }] }),
    );
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(failed.status).toBeLessThan(500);
    expect((await api.get(`/v2/groups/${created.body.id}`)).body.user_count).toBe(0);
    const added = await entra.patch(`/Groups/${created.body.id}`, patchOps({ op: 'Add', path: 'members', value: values }));
    expect(added.status, added.text).toBe(204);
    expect((await api.get(`/v2/groups/${created.body.id}`)).body.user_count).toBe(8);
  });
});
