/** The preview of a rule (`?dry_run=true` on G3 and the group PATCH): exact counts from the counters, samples from the cell indexes. */
import { describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { unique } from '../support/fixtures';

const api = useApi();

async function department() {
  const id = unique('d');
  expect((await api.post('/v2/departments', { id, name: id })).status).toBe(201);
  return id;
}

async function users(count: number, fields: Record<string, unknown>, departmentId?: string): Promise<string[]> {
  const ids = await Promise.all(
    Array.from({ length: count }, async () => {
      const id = unique('u');
      const response = await api.post('/v2/users', { id, email: `${id}@example.com`, last_name: 'Member', ...fields });
      expect(response.status, response.text).toBe(201);
      return id;
    }),
  );
  if (departmentId) expect((await api.post(`/v2/departments/${departmentId}/users`, { user_ids: ids })).status).toBe(200);
  return ids;
}

const idsOf = (list: Array<{ id: string }>) => list.map((u) => u.id);

describe('G3 ?dry_run=true with a rule', () => {
  it('answers exact matching and joining with up to 20 samples, and creates nothing', async () => {
    const d = await department();
    const members = await users(23, { account_role: 'member', activated: true }, d);
    await users(4, { account_role: 'admin', activated: true }, d);
    await users(3, { account_role: 'member', activated: false }, d);
    const id = unique('g');
    const response = await api.post('/v2/groups?dry_run=true', {
      id,
      name: unique('Preview '),
      rule: `department_id:${d},account_role:member,activated:true`,
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ id, user_count: 0, rule_status: 'applying', users: [] });
    const preview = response.body.rule_preview;
    expect(preview).toMatchObject({ matching: 23, joining: 23, leaving: 0, sample_leaving: [] });
    expect(preview.sample_joining).toHaveLength(20);
    for (const u of preview.sample_joining) {
      expect(members).toContain(u.id);
      expect(u).toMatchObject({ department_id: d, account_role: 'member', activated: true });
    }
    expect((await api.get(`/v2/groups/${id}`)).status).toBe(404);
  });

  it('counts a rule without departments over everybody, users in no department included', async () => {
    const role = 'guest';
    const before = (await api.get(`/v2/users?query=account_role:${role}&activated=false&count=1`)).body.total;
    const d = await department();
    await users(2, { account_role: role }, d);
    await users(3, { account_role: role });
    const response = await api.post('/v2/groups?dry_run=true', { name: unique('Guests '), rule: `account_role:${role},activated:false` });
    expect(response.status, response.text).toBe(200);
    expect(response.body.rule_preview).toMatchObject({ matching: before + 5, joining: before + 5, leaving: 0 });
    expect(response.body.rule_preview.sample_joining.length).toBe(Math.min(20, before + 5));
  });
});

describe('group PATCH ?dry_run=true with a rule', () => {
  it('on a manual group: joining and leaving against its members, nothing changed', async () => {
    const d = await department();
    const [stays] = await users(1, { account_role: 'manager' }, d);
    const [leaves] = await users(1, { account_role: 'member' }, d);
    const [joins] = await users(1, { account_role: 'manager' }, d);
    const created = await api.post('/v2/groups', { id: unique('g'), name: unique('Manual '), user_ids: [stays, leaves] });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const response = await api.patch(`/v2/groups/${id}?dry_run=true`, { rule: `department_id:${d},account_role:manager` });
    expect(response.status, response.text).toBe(200);
    const preview = response.body.rule_preview;
    expect(preview).toMatchObject({ matching: 2, joining: 1, leaving: 1 });
    expect(idsOf(preview.sample_joining)).toEqual([joins]);
    expect(idsOf(preview.sample_leaving)).toEqual([leaves]);
    const after = (await api.get(`/v2/groups/${id}`)).body;
    expect(after).toMatchObject({ rule: null, user_count: 2 });
  });

  it('a bad rule in a dry run is the 400 the change would get', async () => {
    const created = await api.post('/v2/groups', { id: unique('g'), name: unique('Manual ') });
    const response = await api.patch(`/v2/groups/${created.body.id}?dry_run=true`, { rule: 'account_role:owner' });
    expect(response.status).toBe(400);
  });
});
