/** At most N groups have a rule (500; lowered here to 2 through RULE_GROUPS_MAX): a counter with a condition, not a read. */
import { beforeAll, describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { unique } from '../support/fixtures';

const api = useApi();
beforeAll(async () => {
  await api.redeploy({ adjust: (fn) => ({ ...fn, environment: { ...fn.environment, RULE_GROUPS_MAX: '2' } }) });
}, 120_000);

describe('the number of rule groups', () => {
  it('refuses a rule group past the limit (409), counts a rule turned off or a group deleted, and never a manual group', async () => {
    const create = (rule?: string) => api.post('/v2/groups', { id: unique('g'), name: unique('G '), ...(rule ? { rule } : {}) });
    const [a, b] = [await create('account_role:admin'), await create('account_role:guest')];
    expect([a.status, b.status]).toEqual([201, 201]);
    const third = await create('activated:true');
    expect(third.status, third.text).toBe(409);
    expect(third.body.detail).toMatch(/At most 2 groups may have a rule/);
    const manual = await create();
    expect(manual.status).toBe(201);
    expect((await api.patch(`/v2/groups/${manual.body.id}`, { rule: 'activated:true' })).status).toBe(409);
    // Changing the rule of a rule group is no new rule group.
    expect((await api.patch(`/v2/groups/${a.body.id}`, { rule: 'account_role:manager' })).status).toBe(200);
    expect((await api.patch(`/v2/groups/${a.body.id}`, { rule: null })).status).toBe(200);
    expect((await api.patch(`/v2/groups/${manual.body.id}`, { rule: 'activated:true' })).status).toBe(200);
    expect((await create('activated:false')).status).toBe(409);
    expect((await api.delete(`/v2/groups/${b.body.id}`)).status).toBe(204);
    expect((await create('activated:false')).status).toBe(201);
  });
});
