/**
 * Rule groups keep their members: a rule applied when set or changed, and
 * every change of a user followed within 5 seconds of its answer, whatever
 * made it (admin API, department moves, SCIM), audited with actor `rule:<id>`.
 */
import { describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { createDepartment, createUser, unique } from '../support/fixtures';
import { scimClient, PATCH_SCHEMA } from '../support/scim';

const api = useApi();
/** The contract's bound on following a change. */
const FOLLOW_MS = 5_000;

const department = () => createDepartment(api);
const user = (fields: Record<string, unknown> = {}, departmentId?: string) => createUser(api, fields, departmentId);

const membersOf = async (groupId: string) => {
  const group = (await api.get(`/v2/groups/${groupId}`)).body;
  return { ids: (group.users as Array<{ id: string }>).map((u) => u.id).sort(), group };
};

/** Waits (at most `within` ms from now) until the group's members are `expected` and its count agrees; answers how long it took. */
async function expectMembers(groupId: string, expected: string[], within = FOLLOW_MS): Promise<number> {
  const started = Date.now();
  let last: unknown;
  while (Date.now() - started < within) {
    const { ids, group } = await membersOf(groupId);
    last = { ids, user_count: group.user_count, rule_status: group.rule_status };
    if (JSON.stringify(ids) === JSON.stringify([...expected].sort()) && group.user_count === expected.length) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `group ${groupId} did not reach ${JSON.stringify([...expected].sort())} within ${within} ms; last ${JSON.stringify(last)}`,
  );
}

async function expectStatus(groupId: string, status: string, within = FOLLOW_MS) {
  const started = Date.now();
  while (Date.now() - started < within) {
    if ((await api.get(`/v2/groups/${groupId}`)).body.rule_status === status) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`group ${groupId} did not become ${status}`);
}

describe('applying a rule', () => {
  it('joins exactly the matching users, becomes current, and audits the joins with actor rule:<id>', async () => {
    const d = await department();
    const admins = [await user({ account_role: 'admin', activated: true }, d), await user({ account_role: 'admin', activated: true }, d)];
    await user({ account_role: 'admin', activated: false }, d);
    await user({ account_role: 'member', activated: true }, d);
    await user({ account_role: 'admin', activated: true });
    const created = await api.post('/v2/groups', {
      id: unique('g'),
      name: unique('Admins '),
      rule: `department_id:${d},account_role:admin,activated:true`,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ rule_status: 'applying', user_count: 0 });
    const id = created.body.id;
    await expectMembers(id, admins);
    await expectStatus(id, 'current');
    const audit = await api.get(`/v2/audit?query=actor:rule:${id}`);
    expect(audit.status).toBe(200);
    expect(audit.body.entries.flatMap((e: { changes: { added_user_ids?: string[] } }) => e.changes.added_user_ids ?? []).sort()).toEqual(
      [...admins].sort(),
    );
  });

  it('a changed rule writes only the joins and leaves; the preview of a current rule group said exactly what', async () => {
    const d = await department();
    const managers = [await user({ account_role: 'manager' }, d), await user({ account_role: 'manager' }, d)];
    const members = [await user({ account_role: 'member' }, d)];
    const created = await api.post('/v2/groups', {
      id: unique('g'),
      name: unique('Managers '),
      rule: `department_id:${d},account_role:manager`,
    });
    const id = created.body.id;
    await expectMembers(id, managers);
    await expectStatus(id, 'current');
    const preview = await api.patch(`/v2/groups/${id}?dry_run=true`, { rule: `department_id:${d},account_role:member` });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.rule_preview).toMatchObject({ matching: 1, joining: 1, leaving: 2 });
    expect(preview.body.rule_preview.sample_joining.map((u: { id: string }) => u.id)).toEqual(members);
    expect(preview.body.rule_preview.sample_leaving.map((u: { id: string }) => u.id).sort()).toEqual([...managers].sort());
    const changed = await api.patch(`/v2/groups/${id}`, { rule: `department_id:${d},account_role:member` });
    expect(changed.status, changed.text).toBe(200);
    await expectMembers(id, members);
    await expectStatus(id, 'current');
  });

  it('rule: null keeps the members and makes the group manual', async () => {
    const d = await department();
    const u = await user({}, d);
    const id = (await api.post('/v2/groups', { id: unique('g'), name: unique('Off '), rule: `department_id:${d}` })).body.id;
    await expectMembers(id, [u]);
    expect((await api.patch(`/v2/groups/${id}`, { rule: null })).status).toBe(200);
    const later = await user({}, d);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await membersOf(id)).ids).toEqual([u]);
    expect((await api.post(`/v2/groups/${id}/users/${later}`)).status).toBe(200);
  });
});

describe('following user changes within 5 seconds', () => {
  it('create, PATCH, E2, E3, E4, E5, delete and SCIM each join or leave as the rule says', async () => {
    const [d, other] = [await department(), await department()];
    const id = (await api.post('/v2/groups', { id: unique('g'), name: unique('Eng '), rule: `department_id:${d},activated:true` })).body.id;
    await expectStatus(id, 'current');
    const a = await user({ activated: true }, d); // create + E2
    await expectMembers(id, [a]);
    expect((await api.patch(`/v2/users/${a}`, { activated: false })).status).toBe(200); // PATCH
    await expectMembers(id, []);
    expect((await api.patch(`/v2/users/${a}`, { activated: true })).status).toBe(200);
    await expectMembers(id, [a]);
    expect((await api.post(`/v2/departments/${other}/users/${a}`)).status).toBe(200); // E2: a move out
    await expectMembers(id, []);
    const batch = [await user({ activated: true }), await user({ activated: true }), await user({ activated: false })];
    expect((await api.post(`/v2/departments/${d}/users`, { user_ids: [...batch, a] })).status).toBe(200); // E3
    await expectMembers(id, [a, batch[0], batch[1]]);
    expect((await api.delete(`/v2/departments/${d}/users/${batch[0]}`)).status).toBe(204); // E4
    await expectMembers(id, [a, batch[1]]);
    expect((await api.delete(`/v2/departments/${d}/users`, { user_ids: [batch[1], batch[2]] })).status).toBe(204); // E5
    await expectMembers(id, [a]);
    const scim = scimClient(api);
    const deactivated = await scim.patch(`/Users/${a}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(deactivated.status, deactivated.text).toBe(200); // SCIM deprovisioning
    await expectMembers(id, []);
    const b = await user({ activated: true }, d);
    await expectMembers(id, [b]);
    expect((await api.delete(`/v2/users/${b}`)).status).toBe(204); // delete
    await expectMembers(id, []);
  });
});
