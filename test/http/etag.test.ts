/** ETag / If-Match (docs/safety.md): concurrent admins with the same tag, and tags that follow membership. */
import { describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { unique } from '../support/fixtures';

const api = useApi();

async function raceWithOneTag(path: string, bodies: Array<Record<string, unknown>>) {
  const etag = (await api.get(path)).headers.get('etag')!;
  expect(etag).toMatch(/^"\d+"$/);
  const answers = await Promise.all(bodies.map((body) => api.patch(path, body, { headers: { 'if-match': etag } })));
  const statuses = answers.map((a) => a.status).sort();
  expect(statuses).toEqual([200, ...Array(bodies.length - 1).fill(412)]);
  for (const answer of answers.filter((a) => a.status === 412)) expect(answer.body.type).toBe('/problems/precondition-failed');
  const winner = answers.find((a) => a.status === 200)!;
  expect((await api.get(path)).body).toEqual(winner.body); // the loser changed nothing
}

describe('two admins with the same ETag', () => {
  it('user PATCH: exactly one 200, the others 412', async () => {
    const id = unique('u');
    await api.post('/v2/users', { id, email: `${id}@example.com`, last_name: 'Tag' });
    await raceWithOneTag(`/v2/users/${id}`, [{ first_name: 'One' }, { first_name: 'Two' }, { first_name: 'Three' }]);
  });

  it('department PATCH: exactly one 200, the others 412', async () => {
    const id = unique('d');
    await api.post('/v2/departments', { id, name: 'Tagged' });
    await raceWithOneTag(`/v2/departments/${id}`, [{ name: 'One' }, { name: 'Two' }, { name: 'Three' }]);
  });

  it('group PATCH: exactly one 200, the others 412', async () => {
    const id = unique('g');
    await api.post('/v2/groups', { id, name: unique('Tagged ') });
    await raceWithOneTag(`/v2/groups/${id}`, [{ description: 'One' }, { description: 'Two' }]);
  });
});

describe('tags follow membership', () => {
  it("changes a department's ETag when a user joins it, so a PATCH with the old tag fails", async () => {
    const d = unique('d');
    const u = unique('u');
    await api.post('/v2/departments', { id: d, name: 'Members' });
    await api.post('/v2/users', { id: u, email: `${u}@example.com`, last_name: 'Join' });
    const before = (await api.get(`/v2/departments/${d}`)).headers.get('etag')!;
    expect((await api.post(`/v2/departments/${d}/users/${u}`)).status).toBe(200);
    const after = (await api.get(`/v2/departments/${d}`)).headers.get('etag')!;
    expect(after).not.toBe(before);
    expect((await api.patch(`/v2/departments/${d}`, { name: 'Stale' }, { headers: { 'if-match': before } })).status).toBe(412);
    expect((await api.delete(`/v2/departments/${d}`, undefined, { headers: { 'if-match': before } })).status).toBe(412);
  });
});
