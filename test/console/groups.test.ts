/**
 * The groups screens in Chromium, as an administrator uses them: the list with its name filter, sorts and cursor
 * pages (in the address), creating a group after its preview, deleting several at once (all or nothing); a group's
 * page with its members by page, adding and removing one, renaming it (and a stale edit's 412 with Reload),
 * deleting it. Each against the API's own answers; then a read-only token, which sees no button that changes data.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { READ_TOKEN } from '../support/api';
import { apiCallsOnOpen, expectAccessible, settled, useConsole } from '../support/console';

const harness = useConsole();
/** A page answers after its API calls, which take longer on a busy machine than expect.poll's default second. */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });
const { api } = harness;
const run = `gr${Date.now().toString(36)}`;
/** The longest walks (dozens of records made first, four looks checked per state) on a machine shared with other work. */
const LONG_WALK = 120_000;

async function createUsers(prefix: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${prefix}-u${String(i).padStart(2, '0')}`;
    const answer = await api.post('/v2/users', {
      id,
      email: `${id}@example.com`,
      first_name: 'Test',
      last_name: `Member ${String(i).padStart(2, '0')}`,
    });
    expect(answer.status, answer.text).toBe(201);
    ids.push(id);
  }
  return ids;
}

async function createGroup(id: string, name: string, userIds: string[] = []) {
  const answer = await api.post('/v2/groups', { id, name, user_ids: userIds });
  expect(answer.status, answer.text).toBe(201);
}

/** The row headers (names) of the screen's first table, as shown. */
const rowNames = (page: Page) => page.locator('table').first().locator('tbody th[scope=row]').allTextContents();
const queryOf = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

describe('the groups list', () => {
  it('filters by a name prefix, sorts, and pages by cursor as the API does, all in the address', async () => {
    const prefix = `${run}-list`;
    // 26 groups: one more than a page. Member counts differ so that the sort by members means something.
    const users = await createUsers(prefix, 3);
    for (let i = 0; i < 26; i++) {
      await createGroup(`${prefix}-g${String(i).padStart(2, '0')}`, `${prefix} Group ${String(i).padStart(2, '0')}`, users.slice(0, i % 4));
    }
    const view = await harness.open('/');
    const { page } = view;
    expect(await apiCallsOnOpen(view, '/groups')).toEqual(['GET /v2/groups?count=25']);
    await expectAccessible(view, 'groups list');

    await page.getByLabel('Name starts with').fill(prefix);
    await page.getByLabel('Sort by').selectOption({ label: 'Most members first' });
    await page.getByRole('button', { name: 'Show' }).click();
    const first = await api.get(`/v2/groups?query=name:${prefix}&sort=user_count:desc&count=25`);
    expect(first.body.total).toBe(26);
    await eventually(() => rowNames(page)).toEqual(first.body.groups.map((group: { name: string }) => group.name));
    expect(queryOf(page)).toEqual({ name: prefix, sort: 'user_count:desc' });
    expect(await page.locator('.pager').textContent()).toContain('25 groups shown of 26');
    const counts = await page.locator('tbody tr td:nth-child(4)').allTextContents();
    expect(counts.map(Number)).toEqual(first.body.groups.map((group: { user_count: number }) => group.user_count));

    const nextHref = (await page.getByRole('link', { name: 'Next page' }).getAttribute('href'))!;
    await page.getByRole('link', { name: 'Next page' }).click();
    const second = await api.get(`/v2/groups?query=name:${prefix}&sort=user_count:desc&count=25&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    await eventually(() => rowNames(page)).toEqual(second.body.groups.map((group: { name: string }) => group.name));
    expect(second.body.groups).toHaveLength(1);
    expect(queryOf(page).cursor).toBe(first.body.next_cursor);
    expect(await page.getByRole('link', { name: 'Next page' }).count()).toBe(0);
    await expectAccessible(view, 'groups list, second page');

    // The back button returns to the first page; a reload (a shared link) shows the same list.
    await page.goBack();
    await eventually(() => rowNames(page).then((names) => names.length)).toBe(25);
    await page.reload();
    await settled(page);
    await eventually(() => rowNames(page)).toEqual(first.body.groups.map((group: { name: string }) => group.name));
    expect(await page.getByLabel('Name starts with').inputValue()).toBe(prefix);

    // The pager's link is a real address: opened afresh (a new tab, a shared link) it shows the same page.
    await page.goto(new URL(nextHref, page.url()).href);
    await eventually(() => rowNames(page)).toEqual(second.body.groups.map((group: { name: string }) => group.name));
    // A group's link leaves the list's query (its cursor) behind.
    await page.getByRole('link', { name: second.body.groups[0].name }).click();
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(`Group: ${second.body.groups[0].name}`);
    expect(queryOf(page)).toEqual({});
    await eventually(() => page.locator('.pager').textContent()).toContain('members shown of');
    await page.goBack();

    // Clearing the filter clears it from the address too.
    await page.getByLabel('Name starts with').fill('');
    await page.getByLabel('Sort by').selectOption({ label: 'Name, A to Z' });
    await page.getByRole('button', { name: 'Show' }).click();
    await eventually(() => queryOf(page)).toEqual({});
  }, LONG_WALK);

  it('creates a group after its dry-run preview, and says which users are unknown', async () => {
    const prefix = `${run}-new`;
    const users = await createUsers(prefix, 2);
    const view = await harness.open('/groups');
    const { page } = view;
    await settled(page);
    await page.getByLabel('Name', { exact: true }).fill(`${prefix} Designers`);
    await page.getByLabel(/^Id/).fill(`${prefix}-designers`);
    await page.getByLabel(/^Member user ids/).fill(`${users.join(', ')}\n${prefix}-nobody`);
    await page.getByRole('button', { name: 'Preview' }).click();
    await eventually(() => page.getByRole('alert').textContent()).toContain(`Unknown users: ${prefix}-nobody`);
    await expectAccessible(view, 'new group, unknown users');

    await page.getByLabel(/^Member user ids/).fill(users.join('\n'));
    await page.getByRole('button', { name: 'Preview' }).click();
    await eventually(() => page.locator('.done').textContent()).toContain(`would be created with 2 members: ${users.join(', ')}`);
    expect((await api.get(`/v2/groups/${prefix}-designers`)).status).toBe(404);
    await expectAccessible(view, 'new group, preview');

    await page.getByRole('button', { name: 'Create group' }).click();
    await eventually(() => page.locator('.done').textContent()).toContain(`Created the group ${prefix} Designers with 2 members.`);
    const created = await api.get(`/v2/groups/${prefix}-designers`);
    expect(created.status).toBe(200);
    expect(created.body.users.map((user: { id: string }) => user.id).sort()).toEqual(users);
  });

  it('deletes the selected groups after asking, and none when one of them is already gone', async () => {
    const prefix = `${run}-bulk`;
    for (const suffix of ['a', 'b', 'c']) await createGroup(`${prefix}-${suffix}`, `${prefix} ${suffix}`);
    const view = await harness.open('/groups');
    const { page } = view;
    await settled(page);
    await page.getByLabel('Name starts with').fill(prefix);
    await page.getByRole('button', { name: 'Show' }).click();
    await eventually(() => rowNames(page)).toEqual([`${prefix} a`, `${prefix} b`, `${prefix} c`]);

    await page.getByLabel(`Select ${prefix} a`).check();
    await page.getByLabel(`Select ${prefix} b`).check();
    await page.getByRole('button', { name: 'Delete the selected groups (2)' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain(`${prefix}-a, ${prefix}-b`);
    await expectAccessible(view, 'bulk delete, asking');
    await dialog.getByRole('button', { name: 'Delete them' }).click();
    await eventually(() => page.locator('.done').textContent()).toBe('Deleted 2 groups.');
    await eventually(() => rowNames(page)).toEqual([`${prefix} c`]);
    expect((await api.get(`/v2/groups/${prefix}-a`)).status).toBe(404);
    expect((await api.get(`/v2/groups/${prefix}-b`)).status).toBe(404);

    // All or nothing: a group someone else deleted meanwhile makes the whole request fail, and c stays.
    await createGroup(`${prefix}-d`, `${prefix} d`);
    await page.reload();
    await eventually(() => rowNames(page)).toEqual([`${prefix} c`, `${prefix} d`]);
    await page.getByLabel(`Select ${prefix} c`).check();
    await page.getByLabel(`Select ${prefix} d`).check();
    expect((await api.delete(`/v2/groups/${prefix}-d`)).status).toBe(204);
    await page.getByRole('button', { name: 'Delete the selected groups (2)' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete them' }).click();
    await eventually(() => page.getByRole('alert').textContent()).toContain(`${prefix}-d`);
    expect((await api.get(`/v2/groups/${prefix}-c`)).status).toBe(200);
    await expectAccessible(view, 'bulk delete refused');
  });
});

describe("a group's page", () => {
  it('shows its fields and members a page at a time, adds and removes a member, renames it (412 when stale) and deletes it', async () => {
    const prefix = `${run}-one`;
    const users = await createUsers(prefix, 31);
    const groupId = `${prefix}-g`;
    await createGroup(groupId, `${prefix} Reviewers`, users.slice(0, 30));
    const view = await harness.open('/');
    const { page } = view;
    // Its fields and one page of members (G1 itself answers up to 1,000 members: see the report).
    expect(await apiCallsOnOpen(view, `/groups/${groupId}`)).toEqual([`GET /v2/groups/${groupId}`, `GET /v2/groups/${groupId}/users?count=25`]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Group: ${prefix} Reviewers`);
    expect(await page.locator('.fields').textContent()).toContain('Members30');

    const firstPage = await api.get(`/v2/groups/${groupId}/users?count=25`);
    const memberNames = (body: { users: Array<{ first_name: string; last_name: string }> }) =>
      body.users.map((user) => `${user.first_name} ${user.last_name}`);
    await eventually(() => rowNames(page)).toEqual(memberNames(firstPage.body));
    expect(await page.locator('.pager').textContent()).toContain('25 members shown of 30');
    await expectAccessible(view, 'group page');
    await page.getByRole('link', { name: 'Next page' }).click();
    const secondPage = await api.get(`/v2/groups/${groupId}/users?count=25&cursor=${encodeURIComponent(firstPage.body.next_cursor)}`);
    await eventually(() => rowNames(page)).toEqual(memberNames(secondPage.body));

    // Add the 31st user, then remove the first one shown on this page.
    await page.getByLabel('User id to add').fill(users[30]);
    await page.getByRole('button', { name: 'Add member' }).click();
    await eventually(() => page.locator('.done').textContent()).toBe(`Added Test Member 30 (${users[30]}).`);
    expect((await api.get(`/v2/groups/${groupId}`)).body.user_count).toBe(31);
    await eventually(() => page.locator('.fields').textContent()).toContain('Members31');
    const removed = secondPage.body.users[0].id as string;
    await page.getByRole('button', { name: `Remove ${removed}` }).click();
    await expectAccessible(view, 'group page, removing a member');
    await page.getByRole('dialog', { name: `Remove ${removed}` }).getByRole('button', { name: 'Remove' }).click();
    await eventually(() => page.locator('.done').textContent()).toContain(`(${removed}).`);
    expect((await api.delete(`/v2/groups/${groupId}/users/${removed}`)).status).toBe(404);

    // Rename: saved with the ETag read; then someone else changes it and this page's edit is refused until reloaded.
    await page.getByLabel('Name', { exact: true }).fill(`${prefix} Reviewers 2`);
    await page.getByRole('button', { name: 'Save' }).click();
    await eventually(() => page.locator('.done').textContent()).toContain(`now called “${prefix} Reviewers 2”`);
    expect((await api.get(`/v2/groups/${groupId}`)).body.name).toBe(`${prefix} Reviewers 2`);
    expect((await api.patch(`/v2/groups/${groupId}`, { description: 'Changed elsewhere' })).status).toBe(200);
    await page.getByLabel('Name', { exact: true }).fill(`${prefix} Reviewers 3`);
    await page.getByRole('button', { name: 'Save' }).click();
    await eventually(() => page.getByRole('alert').textContent()).toContain('Someone else changed this since you opened it');
    expect((await api.get(`/v2/groups/${groupId}`)).body.name).toBe(`${prefix} Reviewers 2`);
    await expectAccessible(view, 'group page, stale edit');
    await page.getByRole('button', { name: 'Reload' }).click();
    await eventually(() => page.getByLabel('Description').inputValue()).toBe('Changed elsewhere');
    expect(await page.getByRole('alert').count()).toBe(0);

    await page.getByRole('button', { name: 'Delete this group' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete the group' }).click();
    await eventually(() => page.locator('.done').textContent()).toContain(`The group ${groupId} is deleted`);
    expect((await api.get(`/v2/groups/${groupId}`)).status).toBe(404);
    expect((await api.get(`/v2/users/${users[0]}`)).status).toBe(200);
    await expectAccessible(view, 'group deleted');
  }, LONG_WALK);
});

describe('the groups screens with a read-only token', () => {
  it('show the list and a group with no button or field that changes data', async () => {
    const prefix = `${run}-ro`;
    const users = await createUsers(prefix, 2);
    await createGroup(`${prefix}-g`, `${prefix} Readers`, users);
    const view = await harness.open('/groups', { token: READ_TOKEN });
    const { page } = view;
    await eventually(() => page.getByText('Read only').count()).toBe(1);
    await settled(page);
    await page.getByLabel('Name starts with').fill(prefix);
    await page.getByRole('button', { name: 'Show' }).click();
    await eventually(() => rowNames(page)).toEqual([`${prefix} Readers`]);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.locator('main').getByRole('button').allTextContents()).toEqual(['Show']);
    expect(await page.getByLabel(/Member user ids/).count()).toBe(0);
    await expectAccessible(view, 'groups list, read only');

    await page.getByRole('link', { name: `${prefix} Readers` }).click();
    await eventually(() => rowNames(page)).toEqual(['Test Member 00', 'Test Member 01']);
    expect(await page.locator('main').getByRole('button').count()).toBe(0);
    expect(await page.locator('main input, main textarea').count()).toBe(0);
    await expectAccessible(view, 'group page, read only');
  });
});
