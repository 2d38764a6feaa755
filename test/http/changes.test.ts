/**
 * GET /v2/changes through the gateway: what it refuses (400 for each bad
 * parameter, 401 without a token) and what it answers — `since=now`, the
 * filters given repeated or comma-separated, the read token. Every answer is
 * also checked against the OpenAPI document by the test client.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { READ_TOKEN, useApi } from '../support/api';
import { unique } from '../support/fixtures';
import { scimClient, USER_SCHEMA } from '../support/scim';

const api = useApi();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The contract's bound: a change appears in the feed within 10 seconds of its answer. */
const APPEARS_WITHIN_MS = 10_000;

/** Every change of a walk from `query` (which holds `since`) by cursor, once `expected` have appeared or the bound passed. */
async function walk(query: string, expected: number): Promise<any[]> {
  const deadline = Date.now() + APPEARS_WITHIN_MS;
  const seen: any[] = [];
  let next = `/v2/changes?count=2&${query}`;
  for (;;) {
    const page = await api.get(next);
    expect(page.status, page.text).toBe(200);
    expect(page.body.next_cursor).toEqual(expect.any(String));
    expect(page.body.count).toBe(page.body.changes.length);
    seen.push(...page.body.changes);
    if (seen.length >= expected && page.body.count === 0) return seen;
    if (Date.now() > deadline) return seen;
    if (page.body.count === 0) await sleep(250);
    next = `/v2/changes?count=2&cursor=${encodeURIComponent(page.body.next_cursor)}`;
  }
}

describe('GET /v2/changes refuses', () => {
  let cursor = '';
  beforeAll(async () => {
    const page = await api.get('/v2/changes?since=now&resource_type=user');
    expect(page.status, page.text).toBe(200);
    cursor = page.body.next_cursor;
  });

  it.each([
    ['a since that is no time', 'since=yesterday'],
    ['a since without a zone', 'since=2026-11-01T00:00:00'],
    ['an unknown resource_type', 'resource_type=planet'],
    ['an unknown resource_type among known ones', 'resource_type=user,planet'],
    ['count 0', 'count=0'],
    ['count 1001', 'count=1001'],
    ['an offset (the feed has none)', 'offset=0'],
    ['an unknown parameter', 'before=2026-11-01T00:00:00.000Z'],
    ['a cursor that is not one', 'cursor=not-a-cursor'],
  ])('%s: 400 validation (%s)', async (_, query) => {
    const response = await api.get(`/v2/changes?${query}`);
    expect(response.status, response.text).toBe(400);
    expect(response.body.type).toBe('/problems/validation');
  });

  it('a cursor with other filters than its own, or with none: 400 on the cursor', async () => {
    for (const filters of ['resource_type=group', 'resource_type=user,group', 'exclude_actor=x', '']) {
      const response = await api.get(`/v2/changes?cursor=${encodeURIComponent(cursor)}${filters ? `&${filters}` : ''}`);
      expect(response.status, `${filters}: ${response.text}`).toBe(400);
      expect(response.body.errors).toEqual([expect.objectContaining({ field: 'cursor' })]);
    }
    // Its own filters, in another order or spelling, are its own.
    const same = await api.get(`/v2/changes?cursor=${encodeURIComponent(cursor)}&resource_type=user`);
    expect(same.status, same.text).toBe(200);
  });

  it('a cursor with since: 400, a cursor already holds its place', async () => {
    const response = await api.get(`/v2/changes?since=now&resource_type=user&cursor=${encodeURIComponent(cursor)}`);
    expect(response.status, response.text).toBe(400);
    expect(response.body.errors).toEqual([expect.objectContaining({ field: 'since' })]);
  });

  it('a cursor altered in any way, or of another list: 400', async () => {
    const [payload, check] = cursor.split('.');
    const flipped = (s: string, i: number) => `${s.slice(0, i)}${s[i] === 'A' ? 'B' : 'A'}${s.slice(i + 1)}`;
    const audit = await api.get('/v2/audit?count=1');
    const forged = [
      `${flipped(payload, 3)}.${check}`,
      `${payload}.${flipped(check, 0)}`,
      `${payload}.${check}.${check}`,
      `${Buffer.from(JSON.stringify([1, '2000-01-01T00:00:00.000Z', '', 0])).toString('base64url')}.${check}`,
      ...(audit.body.next_cursor ? [audit.body.next_cursor] : []),
    ];
    for (const bad of forged) {
      const response = await api.get(`/v2/changes?resource_type=user&cursor=${encodeURIComponent(bad)}`);
      expect(response.status, `${bad}: ${response.text}`).toBe(400);
      expect(response.body.type).toBe('/problems/validation');
    }
  });

  it('a cursor whose digest is right but whose places no feed gives: 400, not a 5xx', async () => {
    // The digest is not a secret (lib/lists/cursor.ts); what the places hold must be checked too.
    const list = JSON.stringify(['changes', [], []]);
    const forge = (positions: string[]) => {
      const payload = Buffer.from(JSON.stringify(['p1', ...positions]), 'utf8').toString('base64url');
      return `${payload}.${createHash('sha256').update(`${payload}\n${list}`).digest('base64url').slice(0, 22)}`;
    };
    const place = `2000-01-01T00:00:00.000Z\u0001${'1'.padStart(12, '0')}`;
    const forged = [
      // Longer than DynamoDB's 1,024-byte sort key.
      [`${place}${'x'.repeat(1100)}`, '', '', ''],
      [`2000${'x'.repeat(1100)}`, '', '', ''],
      // No number after the time, or a place of a shard the feed does not have.
      ['2000-01-01T00:00:00.000Z', '', '', ''],
      [place, place, place, place, place],
    ];
    for (const positions of forged) {
      const bad = forge(positions);
      expect(bad.length).toBeLessThanOrEqual(2000);
      const response = await api.get(`/v2/changes?cursor=${encodeURIComponent(bad)}`);
      expect(response.status, response.text).toBe(400);
      expect(response.body.errors).toEqual([expect.objectContaining({ field: 'cursor' })]);
    }
    // The same forgery with places a page could give is read.
    const good = await api.get(`/v2/changes?cursor=${encodeURIComponent(forge([place, '', '', '']))}`);
    expect(good.status, good.text).toBe(200);
  });

  it('no token: 401', async () => {
    const response = await api.get('/v2/changes', { token: null });
    expect(response.status).toBe(401);
    expect(response.body.type).toBe('/problems/unauthorized');
  });
});

describe('GET /v2/changes answers', () => {
  it('since=now: an empty page whose cursor starts at the end, and then the changes made after it, oldest first', async () => {
    const start = await api.get('/v2/changes?since=now');
    expect(start.status, start.text).toBe(200);
    expect(start.body).toEqual({ changes: [], count: 0, next_cursor: expect.any(String) });
    const department = unique('chg');
    expect((await api.post('/v2/departments', { id: department, name: 'Feed' })).status).toBe(201);
    expect((await api.patch(`/v2/departments/${department}`, { name: 'Feed renamed' })).status).toBe(200);
    const seen = await walk(`cursor=${encodeURIComponent(start.body.next_cursor)}`, 2);
    expect(seen.map((e) => [e.operation, e.resource_id])).toEqual([
      ['createDepartment', department],
      ['updateDepartment', department],
    ]);
    // Right after: nothing new, and the cursor is still a place to continue from.
    const end = await api.get(`/v2/changes?since=now`);
    expect(end.body.count).toBe(0);
  });

  it('filters by resource_type and exclude_actor, repeated or comma-separated alike; the read token may read', async () => {
    const since = new Date().toISOString();
    const scim = scimClient(api);
    const token = await scim.token(); // a scim-token entry by local-admin
    const scimActor = `scim:${token.id}`;
    const department = unique('chf');
    const group = unique('chg');
    expect((await api.post('/v2/departments', { id: department, name: 'Filtered' })).status).toBe(201);
    expect((await api.post('/v2/groups', { id: group, name: `Filtered ${group}` })).status).toBe(201);
    const userName = `${unique('feed')}@example.com`;
    const created = await scim.post('/Users', { schemas: [USER_SCHEMA], userName, name: { familyName: 'Feed' }, active: true });
    expect(created.status, created.text).toBe(201);

    const all = await walk(`since=${since}`, 4);
    expect(all.map((e) => [e.resource_type, e.actor])).toEqual([
      ['scim-token', 'local-admin'],
      ['department', 'local-admin'],
      ['group', 'local-admin'],
      ['user', scimActor],
    ]);
    const ids = (entries: any[]) => entries.map((e) => e.id);
    const byType = (...types: string[]) => ids(all.filter((e) => types.includes(e.resource_type)));
    const byActor = (...actors: string[]) => ids(all.filter((e) => !actors.includes(e.actor)));
    const read = async (query: string) => {
      const page = await api.get(`/v2/changes?since=${since}&${query}`, { token: READ_TOKEN });
      expect(page.status, `${query}: ${page.text}`).toBe(200);
      // The cursor keeps the filters, however they were spelled.
      const next = await api.get(`/v2/changes?cursor=${encodeURIComponent(page.body.next_cursor)}&${query}`, { token: READ_TOKEN });
      expect(next.status, `${query} and its cursor: ${next.text}`).toBe(200);
      return ids(page.body.changes);
    };
    expect(await read('resource_type=group')).toEqual(byType('group'));
    expect(await read('resource_type=user,department')).toEqual(byType('user', 'department'));
    expect(await read('resource_type=user&resource_type=department')).toEqual(byType('user', 'department'));
    expect(await read('resource_type=department,user')).toEqual(byType('user', 'department'));
    expect(await read('exclude_actor=local-admin')).toEqual(byActor('local-admin'));
    expect(await read(`exclude_actor=${encodeURIComponent(scimActor)}`)).toEqual(byActor(scimActor));
    expect(await read(`exclude_actor=local-admin,${encodeURIComponent(scimActor)}`)).toEqual([]);
    expect(await read(`exclude_actor=local-admin&exclude_actor=${encodeURIComponent(scimActor)}`)).toEqual([]);
    expect(await read('resource_type=user,scim-token&exclude_actor=local-admin')).toEqual(ids(all.filter((e) => e.actor === scimActor)));
  });

  it('a page of one moves on one change at a time, and the Link header carries the next page', async () => {
    const since = new Date().toISOString();
    for (let i = 0; i < 3; i++) expect((await api.post('/v2/departments', { id: unique('chl'), name: `Linked ${i}` })).status).toBe(201);
    const all = await walk(`since=${since}`, 3);
    expect(all).toHaveLength(3);
    const first = await api.get(`/v2/changes?since=${since}&count=1`);
    expect(first.body.changes.map((e: any) => e.id)).toEqual([all[0].id]);
    const second = await api.get(`/v2/changes?count=1&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.body.changes.map((e: any) => e.id)).toEqual([all[1].id]);
    // The Link of a page asked by `since` is the next page by cursor alone (a cursor with `since` is a 400).
    const link = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '')?.[1];
    expect(link).toBeDefined();
    expect(new URL(link!, api.baseUrl).searchParams.has('since')).toBe(false);
    const linked = await api.get(link!);
    expect(linked.status, linked.text).toBe(200);
    expect(linked.body.changes.map((e: any) => e.id)).toEqual([all[1].id]);
  });
});
