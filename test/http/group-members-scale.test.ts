/**
 * A group at its limit (10,000 users), each user with every field at its longest in the characters that take the
 * most bytes, through the local gateway, which fails an answer over the 6 MB Lambda can
 * return as API Gateway does: G1, the list of a group's users walked by cursor, SCIM's group and its largest user page.
 * The dataset is written straight into the table by the store's own item builders (fast), with its counters.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { measure, meterCapacity, stopMetering } from '../support/measure/capacity-meter';
import { addCounters, batchPut, departmentItem, listCounterWrites, rawClient, sendCounterWrites } from '../support/measure/dataset';
import { tableName } from '../../lib/db/client';
import { MAX_GROUP_USERS } from '../../lib/groups/groups';
import { MAX_RESPONSE_PAYLOAD_BYTES } from '../../lib/http/payload-limit';
import { MAX_RESULTS } from '../../lib/scim/schema';
import { groupNameItem } from '../../lib/store/group-names';
import { newGroupItem } from '../../lib/store/groups';
import { membershipItems } from '../../lib/store/memberships';
import { DEPARTMENTS_COUNTER, GROUPS_COUNTER } from '../../lib/store/stats';
import { userItem, type User } from '../../lib/store/users';
import { cellCounterName } from '../../lib/users/counters';
import { READ_TOKEN, useApi } from '../support/api';
import { scimClient } from '../support/scim';

const api = useApi();
const scim = scimClient(api);

/**
 * The characters that weigh most in an answer as Lambda counts it: `"` and `\` are escaped in the JSON body, and
 * again in the function's result, which holds the body as a JSON string (4 bytes each). A CJK character first, so
 * that names differ (3 bytes in UTF-8, never escaped). Control characters and lone surrogates are refused on input.
 */
const wide = (seed: number, length: number) => `${String.fromCodePoint(0x4e00 + (seed % 20_000))}${'"\\'.repeat(length)}`.slice(0, length);
const tagged = (tag: string, length: number) => `${tag}${wide(tag.length, length - tag.length)}`;

const NOW = '2026-11-01T10:00:00.000Z';
const DEPARTMENT_ID = 'd'.repeat(64);
const GROUP = { id: 'g'.repeat(64), generation: 'gen-full' };
const EXACT_GROUP = { id: `exact${'g'.repeat(59)}`, generation: 'gen-exact' };

function maximalUser(n: number): User {
  const tag = String(n).padStart(5, '0');
  const local = `u${tag}${'x'.repeat(58)}`; // 64, the longest local part
  return {
    id: `u${tag}${'i'.repeat(58)}`,
    email: `${local}@${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(57)}.com`, // 254
    user_name: tagged(tag, 255),
    external_id: tagged(tag, 255),
    first_name: wide(n, 200),
    // 50 last names, so that ties are broken by id; case-folding changes none of them.
    last_name: wide(n % 50, 200),
    account_role: 'member',
    activated: true,
    last_login: null,
    department_id: DEPARTMENT_ID,
    created_at: NOW,
    updated_at: NOW,
  };
}

const users = Array.from({ length: MAX_GROUP_USERS }, (_, n) => maximalUser(n));
/** G1's order: last name, then id (no case to fold here). */
const inG1Order = [...users].sort((a, b) => (a.last_name < b.last_name ? -1 : a.last_name > b.last_name ? 1 : a.id < b.id ? -1 : 1));

beforeAll(async () => {
  const client = rawClient();
  const group = (ref: typeof GROUP, name: string, members: User[]) => [
    newGroupItem({ id: ref.id, name, description: wide(9, 2000), external_id: tagged(ref.id, 255) }, ref.generation, NOW, {
      user_count: members.length,
      version: 1,
    }),
    groupNameItem(ref.id, name),
    ...members.flatMap((user) => membershipItems(ref, user.id, NOW)),
  ];
  const items = [
    ...users.map((user) => userItem(user, 1)),
    departmentItem(DEPARTMENT_ID, wide(3, 200), users),
    ...group(GROUP, wide(1, 200), users),
    ...group(EXACT_GROUP, wide(2, 200), users.slice(0, 1000)),
  ];
  await batchPut(client, tableName(), items as Record<string, unknown>[], 16);
  const counters: Record<string, number> = { [DEPARTMENTS_COUNTER]: 1, [GROUPS_COUNTER]: 2 };
  for (const user of users) counters[cellCounterName('IN', user)] = (counters[cellCounterName('IN', user)] ?? 0) + 1;
  await addCounters(client, tableName(), counters);
  await sendCounterWrites(client, tableName(), listCounterWrites(users));
  client.destroy();
}, 300_000);

const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');

describe('a group of 10,000 users, every field at its longest', () => {
  it('G1 answers the first 1,000 (G1 order) within 6 MB, and its cursor continues after them', async () => {
    const read = await api.get(`/v2/groups/${GROUP.id}`, { token: READ_TOKEN });
    expect(read.status, read.text.slice(0, 300)).toBe(200);
    expect(bytesOf(read.text)).toBeLessThan(MAX_RESPONSE_PAYLOAD_BYTES);
    expect(read.body.user_count).toBe(MAX_GROUP_USERS);
    expect(read.body.users.map((u: User) => u.id)).toEqual(inG1Order.slice(0, 1000).map((u) => u.id));
    expect(read.body.users[0]).toEqual(inG1Order[0]);
    expect(read.body.users_next_cursor).toEqual(expect.any(String));

    // The cursor continues G1's order after its 1,000th user. In that order each page reads the whole group
    // (lib/groups/member-list.ts), seconds a page on DynamoDB Local: the walk to the end is by id, below.
    const next = await api.get(`/v2/groups/${GROUP.id}/users?count=1000&cursor=${read.body.users_next_cursor}`, { token: READ_TOKEN });
    expect(next.status, next.text.slice(0, 300)).toBe(200);
    expect(bytesOf(next.text)).toBeLessThan(MAX_RESPONSE_PAYLOAD_BYTES);
    expect(next.body).toMatchObject({ total: MAX_GROUP_USERS, offset: 1000, count: 1000, next_cursor: expect.any(String) });
    expect(next.body.users.map((u: User) => u.id)).toEqual(inG1Order.slice(1000, 2000).map((u) => u.id));
  }, 120_000);

  it('G1 of exactly 1,000 answers them all, with a null users_next_cursor', async () => {
    const read = await api.get(`/v2/groups/${EXACT_GROUP.id}`, { token: READ_TOKEN });
    expect(read.status).toBe(200);
    expect(read.body.users).toHaveLength(1000);
    expect(read.body.users_next_cursor).toBeNull();
  });

  it('the list of its users by id reaches every user exactly once', async () => {
    const seen: string[] = [];
    let cursor = '';
    do {
      const page = await api.get(`/v2/groups/${GROUP.id}/users?sort=id&count=1000${cursor ? `&cursor=${cursor}` : ''}`, {
        token: READ_TOKEN,
      });
      expect(page.status, page.text.slice(0, 300)).toBe(200);
      seen.push(...page.body.users.map((u: User) => u.id));
      cursor = page.body.next_cursor ?? '';
    } while (cursor !== '');
    expect(seen).toEqual(users.map((u) => u.id).sort());
  }, 120_000);

  it("SCIM's group answers every member within 6 MB (without display, which would not fit), and none with excludedAttributes=members", async () => {
    const read = await scim.get(`/Groups/${GROUP.id}`);
    expect(read.status, read.text.slice(0, 300)).toBe(200);
    expect(bytesOf(read.text)).toBeLessThan(MAX_RESPONSE_PAYLOAD_BYTES);
    expect(read.body.members).toHaveLength(MAX_GROUP_USERS);
    expect(read.body.members[0]).toEqual({ value: expect.any(String), $ref: expect.stringContaining('/Users/') });
    const small = await scim.get(`/Groups/${EXACT_GROUP.id}`);
    expect(small.body.members[0].display).toEqual(expect.any(String));
    const listed = await scim.get('/Groups?count=10');
    expect(listed.status, listed.text.slice(0, 300)).toBe(200);
    expect(bytesOf(listed.text)).toBeLessThan(MAX_RESPONSE_PAYLOAD_BYTES);
    // Members of both groups would pass 10,000: the page holds the first (by name) alone, and says so.
    expect(listed.body).toMatchObject({ totalResults: 2, itemsPerPage: 1 });
    const bare = await scim.get('/Groups?count=10&excludedAttributes=members');
    expect(bare.body.itemsPerPage).toBe(2);
    expect(bare.body.Resources.every((g: { members?: unknown }) => g.members === undefined)).toBe(true);
  }, 120_000);

  it("SCIM's group list reads the members of its page's groups only, and none with excludedAttributes=members", async () => {
    meterCapacity();
    try {
      // The second group by name, of 1,000 users: about their reads, not those of the 10,000 of the first.
      const second = await measure(() => scim.get('/Groups?startIndex=2&count=1'));
      expect(second.result.body.Resources[0].members).toHaveLength(1000);
      // ~2 read units a user at these sizes: ~2,100; the whole of both groups would be ~23,000.
      expect(second.capacity.rcu).toBeLessThan(4000);
      const bare = await measure(() => scim.get('/Groups?count=10&excludedAttributes=members'));
      expect(bare.result.body.itemsPerPage).toBe(2);
      expect(bare.capacity.rcu).toBeLessThan(10);
    } finally {
      stopMetering();
    }
  }, 120_000);

  it(`SCIM's largest user page (count=${MAX_RESULTS}) fits`, async () => {
    const page = await scim.get(`/Users?count=${MAX_RESULTS}`);
    expect(page.status, page.text.slice(0, 300)).toBe(200);
    expect(page.body.itemsPerPage).toBe(MAX_RESULTS);
    expect(bytesOf(page.text)).toBeLessThan(MAX_RESPONSE_PAYLOAD_BYTES);
    const beyond = await scim.get(`/Users?count=${MAX_RESULTS * 5}`);
    expect(beyond.body.itemsPerPage).toBe(MAX_RESULTS);
  });
});
