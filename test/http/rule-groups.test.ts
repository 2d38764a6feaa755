/**
 * Rule-based groups through HTTP: the rule's syntax, the limits, and the
 * refusals of hand-made member changes — admin API (409 `rule-managed`) and
 * SCIM (400 `mutability`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { createDepartment, createUser, unique } from '../support/fixtures';
import { expectScimError, GROUP_SCHEMA, PATCH_SCHEMA, scimClient } from '../support/scim';

/** A lowered member limit and rule-group limit, so that both bind with a handful of users (lib/config.ts). */
const LIMITS = { RULE_GROUP_MAX_USERS: '3', RULE_GROUPS_MAX: '1000' };
const api = useApi();
beforeAll(async () => {
  await api.redeploy({ adjust: (fn) => ({ ...fn, environment: { ...fn.environment, ...LIMITS } }) });
}, 120_000);

const department = () => createDepartment(api);
const user = (fields: Record<string, unknown> = {}, departmentId?: string) => createUser(api, fields, departmentId);

async function ruleGroup(rule: string) {
  const response = await api.post('/v2/groups', { id: unique('g'), name: unique('Rule '), rule });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

describe('the rule on G3 and the group PATCH', () => {
  it('is answered in a canonical form with rule_status; a manual group carries rule: null', async () => {
    const d = await department();
    const created = await ruleGroup(`activated:true,account_role:member,department_id:${d},account_role:admin,account_role:admin`);
    expect(created.rule).toBe(`department_id:${d},account_role:admin,account_role:member,activated:true`);
    expect(['applying', 'current']).toContain(created.rule_status);
    const manual = await api.post('/v2/groups', { id: unique('g'), name: unique('Manual ') });
    expect(manual.body).toMatchObject({ rule: null, rule_status: null });
    const listed = await api.get('/v2/groups?count=1000');
    expect(listed.body.groups.find((g: { id: string }) => g.id === created.id)).toMatchObject({ rule: created.rule });
  });

  it.each([
    ['an unknown attribute', 'last_name:Smith'],
    ['a sub-filter without a colon', 'account_role'],
    ['an unknown role', 'account_role:boss'],
    ['activated that is not true or false', 'activated:yes'],
    ['a department id that is not an id', 'department_id:a b'],
    ['an unknown department', 'department_id:no-such-department'],
  ])('refuses %s: 400 on rule, nothing created', async (_, rule) => {
    const id = unique('g');
    const response = await api.post('/v2/groups', { id, name: unique('Bad '), rule });
    expect(response.status, response.text).toBe(400);
    expect(response.body.errors[0].field).toBe('rule');
    expect((await api.get(`/v2/groups/${id}`)).status).toBe(404);
    const manual = await api.post('/v2/groups', { id: unique('g'), name: unique('Manual ') });
    expect((await api.patch(`/v2/groups/${manual.body.id}`, { rule })).status).toBe(400);
  });

  it('refuses a rule that matches more users than a group holds: 409 conflict with matching', async () => {
    const d = await department();
    for (let i = 0; i < 4; i++) await user({ account_role: 'guest' }, d);
    const response = await api.post('/v2/groups', { id: unique('g'), name: unique('Big '), rule: `department_id:${d}` });
    expect(response.status, response.text).toBe(409);
    expect(response.body).toMatchObject({ type: '/problems/conflict', matching: 4, limit: 3 });
    const manual = await api.post('/v2/groups', { id: unique('g'), name: unique('Manual ') });
    const patched = await api.patch(`/v2/groups/${manual.body.id}`, { rule: `department_id:${d},account_role:guest` });
    expect(patched.status).toBe(409);
    expect(patched.body.matching).toBe(4);
  });

  it('turns a rule off with rule: null; the group is then manual again', async () => {
    const d = await department();
    const g = await ruleGroup(`department_id:${d}`);
    const off = await api.patch(`/v2/groups/${g.id}`, { rule: null });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ rule: null, rule_status: null });
    const u = await user();
    expect((await api.post(`/v2/groups/${g.id}/users/${u}`)).status).toBe(200);
  });
});

describe('hand-made member changes of a rule group', () => {
  it('G3 with user_ids and a rule: 409 rule-managed, nothing created', async () => {
    const d = await department();
    const u = await user({}, d);
    const id = unique('g');
    const response = await api.post('/v2/groups', { id, name: unique('Both '), rule: `department_id:${d}`, user_ids: [u] });
    expect(response.status, response.text).toBe(409);
    expect(response.body.type).toBe('/problems/rule-managed');
    expect((await api.get(`/v2/groups/${id}`)).status).toBe(404);
  });

  it('G4 and G5: 409 rule-managed, the members unchanged', async () => {
    const d = await department();
    const g = await ruleGroup(`department_id:${d}`);
    const outsider = await user();
    const added = await api.post(`/v2/groups/${g.id}/users/${outsider}`);
    expect(added.status, added.text).toBe(409);
    expect(added.body.type).toBe('/problems/rule-managed');
    const removed = await api.delete(`/v2/groups/${g.id}/users/${outsider}`);
    expect(removed.status, removed.text).toBe(409);
    expect(removed.body.type).toBe('/problems/rule-managed');
    expect((await api.get(`/v2/groups/${g.id}`)).body.users.map((u: { id: string }) => u.id)).not.toContain(outsider);
  });

  it('renaming, describing and deleting a rule group work as usual (G6 and G7)', async () => {
    const d = await department();
    const g = await ruleGroup(`department_id:${d}`);
    const renamed = await api.patch(`/v2/groups/${g.id}`, { name: unique('Renamed '), description: 'kept by a rule' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.rule).toBe(g.rule);
    expect((await api.delete(`/v2/groups/${g.id}`)).status).toBe(204);
    const [a, b] = [await ruleGroup(`department_id:${d}`), await ruleGroup(`department_id:${d},activated:true`)];
    expect((await api.delete('/v2/groups', { group_ids: [a.id, b.id] })).status).toBe(204);
  });

  it('SCIM member changes: 400 mutability; a SCIM rename still works', async () => {
    const scim = scimClient(api);
    const d = await department();
    const g = await ruleGroup(`department_id:${d}`);
    const u = await user();
    const add = await scim.patch(`/Groups/${g.id}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'add', path: 'members', value: [{ value: u }] }],
    });
    expectScimError(add, 400, 'mutability');
    const clear = await scim.patch(`/Groups/${g.id}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'remove', path: 'members' }] });
    // No members to remove is no change of members: nothing refused.
    expect([200, 204]).toContain(clear.status);
    const put = await scim.put(`/Groups/${g.id}`, { schemas: [GROUP_SCHEMA], displayName: g.name, members: [{ value: u }] });
    expectScimError(put, 400, 'mutability');
    const rename = await scim.patch(`/Groups/${g.id}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'replace', path: 'displayName', value: unique('Scim ') }],
    });
    expect([200, 204], rename.text).toContain(rename.status);
    expect((await api.get(`/v2/groups/${g.id}`)).body.user_count).toBe(0);
  });
});
