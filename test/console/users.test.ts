/**
 * The Users screens in Chromium: every E1 filter and sort as a form whose values live in the address (reload, a
 * shared link and the back button show the same list), cursor pages and the total against the API, creating a user;
 * a user's page: edit with its ETag (a stale edit told and reloaded), activation, moving to a department (a quota
 * refusal with its overage table) and out, deleting; and a read-only token, which sees no button that changes data.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { READ_TOKEN } from '../support/api';
import { expectAccessible, settled, useConsole } from '../support/console';
import { apiIds, createUsers, openAt, shownIds } from '../support/console-lists';

const harness = useConsole();
const { api } = harness;

/** The filter form's fields, by their labels. */
const filters = (page: Page) => page.getByRole('form', { name: 'Filter and sort users' });

async function apply(page: Page, values: Partial<Record<'Role' | 'Activated' | 'Last login' | 'Sort by' | 'Direction', string>>) {
  const form = filters(page);
  for (const [label, value] of Object.entries(values)) await form.getByLabel(label, { exact: true }).selectOption(value);
  await form.getByRole('button', { name: 'Apply' }).click();
  await settled(page);
}

describe('the Users list', () => {
  it('filters and sorts as E1 does, keeps them in the address (reload, shared link, back), and pages by cursor', async () => {
    const run = `us${Date.now().toString(36)}`;
    await createUsers(api, [
      { id: `${run}-a`, last_name: `${run}a`, account_role: 'admin', activated: true, last_login: '2026-01-10T08:00:00.000Z' },
      { id: `${run}-b`, last_name: `${run}b`, account_role: 'member', activated: false, last_login: null },
      { id: `${run}-c`, last_name: `${run}c`, account_role: 'member', activated: true, last_login: '2026-06-01T08:00:00.000Z' },
      // Enough beyond a page (25) to need a second one.
      ...Array.from({ length: 24 }, (_, i) => ({ id: `${run}-z${i}`, last_name: `${run}z${String(i).padStart(2, '0')}` })),
    ]);
    const view = await openAt(harness, '/users');
    const { page } = view;
    await settled(page);
    const all = await api.get('/v2/users?count=25');
    expect(await shownIds(page, 'Users')).toEqual(all.body.users.map((user: { id: string }) => user.id));
    expect(await page.getByRole('navigation', { name: 'Pages of users' }).textContent()).toContain(`25 users shown of ${all.body.total}`);
    await expectAccessible(view, 'users list');

    // A last-name prefix: 27 users, a page of 25 and a next page by cursor.
    await filters(page).getByLabel('Last name starts with').fill(run);
    await apply(page, {});
    expect(page.url()).toContain(`last_name=${run}`);
    expect(await shownIds(page, 'Users')).toEqual(await apiIds(api, `/v2/users?count=25&query=last_name:${run}`, 'users'));
    expect(await page.getByRole('navigation', { name: 'Pages of users' }).textContent()).toContain('25 users shown of 27');
    await page.getByRole('link', { name: 'Next page' }).click();
    await settled(page);
    const first = await api.get(`/v2/users?count=25&query=last_name:${run}`);
    const second = await apiIds(
      api,
      `/v2/users?count=25&query=last_name:${run}&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      'users',
    );
    expect(second).toHaveLength(2);
    expect(await shownIds(page, 'Users')).toEqual(second);
    await page.getByRole('link', { name: 'First page' }).click();
    await settled(page);
    expect(await shownIds(page, 'Users')).toEqual(first.body.users.map((user: { id: string }) => user.id));

    // Role and activation.
    await apply(page, { Role: 'member', Activated: 'true' });
    expect(await shownIds(page, 'Users')).toEqual([`${run}-c`]);
    expect(await apiIds(api, `/v2/users?count=25&query=last_name:${run},account_role:member&activated=true`, 'users')).toEqual([
      `${run}-c`,
    ]);
    const memberUrl = page.url();

    // Last login since a date, then never; sorted by last login, newest first.
    await filters(page).getByLabel('Last login date').fill('2026-03-01');
    await apply(page, { Role: '', Activated: '', 'Last login': 'since' });
    expect(await shownIds(page, 'Users')).toEqual(
      await apiIds(api, `/v2/users?count=25&query=last_name:${run}&last_login=since:2026-03-01`, 'users'),
    );
    expect(await shownIds(page, 'Users')).toEqual([`${run}-c`]);
    await apply(page, { 'Last login': 'before' });
    expect(await shownIds(page, 'Users')).toEqual([`${run}-a`]);
    await apply(page, { 'Last login': 'never', 'Sort by': 'last_name', Direction: 'desc' });
    const never = await apiIds(api, `/v2/users?count=25&query=last_name:${run}&last_login=never&sort=last_name:desc`, 'users');
    expect(never[0]).toBe(`${run}-z23`);
    expect(await shownIds(page, 'Users')).toEqual(never);
    await apply(page, { 'Last login': '', 'Sort by': 'last_login', Direction: 'desc' });
    const byLogin = await apiIds(api, `/v2/users?count=25&query=last_name:${run}&sort=last_login:desc`, 'users');
    expect(byLogin.slice(0, 2)).toEqual([`${run}-c`, `${run}-a`]);
    expect(await shownIds(page, 'Users')).toEqual(byLogin);
    await apply(page, { 'Sort by': 'account_role', Direction: 'asc' });
    expect(await shownIds(page, 'Users')).toEqual(
      await apiIds(api, `/v2/users?count=25&query=last_name:${run}&sort=account_role:asc`, 'users'),
    );
    await apply(page, { 'Sort by': 'activated', Direction: 'desc' });
    expect(await shownIds(page, 'Users')).toEqual(
      await apiIds(api, `/v2/users?count=25&query=last_name:${run}&sort=activated:desc`, 'users'),
    );
    // A department filter: none of these is in one.
    await filters(page).getByLabel('Department id').fill(`${run}-nowhere`);
    await apply(page, {});
    expect(await page.getByRole('navigation', { name: 'Pages of users' }).textContent()).toContain('0 users shown of 0');
    await expectAccessible(view, 'users list, filtered to nothing');

    // Back: the previous filters, in the form and the list; forward again.
    await page.goBack();
    await settled(page);
    expect(await filters(page).getByLabel('Sort by').inputValue()).toBe('activated');
    expect(await filters(page).getByLabel('Department id').inputValue()).toBe('');
    for (let i = 0; i < 6; i++) await page.goBack();
    await settled(page);
    expect(page.url()).toBe(memberUrl);
    expect(await filters(page).getByLabel('Role', { exact: true }).inputValue()).toBe('member');
    expect(await filters(page).getByLabel('Activated').inputValue()).toBe('true');
    expect(await shownIds(page, 'Users')).toEqual([`${run}-c`]);

    // Reload, and the same address opened as a shared link in another browser.
    await page.reload();
    await settled(page);
    expect(await filters(page).getByLabel('Role', { exact: true }).inputValue()).toBe('member');
    expect(await shownIds(page, 'Users')).toEqual([`${run}-c`]);
    const other = await harness.open('/');
    await other.page.goto(memberUrl);
    await settled(other.page);
    expect(await filters(other.page).getByLabel('Last name starts with').inputValue()).toBe(run);
    expect(await shownIds(other.page, 'Users')).toEqual([`${run}-c`]);

    // Another screen starts without this list's parameters.
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Overview' }).click();
    await settled(page);
    expect(new URL(page.url()).search).toBe('');
  }, 120_000);

  it('creates a user, and tells a refused creation', async () => {
    const run = `uc${Date.now().toString(36)}`;
    const view = await openAt(harness, '/users');
    const { page } = view;
    await settled(page);
    const create = page.getByRole('region', { name: 'Create a user' });
    await create.getByLabel('E-mail').fill(`${run}-new@example.com`);
    await create.getByLabel('First name').fill('Grace');
    await create.getByLabel('Last name', { exact: true }).fill(`${run}new`);
    await create.getByLabel('Role').selectOption('manager');
    await create.getByLabel('Id (optional)').fill(`${run}-new`);
    await create.getByLabel('Activated').check();
    await create.getByRole('button', { name: 'Create user' }).click();
    await settled(page);
    expect(await create.locator('.done').textContent()).toBe(`Created ${run}-new@example.com.`);
    const made = await api.get(`/v2/users/${run}-new`);
    expect(made.body).toMatchObject({ email: `${run}-new@example.com`, first_name: 'Grace', account_role: 'manager', activated: true });
    await create.getByLabel('E-mail').fill(`${run}-new@example.com`);
    await create.getByLabel('Last name', { exact: true }).fill('Again');
    await create.getByRole('button', { name: 'Create user' }).click();
    await settled(page);
    expect(await create.getByRole('alert').textContent()).toContain('already');
    await expectAccessible(view, 'users list, a refused creation');
  });
});

describe("a user's page", () => {
  it('shows the fields, edits with the ETag (a stale edit says so and reloads), moves (a quota refusal with its overages), deactivates and deletes', async () => {
    const run = `up${Date.now().toString(36)}`;
    await createUsers(api, [{ id: run, first_name: 'Ada', last_name: 'Lovelace', account_role: 'member', activated: true }]);
    for (const [id, limit] of [
      [`${run}-full`, 0],
      [`${run}-open`, null],
    ] as const) {
      expect((await api.post('/v2/departments', { id, name: id })).status).toBe(201);
      if (limit !== null) await api.put(`/v2/departments/${id}/quotas`, { name: 'users', limit });
    }
    const view = await openAt(harness, `/users/${run}`);
    const { page } = view;
    await settled(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Ada Lovelace');
    const fields = page.locator('dl.fields');
    const user = (await api.get(`/v2/users/${run}`)).body;
    for (const [name, value] of [
      ['E-mail', user.email],
      ['User name', user.user_name],
      ['Role', user.account_role],
      ['Activated', 'yes'],
      ['Last login', 'never'],
      ['Department', 'none'],
    ]) {
      expect(await fields.locator(`dt:text-is("${name}") + dd`).textContent()).toBe(value);
    }
    await expectAccessible(view, "a user's page");

    // An edit.
    const edit = page.getByRole('region', { name: 'Edit' });
    await edit.getByLabel('First name').fill('Augusta Ada');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await settled(page);
    expect(await edit.locator('.done').textContent()).toBe('Saved.');
    expect((await api.get(`/v2/users/${run}`)).body.first_name).toBe('Augusta Ada');

    // Someone else changes the user between opening and saving: 412, nothing changes, Reload shows theirs.
    expect((await api.patch(`/v2/users/${run}`, { last_name: 'King' })).status).toBe(200);
    await edit.getByLabel('First name').fill('Ada');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await settled(page);
    expect(await edit.getByRole('alert').textContent()).toContain('Someone else changed this since you opened it');
    expect((await api.get(`/v2/users/${run}`)).body.first_name).toBe('Augusta Ada');
    await expectAccessible(view, "a user's page, a stale edit");
    await edit.getByRole('button', { name: 'Reload' }).click();
    await settled(page);
    expect(await edit.getByLabel('Last name').inputValue()).toBe('King');
    await edit.getByLabel('First name').fill('Ada');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await settled(page);
    expect((await api.get(`/v2/users/${run}`)).body).toMatchObject({ first_name: 'Ada', last_name: 'King' });

    // A move the quota refuses: the overage table, and nothing changed.
    const membership = page.getByRole('region', { name: 'Department and groups' });
    await membership.getByLabel('Move to department (id)').fill(`${run}-full`);
    await membership.getByRole('button', { name: 'Move' }).click();
    await settled(page);
    const refusal = membership.getByRole('alert');
    expect(await refusal.locator('p').first().textContent()).toBe('Nothing was changed: this would take the department over its quotas.');
    expect(await refusal.getByRole('table', { name: 'Quotas this would exceed' }).locator('tbody tr').allTextContents()).toEqual([
      'users0011',
    ]);
    expect((await api.get(`/v2/users/${run}`)).body.department_id).toBeNull();
    await expectAccessible(view, "a user's page, a move refused by a quota");

    // A move, then out of the department (asking first).
    await membership.getByLabel('Move to department (id)').fill(`${run}-open`);
    await membership.getByRole('button', { name: 'Move' }).click();
    await settled(page);
    expect(await membership.locator('.done').textContent()).toBe(`Now in ${run}-open.`);
    expect((await api.get(`/v2/users/${run}`)).body.department_id).toBe(`${run}-open`);
    expect(await fields.locator('dt:text-is("Department") + dd').textContent()).toBe(`${run}-open`);
    await membership.getByRole('button', { name: 'Remove from department' }).click();
    const ask = page.getByRole('dialog', { name: 'Remove from department' });
    await expectAccessible(view, "a user's page, asking before removing from the department");
    await ask.getByRole('button', { name: 'Remove' }).click();
    await settled(page);
    expect((await api.get(`/v2/users/${run}`)).body.department_id).toBeNull();

    // Deactivate, then activate.
    await edit.getByRole('button', { name: 'Deactivate' }).click();
    await settled(page);
    expect((await api.get(`/v2/users/${run}`)).body.activated).toBe(false);
    expect(await fields.locator('dt:text-is("Activated") + dd').textContent()).toBe('no');
    await edit.getByRole('button', { name: 'Activate' }).click();
    await settled(page);
    expect((await api.get(`/v2/users/${run}`)).body.activated).toBe(true);

    // Delete, asking first; a cancel changes nothing.
    await page.getByRole('button', { name: 'Delete user' }).click();
    await page.getByRole('dialog', { name: 'Delete user' }).getByRole('button', { name: 'Cancel' }).click();
    expect((await api.get(`/v2/users/${run}`)).status).toBe(200);
    await page.getByRole('button', { name: 'Delete user' }).click();
    await page.getByRole('dialog', { name: 'Delete user' }).getByRole('button', { name: 'Delete' }).click();
    await settled(page);
    expect(await page.locator('.done').textContent()).toBe(`Deleted ${run}@example.com. Back to users`);
    expect((await api.get(`/v2/users/${run}`)).status).toBe(404);
    await expectAccessible(view, "a user's page, deleted");
  });
});

describe('the Users screens for a read-only token', () => {
  it('show the list, its filters and a user, with no button that changes data', async () => {
    const run = `ur${Date.now().toString(36)}`;
    await createUsers(api, [{ id: run, last_name: `${run}`, activated: true }]);
    const view = await openAt(harness, '/users', { token: READ_TOKEN });
    const { page } = view;
    await settled(page);
    await expect.poll(() => page.getByText('Read only').count()).toBe(1);
    expect(await page.getByRole('button').allTextContents()).toEqual(['Sign out', 'Apply']);
    expect(await page.getByRole('region', { name: 'Create a user' }).count()).toBe(0);
    await filters(page).getByLabel('Last name starts with').fill(run);
    await apply(page, {});
    expect(await shownIds(page, 'Users')).toEqual([run]);
    await expectAccessible(view, 'users list, read only');
    await page.getByRole('link', { name: run }).click();
    await settled(page);
    expect(await page.locator('dt:text-is("E-mail") + dd').textContent()).toBe(`${run}@example.com`);
    expect(await page.getByRole('button').allTextContents()).toEqual(['Sign out']);
    expect(await page.locator('main input, main select, main textarea').count()).toBe(0);
    await expectAccessible(view, "a user's page, read only");
  });
});
