/** Groups v2 (G1–G7 and the group update) through HTTP, with their errors and races. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { db, tableName } from '../../lib/db/client';
import { groupKey } from '../../lib/store/groups';
import { sweepDeletedGroups } from '../../lib/groups/cleanup';
import { withGroupTuning, type GroupTuning } from '../../lib/groups/groups';
import { READ_TOKEN, useApi } from '../support/api';
import { invariantViolations, scanTable } from '../support/invariants';
import { unique } from '../support/fixtures';

/** Sizes a test sets for the requests it sends (the service's own for every other test). */
let tuning: Partial<GroupTuning> = {};
afterEach(() => {
  tuning = {};
});
const api = useApi({ inProcess: { because: 'shrinks internal sizes around each call', around: (call) => withGroupTuning(tuning, call) } });

async function user(fields: Record<string, unknown> = {}) {
  const id = unique('u');
  const response = await api.post('/v2/users', { id, email: `${id}@example.com`, last_name: 'Member', ...fields });
  expect(response.status, response.text).toBe(201);
  return id;
}

async function users(count: number, fields: (i: number) => Record<string, unknown> = () => ({})) {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 20) {
    ids.push(...(await Promise.all(Array.from({ length: Math.min(20, count - i) }, (_, j) => user(fields(i + j))))));
  }
  return ids;
}

async function group(body: Record<string, unknown> = {}) {
  const response = await api.post('/v2/groups', { id: unique('g'), name: unique('Group '), ...body });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const groupOf = async (id: string) => (await api.get(`/v2/groups/${id}`)).body;
/** Items of one kind whose group is `groupId` (a test's view of the table). */
const membershipItems = async (groupId: string) =>
  (await scanTable()).filter((item) => (item.type === 'group-member' || item.type === 'user-group') && item.group_id === groupId);

describe('G3 POST /v2/groups', () => {
  it('creates an empty group: 201, Location, ETag, description defaulting to ""', async () => {
    const response = await api.post('/v2/groups', { id: 'designers', name: 'Designers' });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe('/v2/groups/designers');
    expect(response.headers.get('etag')).toBe('"1"');
    expect(response.body).toEqual({
      id: 'designers',
      name: 'Designers',
      description: '',
      external_id: null,
      user_count: 0,
      rule: null,
      rule_status: null,
      bulk_status: null,
      users: [],
      users_next_cursor: null,
      created_at: expect.any(String),
      updated_at: response.body.created_at,
    });
    expect(Object.keys(response.body)).toEqual([
      'id',
      'name',
      'description',
      'external_id',
      'user_count',
      'rule',
      'rule_status',
      'bulk_status',
      'users',
      'users_next_cursor',
      'created_at',
      'updated_at',
    ]);
    expect((await api.get('/v2/groups/designers')).body).toEqual(response.body);
  });

  it('makes an id when none is given and keeps the description', async () => {
    const response = await api.post('/v2/groups', { name: unique('Made '), description: 'Line one\nline two' });
    expect(response.status).toBe(201);
    expect(response.body.id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(response.body.description).toBe('Line one\nline two');
  });

  it('creates with users: sorted by last name case-insensitively, then id; repeats ignored', async () => {
    const [b, a1, a2, c] = [
      await user({ last_name: 'beta' }),
      await user({ last_name: 'Alpha' }),
      await user({ last_name: 'alpha' }),
      await user({ last_name: 'Gamma' }),
    ];
    const created = await group({ user_ids: [c, b, a2, a1, b, c] });
    expect(created.user_count).toBe(4);
    expect(created.users.map((u: { id: string }) => u.id)).toEqual([[a1, a2].sort()[0], [a1, a2].sort()[1], b, c]);
    expect(created.users[0]).toEqual((await api.get(`/v2/users/${created.users[0].id}`)).body);
    expect(await groupOf(created.id)).toEqual(created);
    expect(await invariantViolations()).toEqual([]);
  });

  it('creates a group of more users than one transaction holds, in parts, answered as G1 then reads it', async () => {
    const ids = await users(70, (i) => ({ last_name: `Name${String(70 - i).padStart(3, '0')}` }));
    const created = await group({ user_ids: ids });
    expect(created.user_count).toBe(70);
    expect(created.bulk_status).toBeNull();
    expect(created.users.map((u: { id: string }) => u.id)).toEqual([...ids].reverse());
    const read = await api.get(`/v2/groups/${created.id}`);
    expect(read.body).toEqual(created);
    expect(await invariantViolations()).toEqual([]);
  });

  it('answers 404 with missing_user_ids for unknown users, and creates nothing', async () => {
    const known = await user();
    const id = unique('g');
    const name = unique('Missing ');
    const response = await api.post('/v2/groups', { id, name, user_ids: [known, 'nobody1', 'nobody2', 'nobody1'] });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ type: '/problems/not-found', status: 404, missing_user_ids: ['nobody1', 'nobody2'] });
    expect((await api.get(`/v2/groups/${id}`)).status).toBe(404);
    expect((await api.post('/v2/groups', { id, name, user_ids: [known] })).status).toBe(201);
  });

  it('also rolls back a group created in steps when a user is missing', async () => {
    tuning = { singleTransactionUsers: 2, chunkUsers: 2 };
    const ids = await users(5);
    const response = await api.post('/v2/groups', { name: unique('Steps '), user_ids: [...ids, 'ghost'] });
    expect(response.body.missing_user_ids).toEqual(['ghost']);
    expect(await invariantViolations()).toEqual([]);
  });

  it('answers 409 for a duplicate id or a name taken case-insensitively; one of racing creates wins', async () => {
    const existing = await group({ name: unique('Taken ') });
    const sameId = await api.post('/v2/groups', { id: existing.id, name: unique('Other ') });
    expect(sameId.status).toBe(409);
    expect(sameId.body.type).toBe('/problems/conflict');
    const sameName = await api.post('/v2/groups', { name: existing.name.toUpperCase() });
    expect(sameName.status).toBe(409);
    expect(sameName.body).toMatchObject({ type: '/problems/conflict', field: 'name' });

    const name = unique('Race ');
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api.post('/v2/groups', { name: i % 2 ? name : name.toLowerCase() })),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(7);
    expect(await invariantViolations()).toEqual([]);
  });

  it('keeps external ids unique exactly; a rename or a deletion frees them', async () => {
    const ext = unique('ext');
    const first = await api.post('/v2/groups', { name: unique('Ext group'), external_id: ext });
    expect(first.status, first.text).toBe(201);
    expect(first.body.external_id).toBe(ext);
    const again = await api.post('/v2/groups', { name: unique('Ext group'), external_id: ext });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ field: 'external_id' });
    expect((await api.post('/v2/groups', { name: unique('Ext group'), external_id: ext.toUpperCase() })).status).toBe(201);
    expect((await api.patch(`/v2/groups/${first.body.id}`, { external_id: null })).body.external_id).toBeNull();
    const reuse = await api.post('/v2/groups', { name: unique('Ext group'), external_id: ext });
    expect(reuse.status, reuse.text).toBe(201);
    expect((await api.delete(`/v2/groups/${reuse.body.id}`)).status).toBe(204);
    expect((await api.patch(`/v2/groups/${first.body.id}`, { external_id: ext })).status).toBe(200);
    expect(await invariantViolations()).toEqual([]);
  });

  it('refuses the reserved id exports with 400', async () => {
    const response = await api.post('/v2/groups', { id: 'exports', name: unique('Reserved ') });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].field).toBe('id');
  });

  it.each([
    [{}],
    [{ name: '' }],
    [{ name: 'x'.repeat(201) }],
    [{ name: 'ok', description: 'd'.repeat(2001) }],
    [{ name: 'ok', description: 'bell\u0007' }],
    [{ name: 'ok', extra: true }],
    [{ name: 'ok', user_ids: 'u1' }],
    [{ name: 'ok', user_ids: ['not valid'] }],
    [{ name: 'tab\there' }],
    [{ name: 'ok', id: 'a.b' }],
  ])('rejects %j with 400', async (body) => {
    const response = await api.post('/v2/groups', body);
    expect(response.status).toBe(400);
    expect(response.body.type).toBe('/problems/validation');
  });

  it('answers 409 for more than 10,000 different users, before reading any', async () => {
    const ids = Array.from({ length: 10_001 }, (_, i) => `x${i}`);
    const response = await api.post('/v2/groups', { name: unique('Huge '), user_ids: ids });
    expect(response.status).toBe(409);
    expect(response.body.type).toBe('/problems/conflict');
  });

  it('is forbidden with the read token', async () => {
    expect((await api.post('/v2/groups', { name: unique('Read ') }, { token: READ_TOKEN })).status).toBe(403);
  });

  it('answers a dry run with the group as it would be (200), or its problem, and creates nothing', async () => {
    const [a, b] = [await user({ last_name: 'Zulu' }), await user({ last_name: 'Alpha' })];
    const id = unique('g');
    const name = unique('Dry ');
    const dry = await api.post('/v2/groups?dry_run=true', { id, name, user_ids: [a, b] });
    expect(dry.status).toBe(200);
    expect(dry.headers.get('location')).toBeNull();
    expect(dry.body).toMatchObject({ id, name, description: '', user_count: 2, users: [{ id: b }, { id: a }] });
    expect((await api.get(`/v2/groups/${id}`)).status).toBe(404);
    expect((await api.post('/v2/groups?dry_run=true', { name, user_ids: [a, 'ghost'] })).body.missing_user_ids).toEqual(['ghost']);
    const existing = await group();
    expect((await api.post('/v2/groups?dry_run=true', { name: existing.name.toUpperCase() })).status).toBe(409);
    expect((await api.post('/v2/groups?dry_run=true', { id: existing.id, name: unique('Free ') })).status).toBe(409);
    expect((await api.post('/v2/groups?dry_run=maybe', { name })).status).toBe(400);
    expect((await api.post('/v2/groups', { id, name })).status).toBe(201);
  });
});

describe('G1 GET /v2/groups/{group_id}', () => {
  it('answers the group with every user, an ETag, also with .json; 404 for an unknown group', async () => {
    const ids = [await user({ last_name: 'Zed' }), await user({ last_name: 'Ann' })];
    const created = await group({ user_ids: ids });
    const read = await api.get(`/v2/groups/${created.id}.json`);
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe('"1"');
    expect(read.body.users.map((u: { last_name: string }) => u.last_name)).toEqual(['Ann', 'Zed']);
    const missing = await api.get('/v2/groups/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.type).toBe('/problems/not-found');
    expect((await api.get('/v2/groups/nope', { token: null })).status).toBe(401);
  });

  it('sorts by the current last name after a user PATCH', async () => {
    const [a, b] = [await user({ last_name: 'Adams' }), await user({ last_name: 'Baker' })];
    const created = await group({ user_ids: [a, b] });
    expect((await api.patch(`/v2/users/${a}`, { last_name: 'Young' })).status).toBe(200);
    const read = await groupOf(created.id);
    expect(read.users.map((u: { id: string }) => u.id)).toEqual([b, a]);
    expect(read.users[1].last_name).toBe('Young');
  });
});

describe('GET /v2/groups/{group_id}/users', () => {
  /** Every page of a list by its `next_cursor`, and the Link header of each page but the last. */
  async function walk(path: string, count: number) {
    const pages: Array<{ users: Array<{ id: string }>; total: number; offset: number; next_cursor: string | null }> = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const sep = path.includes('?') ? '&' : '?';
      const response = await api.get(`${path}${sep}count=${count}${cursor ? `&cursor=${cursor}` : ''}`, { token: READ_TOKEN });
      expect(response.status, response.text).toBe(200);
      expect(response.headers.get('link') !== null).toBe(response.body.next_cursor !== null);
      pages.push(response.body);
      cursor = response.body.next_cursor;
    }
    return { pages, ids: pages.flatMap((page) => page.users.map((u) => u.id)) };
  }

  it("pages a group's users by last name (G1's order) or by id, each exactly once, with total, offset and filters", async () => {
    const ids = await users(7, (i) => ({
      last_name: ['Zed', 'ann', 'Bob', 'Ann', 'cy', 'Bob', 'Dee'][i],
      account_role: i % 2 === 0 ? 'admin' : 'member',
      activated: i !== 3,
    }));
    const created = await group({ user_ids: ids });
    const read = await groupOf(created.id);
    const byName = read.users.map((u: { id: string }) => u.id);
    expect(read.users_next_cursor).toBeNull();

    const path = `/v2/groups/${created.id}/users`;
    const named = await walk(path, 3);
    expect(named.ids).toEqual(byName);
    expect(named.pages.map((p) => [p.total, p.offset])).toEqual([
      [7, 0],
      [7, 3],
      [7, 6],
    ]);
    expect((await walk(`${path}?sort=desc`, 2)).ids).toEqual([...byName].reverse());
    const byId = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect((await walk(`${path}?sort=id`, 3)).ids).toEqual(byId);
    expect((await walk(`${path}?sort=id:desc`, 4)).ids).toEqual([...byId].reverse());
    expect((await api.get(`${path}.json?sort=id&offset=5&count=10`)).body).toMatchObject({
      total: 7,
      offset: 5,
      count: 2,
      next_cursor: null,
    });
    expect((await api.get(`${path}?offset=2&count=2`)).body.users.map((u: { id: string }) => u.id)).toEqual(byName.slice(2, 4));

    const admins = await walk(`${path}?query=account_role:admin,last_name:b,last_name:a&activated=true`, 1);
    const expected = read.users.filter(
      (u: { account_role: string; last_name: string; activated: boolean }) =>
        u.account_role === 'admin' && /^[ab]/i.test(u.last_name) && u.activated,
    );
    expect(admins.ids).toEqual(expected.map((u: { id: string }) => u.id));
    expect(admins.pages[0].total).toBe(expected.length);
    const head = await api.request('HEAD', path, { token: READ_TOKEN });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('answers 404 for an unknown group, 400 for what it does not serve, and for a cursor of another list', async () => {
    const created = await group({ user_ids: await users(3) });
    const path = `/v2/groups/${created.id}/users`;
    expect((await api.get('/v2/groups/nope/users')).body.type).toBe('/problems/not-found');
    const byRole = await api.get(`${path}?sort=account_role`);
    expect(byRole.status).toBe(400);
    expect(byRole.body.errors[0]).toMatchObject({ field: 'sort', message: expect.stringMatching(/not listed by account_role/) });
    const filteredById = await api.get(`${path}?sort=id&query=account_role:admin`);
    expect(filteredById.status).toBe(400);
    expect(filteredById.body.errors[0].message).toMatch(/sort=last_name only/);
    const page = await api.get(`${path}?count=1`);
    expect((await api.get(`${path}?count=1&sort=id&cursor=${page.body.next_cursor}`)).status).toBe(400);
    expect((await api.get(`${path}?count=1&offset=1&cursor=${page.body.next_cursor}`)).status).toBe(400);
    expect((await api.get(path, { token: null })).status).toBe(401);
  });
});

describe('G2 GET /v2/groups', () => {
  it('lists groups without users, sorted by name, with paging, sorts and a name prefix filter', async () => {
    const prefix = unique('list');
    const made = [
      await group({ name: `${prefix} bravo` }),
      await group({ name: `${prefix.toUpperCase()} Alpha` }),
      await group({ name: `${prefix} charlie`, user_ids: [await user(), await user()] }),
    ];
    const query = `query=name:${prefix.toUpperCase()}`;
    const byName = await api.get(`/v2/groups?${query}`);
    expect(byName.status).toBe(200);
    expect(byName.body).toMatchObject({ total: 3, count: 3, offset: 0 });
    expect(byName.body.groups.map((g: { id: string }) => g.id)).toEqual([made[1].id, made[0].id, made[2].id]);
    expect(byName.body.groups[0]).toEqual({
      id: made[1].id,
      name: made[1].name,
      description: '',
      external_id: null,
      user_count: 0,
      rule: null,
      rule_status: null,
      bulk_status: null,
      created_at: made[1].created_at,
      updated_at: made[1].updated_at,
    });
    const desc = await api.get(`/v2/groups.json?${query}&sort=desc&count=2&offset=1`);
    expect(desc.body.groups.map((g: { id: string }) => g.id)).toEqual([made[0].id, made[1].id]);
    expect(desc.body).toMatchObject({ total: 3, count: 2, offset: 1 });
    const byCount = await api.get(`/v2/groups?${query}&sort=user_count:desc`);
    expect(byCount.body.groups[0].id).toBe(made[2].id);
    const byCreated = await api.get(`/v2/groups?${query}&sort=created_at`);
    expect(byCreated.body.groups.map((g: { id: string }) => g.id)).toEqual(made.map((g) => g.id));

    const all = await api.get('/v2/groups?count=1000');
    expect(all.body.total).toBe(all.body.groups.length);
    expect(all.body.groups.every((g: object) => !('users' in g))).toBe(true);
  });

  it.each(['sort=members', 'sort=name:up', 'query=owner:x', 'query=name', 'count=0', 'offset=-1'])('answers 400 for %s', async (params) => {
    const response = await api.get(`/v2/groups?${params}`);
    expect(response.status).toBe(400);
  });
});

describe('G4 POST /v2/groups/{group_id}/users/{user_id}', () => {
  it('adds the user (200 user, ETag of the group moves); a repeat changes nothing', async () => {
    const created = await group();
    const u = await user();
    const added = await api.post(`/v2/groups/${created.id}/users/${u}`);
    expect(added.status).toBe(200);
    const read = await api.get(`/v2/users/${u}`);
    expect(added.body).toEqual(read.body);
    expect(added.headers.get('etag')).toBe(read.headers.get('etag'));
    const after = await api.get(`/v2/groups/${created.id}`);
    expect(after.body.user_count).toBe(1);
    expect(after.headers.get('etag')).toBe('"2"');
    const again = await api.post(`/v2/groups/${created.id}/users/${u}.json`);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(u);
    const still = await api.get(`/v2/groups/${created.id}`);
    expect(still.body.user_count).toBe(1);
    expect(still.headers.get('etag')).toBe('"2"');
  });

  it('answers 404 for an unknown group or user, 403 with the read token', async () => {
    const created = await group();
    const u = await user();
    expect((await api.post(`/v2/groups/nope/users/${u}`)).body).toMatchObject({ status: 404, type: '/problems/not-found' });
    expect((await api.post(`/v2/groups/${created.id}/users/nobody`)).body).toMatchObject({ status: 404, type: '/problems/not-found' });
    expect((await api.post(`/v2/groups/${created.id}/users/${u}`, undefined, { token: READ_TOKEN })).status).toBe(403);
    expect((await groupOf(created.id)).user_count).toBe(0);
  });

  it('lets a user be in any number of groups', async () => {
    const u = await user();
    const groups = await Promise.all(Array.from({ length: 5 }, () => group()));
    for (const g of groups) expect((await api.post(`/v2/groups/${g.id}/users/${u}`)).status).toBe(200);
    for (const g of groups) expect((await groupOf(g.id)).users.map((x: { id: string }) => x.id)).toEqual([u]);
  });
});

describe('G5 DELETE /v2/groups/{group_id}/users/{user_id}', () => {
  it('removes the user (204, empty body); not a member → 404 not-a-member; unknowns → 404 not-found', async () => {
    const [a, b] = [await user(), await user()];
    const created = await group({ user_ids: [a] });
    const removed = await api.delete(`/v2/groups/${created.id}/users/${a}`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect(await groupOf(created.id)).toMatchObject({ user_count: 0, users: [] });
    const notMember = await api.delete(`/v2/groups/${created.id}/users/${b}`);
    expect(notMember.status).toBe(404);
    expect(notMember.body).toMatchObject({ type: '/problems/not-a-member', user_ids: [b] });
    expect((await api.delete(`/v2/groups/${created.id}/users/${a}`)).body.type).toBe('/problems/not-a-member');
    expect((await api.delete(`/v2/groups/nope/users/${a}`)).body.type).toBe('/problems/not-found');
    expect((await api.delete(`/v2/groups/${created.id}/users/nobody`)).body.type).toBe('/problems/not-found');
    expect((await api.get(`/v2/users/${a}`)).status).toBe(200);
    expect(await invariantViolations()).toEqual([]);
  });
});

describe('G6 DELETE /v2/groups/{group_id}', () => {
  it('deletes the group (204): gone from G1 and G2 at once, its users stay, its memberships go', async () => {
    const ids = [await user(), await user()];
    const created = await group({ user_ids: ids });
    const deleted = await api.delete(`/v2/groups/${created.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await api.get(`/v2/groups/${created.id}`)).status).toBe(404);
    const listed = await api.get(`/v2/groups?query=name:${encodeURIComponent(created.name)}`);
    expect(listed.body.total).toBe(0);
    for (const id of ids) expect((await api.get(`/v2/users/${id}`)).status).toBe(200);
    expect(await membershipItems(created.id)).toEqual([]);
    expect((await api.delete(`/v2/groups/${created.id}`)).status).toBe(404);
    // Its id and name are free again.
    expect((await api.post('/v2/groups', { id: created.id, name: created.name })).status).toBe(201);
    expect(await invariantViolations()).toEqual([]);
  });

  it('honours If-Match (412, nothing changes) and is forbidden with the read token', async () => {
    const created = await group({ user_ids: [await user()] });
    expect((await api.delete(`/v2/groups/${created.id}`, undefined, { headers: { 'if-match': '"9"' } })).status).toBe(412);
    expect((await api.delete(`/v2/groups/${created.id}`, undefined, { token: READ_TOKEN })).status).toBe(403);
    expect((await groupOf(created.id)).user_count).toBe(1);
    expect((await api.delete(`/v2/groups/${created.id}`, undefined, { headers: { 'if-match': '"1"' } })).status).toBe(204);
  });

  it('deletes a group too large for one transaction through a cleanup marker; a new group of the same id starts empty', async () => {
    const ids = await users(60);
    const created = await group({ user_ids: ids });
    expect(created.user_count).toBe(60);
    expect((await api.delete(`/v2/groups/${created.id}`)).status).toBe(204);
    expect((await api.get(`/v2/groups/${created.id}`)).status).toBe(404);
    const again = await api.post('/v2/groups', { id: created.id, name: created.name, user_ids: ids.slice(0, 1) });
    expect(again.body).toMatchObject({ user_count: 1, users: [{ id: ids[0] }] });
    expect((await membershipItems(created.id)).length).toBe(2); // the new group's one membership; the old ones went before the answer
    expect(await invariantViolations()).toEqual([]);
  });

  it('leaves the memberships of a very large group to sweepDeletedGroups, invisible meanwhile', async () => {
    tuning = { inlineDeleteMembers: 1, inlineSweepMembers: 1 };
    const ids = await users(4);
    const created = await group({ user_ids: ids });
    expect((await api.delete(`/v2/groups/${created.id}`)).status).toBe(204);
    expect((await api.get(`/v2/groups/${created.id}`)).status).toBe(404);
    expect((await membershipItems(created.id)).length).toBe(8);
    expect(await invariantViolations()).toEqual([]); // a pending cleanup is no violation
    // Meanwhile: a member can be deleted, added to a new group of the same id, ...
    expect((await api.delete(`/v2/users/${ids[0]}`)).status).toBe(204);
    expect((await api.post('/v2/groups', { id: created.id, name: created.name })).status).toBe(201);
    expect((await api.post(`/v2/groups/${created.id}/users/${ids[1]}`)).status).toBe(200);
    expect((await api.delete(`/v2/groups/${created.id}/users/${ids[2]}`)).body.type).toBe('/problems/not-a-member');
    expect(await sweepDeletedGroups()).toBeGreaterThanOrEqual(1);
    expect(await membershipItems(created.id)).toHaveLength(2);
    expect(await groupOf(created.id)).toMatchObject({ user_count: 1, users: [{ id: ids[1] }] });
    expect(await sweepDeletedGroups()).toBe(0);
    expect(await invariantViolations()).toEqual([]);
  });
});

describe('G7 DELETE /v2/groups', () => {
  it('deletes every listed group (204); repeats are ignored', async () => {
    const u = await user();
    const made = await Promise.all(Array.from({ length: 30 }, (_, i) => group(i % 3 === 0 ? { user_ids: [u] } : {})));
    const ids = made.map((g) => g.id);
    const response = await api.delete('/v2/groups', { group_ids: [...ids, ids[0]] });
    expect(response.status).toBe(204);
    for (const id of ids.slice(0, 3)) expect((await api.get(`/v2/groups/${id}`)).status).toBe(404);
    expect((await api.get(`/v2/users/${u}`)).status).toBe(200);
    expect(await invariantViolations()).toEqual([]);
    expect((await scanTable()).filter((item) => item.type === 'group-cleanup' && ids.includes(item.group_id))).toEqual([]);
  });

  it('deletes 100 groups that each have an external id (5 items each in its transaction), in one 204', async () => {
    const made = await Promise.all(Array.from({ length: 100 }, () => group({ external_id: unique('ext-') })));
    const response = await api.delete('/v2/groups', { group_ids: made.map((g) => g.id) });
    expect(response.status, response.text).toBe(204);
    for (const g of made.slice(0, 3)) expect((await api.get(`/v2/groups/${g.id}`)).status).toBe(404);
    expect(await invariantViolations()).toEqual([]);
  });

  it('answers 404 with missing_group_ids when any is unknown, and deletes nothing', async () => {
    const [a, b] = [await group(), await group()];
    const response = await api.delete('/v2/groups', { group_ids: [a.id, 'nope1', b.id, 'nope2', 'nope1'] });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ type: '/problems/not-found', missing_group_ids: ['nope1', 'nope2'] });
    expect((await api.get(`/v2/groups/${a.id}`)).status).toBe(200);
    expect((await api.get(`/v2/groups/${b.id}`)).status).toBe(200);
  });

  it.each([[{}], [{ group_ids: [] }], [{ group_ids: Array.from({ length: 101 }, (_, i) => `g${i}`) }], [{ group_ids: ['a b'] }]])(
    'rejects %j with 400',
    async (body) => {
      expect((await api.delete('/v2/groups', body)).status).toBe(400);
    },
  );

  it('is forbidden with the read token', async () => {
    const a = await group();
    expect((await api.delete('/v2/groups', { group_ids: [a.id] }, { token: READ_TOKEN })).status).toBe(403);
  });
});

describe('PATCH /v2/groups/{group_id}', () => {
  it('renames and re-describes, answering the whole group with a new ETag; the old name is free', async () => {
    const u = await user();
    const created = await group({ user_ids: [u] });
    const name = unique('Renamed ');
    const patched = await api.patch(`/v2/groups/${created.id}`, { name, description: 'About' });
    expect(patched.status).toBe(200);
    expect(patched.headers.get('etag')).toBe('"2"');
    expect(patched.body).toMatchObject({ id: created.id, name, description: 'About', user_count: 1, users: [{ id: u }] });
    expect(patched.body.updated_at > created.updated_at).toBe(true);
    expect((await api.post('/v2/groups', { name: created.name })).status).toBe(201);
    expect((await api.post('/v2/groups', { name: name.toLowerCase() })).status).toBe(409);
    expect((await api.patch(`/v2/groups/${created.id}`, { description: '' })).body.description).toBe('');
    expect(await invariantViolations()).toEqual([]);
  });

  it('keeps its own name across a change of case, refuses another group’s name (409)', async () => {
    const [a, b] = [await group(), await group()];
    const recased = await api.patch(`/v2/groups/${a.id}`, { name: a.name.toUpperCase() });
    expect(recased.status).toBe(200);
    expect(recased.body.name).toBe(a.name.toUpperCase());
    const taken = await api.patch(`/v2/groups/${b.id}`, { name: a.name.toLowerCase() });
    expect(taken.status).toBe(409);
    expect((await groupOf(b.id)).name).toBe(b.name);
    expect(await invariantViolations()).toEqual([]);
  });

  it('changes nothing for an empty body (200, same ETag, no audit entry), as PATCH of a user does', async () => {
    const a = await group({ description: 'Kept' });
    const before = await api.get(`/v2/groups/${a.id}`);
    const patched = await api.patch(`/v2/groups/${a.id}`, {});
    expect(patched.status, patched.text).toBe(200);
    expect(patched.headers.get('etag')).toBe(before.headers.get('etag'));
    expect(patched.body).toEqual(before.body);
    const audit = await api.get(`/v2/audit?query=resource_id:${a.id}`);
    expect(audit.body.entries.map((entry: { operation: string }) => entry.operation)).toEqual(['G3']);
    expect((await api.patch(`/v2/groups/${a.id}`, {}, { headers: { 'if-match': '"7"' } })).status).toBe(412);
  });

  it('answers 404, 400 and 412 as it should', async () => {
    const a = await group();
    expect((await api.patch('/v2/groups/nope', { name: 'X' })).status).toBe(404);
    expect((await api.patch(`/v2/groups/${a.id}`, { name: 'A', user_count: 3 })).status).toBe(400);
    expect((await api.patch(`/v2/groups/${a.id}`, { description: 'd'.repeat(2001) })).status).toBe(400);
    expect((await api.patch(`/v2/groups/${a.id}`, { name: 'X' }, { headers: { 'if-match': '"7"' } })).status).toBe(412);
    expect((await api.patch(`/v2/groups/${a.id}`, { name: unique('Y') }, { headers: { 'if-match': '"1"' } })).status).toBe(200);
    expect((await api.patch(`/v2/groups/${a.id}`, { name: 'Z' }, { token: READ_TOKEN })).status).toBe(403);
  });
});

describe('DELETE /v2/users/{user_id} and groups', () => {
  it('takes the user out of all its groups, more than one transaction holds, keeping every user_count exact', async () => {
    const [leaving, staying] = [await user(), await user()];
    const groups = await Promise.all(Array.from({ length: 30 }, () => group({ user_ids: [leaving, staying] })));
    expect((await api.delete(`/v2/users/${leaving}`)).status).toBe(204);
    for (const g of groups.slice(0, 5)) expect(await groupOf(g.id)).toMatchObject({ user_count: 1, users: [{ id: staying }] });
    expect(await invariantViolations()).toEqual([]);
  });

  it('answers 412 for a stale If-Match and keeps the memberships', async () => {
    const u = await user();
    const g = await group({ user_ids: [u] });
    const etag = (await api.get(`/v2/users/${u}`)).headers.get('etag')!;
    expect(etag).toBe('"1"'); // group additions leave the user (and its ETag) alone
    expect((await api.delete(`/v2/users/${u}`, undefined, { headers: { 'if-match': '"7"' } })).status).toBe(412);
    expect((await groupOf(g.id)).user_count).toBe(1);
    expect((await api.delete(`/v2/users/${u}`, undefined, { headers: { 'if-match': etag } })).status).toBe(204);
    expect((await groupOf(g.id)).user_count).toBe(0);
  });
});

describe('races', () => {
  it('parallel G4 of the same user: one membership, user_count 1', async () => {
    const g = await group();
    const u = await user();
    const responses = await Promise.all(Array.from({ length: 20 }, () => api.post(`/v2/groups/${g.id}/users/${u}`)));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await groupOf(g.id)).toMatchObject({ user_count: 1, users: [{ id: u }] });
    expect(await invariantViolations()).toEqual([]);
  });

  it('parallel G4 of different users near the 10,000 limit never pass it', async () => {
    const g = await group();
    const ids = await users(20);
    // Filling a group with 9,995 real members would take a minute; the limit is a condition on the
    // counter alone, so the counter is set to 9,995 directly, and put back to the real count after.
    const setCount = (n: number) =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: groupKey(g.id),
          UpdateExpression: 'SET user_count = :n',
          ExpressionAttributeValues: { ':n': n },
        }),
      );
    await setCount(9_995);
    const responses = await Promise.all(ids.map((u) => api.post(`/v2/groups/${g.id}/users/${u}`)));
    const added = responses.filter((r) => r.status === 200);
    expect(added).toHaveLength(5);
    for (const refused of responses.filter((r) => r.status !== 200)) {
      expect(refused.status).toBe(409);
      expect(refused.body.type).toBe('/problems/conflict');
    }
    expect((await groupOf(g.id)).user_count).toBe(10_000);
    expect((await api.post(`/v2/groups/${g.id}/users/${added[0].body.id}`)).status).toBe(200); // already a member
    await setCount(5);
    expect((await groupOf(g.id)).users).toHaveLength(5);
    expect(await invariantViolations()).toEqual([]);
  });

  it('G6 racing G4: no membership of the deleted group remains', async () => {
    for (const size of [3, 60]) {
      const ids = await users(size + 10);
      const g = await group({ user_ids: ids.slice(0, size) });
      const [deletion, ...additions] = await Promise.all([
        api.delete(`/v2/groups/${g.id}`),
        ...ids.slice(size).map((u) => api.post(`/v2/groups/${g.id}/users/${u}`)),
      ]);
      expect(deletion.status).toBe(204);
      expect(additions.every((r) => r.status === 200 || r.status === 404 || r.status === 409)).toBe(true);
      expect((await api.get(`/v2/groups/${g.id}`)).status).toBe(404);
      await sweepDeletedGroups();
      expect(await membershipItems(g.id)).toEqual([]);
      expect(await invariantViolations()).toEqual([]);
    }
  });

  it('G7 racing G6 of one of its groups: either G7 deletes all (G6 may find its group gone) or G6 came first and G7 deletes none', async () => {
    const u = await user();
    const made = await Promise.all(Array.from({ length: 3 }, () => group({ user_ids: [u] })));
    const [bulk, single] = await Promise.all([
      api.delete('/v2/groups', { group_ids: made.map((g) => g.id) }),
      api.delete(`/v2/groups/${made[1].id}`),
    ]);
    const statuses = await Promise.all(made.map(async (g) => (await api.get(`/v2/groups/${g.id}`)).status));
    if (bulk.status === 204) {
      expect([204, 404]).toContain(single.status);
      expect(statuses).toEqual([404, 404, 404]);
    } else {
      expect(single.status).toBe(204);
      expect(bulk.body).toMatchObject({ status: 404, missing_group_ids: [made[1].id] });
      expect(statuses).toEqual([200, 404, 200]);
    }
    await sweepDeletedGroups();
    expect(await invariantViolations()).toEqual([]);
  });

  it('user deletion racing G4 of that user: no membership of the deleted user remains', async () => {
    const groups = await Promise.all(Array.from({ length: 6 }, () => group()));
    for (let round = 0; round < 3; round++) {
      const u = await user();
      await api.post(`/v2/groups/${groups[0].id}/users/${u}`);
      const [deletion, ...additions] = await Promise.all([
        api.delete(`/v2/users/${u}`),
        ...groups.map((g) => api.post(`/v2/groups/${g.id}/users/${u}`)),
      ]);
      expect(deletion.status).toBe(204);
      expect(additions.every((r) => r.status === 200 || r.status === 404 || r.status === 409)).toBe(true);
      expect((await api.get(`/v2/users/${u}`)).status).toBe(404);
    }
    expect(await invariantViolations()).toEqual([]);
  });
});
