/**
 * Okta's SCIM 2.0 client, request by request as Okta documents it ("SCIM 2.0
 * protocol reference" and its SPEC test suite, the Runscope/BlazeMeter
 * collection ISVs must pass): the connection test, the user life cycle
 * (look up by userName, create, duplicate, read, profile PUT, deactivate and
 * reactivate by a path-less PATCH) and group push (create, rename with the
 * id in the value, members added by value and removed by a value filter).
 * Bodies are Okta's own, including what the service does not keep
 * (`displayName`, `locale`, `password`, `groups`), sent as
 * `application/scim+json; charset=utf-8`.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { invariantViolations } from '../support/invariants';
import { expectScimError, filterQuery, GROUP_SCHEMA, LIST_SCHEMA, patchOps, scimClient, USER_SCHEMA } from '../support/scim';

const api = useApi();
const okta = scimClient(api, { contentType: 'application/scim+json; charset=utf-8' });

/** The user Okta's SPEC test creates, with a random login. */
function oktaUser(login: string) {
  return {
    schemas: [USER_SCHEMA],
    userName: login,
    name: { givenName: 'Test', familyName: 'User' },
    emails: [{ primary: true, value: login, type: 'work' }],
    displayName: 'Test User',
    locale: 'en-US',
    externalId: `00u${randomUUID().replace(/-/g, '').slice(0, 17)}`,
    groups: [],
    password: '1mu$t$tay$ecret',
    active: true,
  };
}

describe('Okta: connection and user life cycle', () => {
  it('answers the connection test: the first user by startIndex=1&count=1', async () => {
    const response = await okta.get('/Users?startIndex=1&count=1');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ schemas: [LIST_SCHEMA], startIndex: 1 });
    expect(response.body.itemsPerPage).toBe(response.body.Resources.length);
    expect(response.body.Resources.length).toBeLessThanOrEqual(1);
  });

  it('finds no user for an unknown userName: an empty ListResponse, not a 404', async () => {
    const response = await okta.get(`/Users?${filterQuery(`userName eq "${randomUUID()}@atko.com"`)}&startIndex=1&count=100`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ schemas: [LIST_SCHEMA], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });
  });

  it('creates, finds (in any case), refuses a duplicate, reads, updates, deactivates and reactivates', async () => {
    const login = `${randomUUID()}@atko.com`;
    const created = await okta.post('/Users', oktaUser(login));
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ userName: login, active: true, name: { givenName: 'Test', familyName: 'User' } });
    expect(created.body.password).toBeUndefined();
    const id = created.body.id;

    const found = await okta.get(`/Users?${filterQuery(`userName eq "${login.toUpperCase()}"`)}&startIndex=1&count=100`);
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].id).toBe(id);

    expectScimError(await okta.post('/Users', oktaUser(login)), 409, 'uniqueness');
    expectScimError(await okta.get(`/Users/${randomUUID()}`), 404);

    const read = await okta.get(`/Users/${id}`);
    expect(read.body.id).toBe(id);

    // Okta pushes a profile change as a PUT of the whole user, with its id.
    const put = await okta.put(`/Users/${id}`, { ...oktaUser(login), id, name: { givenName: 'Another', familyName: 'Name' } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.name).toEqual({ givenName: 'Another', familyName: 'Name' });

    const deactivated = await okta.patch(`/Users/${id}`, patchOps({ op: 'replace', value: { active: false } }));
    expect(deactivated.status, deactivated.text).toBe(200);
    expect(deactivated.body.active).toBe(false);
    expect((await api.get(`/v2/users/${id}`)).body.activated).toBe(false);

    const reactivated = await okta.patch(`/Users/${id}`, patchOps({ op: 'replace', value: { active: true } }));
    expect(reactivated.body.active).toBe(true);
  });

  it('changes a password without complaint and keeps none', async () => {
    const created = await okta.post('/Users', oktaUser(`${randomUUID()}@atko.com`));
    const changed = await okta.patch(`/Users/${created.body.id}`, patchOps({ op: 'replace', value: { password: 'n3wPa$$word' } }));
    expect(changed.status, changed.text).toBe(200);
    expect(JSON.stringify(changed.body)).not.toContain('n3wPa$$word');
  });
});

describe('Okta: group push', () => {
  it('creates, finds by displayName, renames with the id in the value, adds and removes members, deletes', async () => {
    const users = await Promise.all([0, 1].map(async () => (await okta.post('/Users', oktaUser(`${randomUUID()}@atko.com`))).body));
    const displayName = `Test SCIMv2 ${randomUUID()}`;
    const created = await okta.post('/Groups', { schemas: [GROUP_SCHEMA], displayName, members: [] });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;

    const found = await okta.get(`/Groups?${filterQuery(`displayName eq "${displayName}"`)}&startIndex=1&count=100`);
    expect(found.body.Resources.map((group: { id: string }) => group.id)).toEqual([id]);

    const renamed = await okta.patch(`/Groups/${id}`, patchOps({ op: 'replace', value: { id, displayName: `${displayName} renamed` } }));
    expect(renamed.status, renamed.text).toBe(204);
    expect((await okta.get(`/Groups/${id}`)).body.displayName).toBe(`${displayName} renamed`);

    const added = await okta.patch(
      `/Groups/${id}`,
      patchOps({ op: 'add', path: 'members', value: users.map((user) => ({ value: user.id, display: user.userName })) }),
    );
    expect(added.status, added.text).toBe(204);
    expect((await api.get(`/v2/groups/${id}`)).body.user_count).toBe(2);

    const removed = await okta.patch(`/Groups/${id}`, patchOps({ op: 'remove', path: `members[value eq "${users[0].id}"]` }));
    expect(removed.status, removed.text).toBe(204);
    const listed = await okta.get(`/Groups/${id}`);
    expect(listed.body.members.map((member: { value: string }) => member.value)).toEqual([users[1].id]);

    expect((await okta.delete(`/Groups/${id}`)).status).toBe(204);
    expectScimError(await okta.get(`/Groups/${id}`), 404);
    expect(await invariantViolations()).toEqual([]);
  });

  it('pages through groups with startIndex, without members when asked to', async () => {
    for (let i = 0; i < 3; i++) await okta.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: `Paged ${randomUUID()}` });
    const first = await okta.get('/Groups?startIndex=1&count=2&excludedAttributes=members');
    expect(first.body.Resources).toHaveLength(2);
    expect(first.body.Resources.every((group: { members?: unknown }) => group.members === undefined)).toBe(true);
    const second = await okta.get('/Groups?startIndex=3&count=2&excludedAttributes=members');
    const ids = [...first.body.Resources, ...second.body.Resources].map((group: { id: string }) => group.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(second.body.startIndex).toBe(3);
  });
});
