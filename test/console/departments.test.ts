/**
 * The Departments screens in Chromium: the list by size, its sorts and name prefix in the address (reload and back),
 * cursor pages and the total against the API, creating one; a department's page: its six quotas as bars against E6,
 * limits (E7, one below its usage), adding users with the E3 dry-run preview (an overage and unknown ids shown before
 * anything changes, checked through the API; then Add, busy while it runs), its members with E1's filters, removing
 * one (E4) and several (E5), renaming with its ETag (a stale rename told), deleting only when empty (E8); and a
 * read-only token, which sees no button that changes data.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { READ_TOKEN } from '../support/api';
import { expectAccessible, settled, useConsole } from '../support/console';
import { apiIds, createUsers, openAt, shownIds } from '../support/console-lists';

const harness = useConsole();
const { api } = harness;

const departmentFilters = (page: Page) => page.getByRole('form', { name: 'Filter and sort departments' });

async function createDepartments(ids: string[]) {
  for (let start = 0; start < ids.length; start += 4) {
    await Promise.all(
      ids.slice(start, start + 4).map(async (id) => expect((await api.post('/v2/departments', { id, name: id })).status).toBe(201)),
    );
  }
}

async function sortDepartments(page: Page, field: string, direction: string) {
  const form = departmentFilters(page);
  await form.getByLabel('Sort by').selectOption(field);
  await form.getByLabel('Direction').selectOption(direction);
  await form.getByRole('button', { name: 'Apply' }).click();
  await settled(page);
}

describe('the Departments list', () => {
  it('lists by size, filters by name prefix and sorts in the address (reload, back), pages by cursor, and creates one', async () => {
    const run = `dl${Date.now().toString(36)}`;
    const ids = Array.from({ length: 26 }, (_, i) => `${run}-${String(i).padStart(2, '0')}`);
    await createDepartments(ids);
    await createUsers(
      api,
      [0, 1, 2].map((i) => ({ id: `${run}-u${i}`, last_name: `${run}u${i}` })),
    );
    for (const [user, department] of [
      ['u0', '05'],
      ['u1', '05'],
      ['u2', '10'],
    ]) {
      expect((await api.post(`/v2/departments/${run}-${department}/users/${run}-${user}`)).status).toBe(200);
    }

    const view = await openAt(harness, '/departments');
    const { page } = view;
    await settled(page);
    const bySize = await api.get('/v2/departments?count=25&sort=user_count:desc');
    expect(await shownIds(page, 'Departments')).toEqual(bySize.body.departments.map((d: { id: string }) => d.id));
    expect(await page.getByRole('navigation', { name: 'Pages of departments' }).textContent()).toContain(`of ${bySize.body.total}`);
    await expectAccessible(view, 'departments list');

    await departmentFilters(page).getByLabel('Name starts with').fill(run);
    await departmentFilters(page).getByRole('button', { name: 'Apply' }).click();
    await settled(page);
    const first = await api.get(`/v2/departments?count=25&sort=user_count:desc&query=name:${run}`);
    const firstIds = first.body.departments.map((d: { id: string }) => d.id);
    expect(firstIds.slice(0, 2)).toEqual([`${run}-05`, `${run}-10`]);
    expect(await shownIds(page, 'Departments')).toEqual(firstIds);
    expect(await page.getByRole('navigation', { name: 'Pages of departments' }).textContent()).toContain('25 departments shown of 26');
    await page.getByRole('link', { name: 'Next page' }).click();
    await settled(page);
    const second = await apiIds(
      api,
      `/v2/departments?count=25&sort=user_count:desc&query=name:${run}&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      'departments',
    );
    expect(second).toHaveLength(1);
    expect(await shownIds(page, 'Departments')).toEqual(second);

    await sortDepartments(page, 'name', 'asc');
    expect(new URL(page.url()).searchParams.get('sort')).toBe('name:asc');
    expect(await shownIds(page, 'Departments')).toEqual(ids.slice(0, 25));
    await sortDepartments(page, 'created_at', 'desc');
    expect(await shownIds(page, 'Departments')).toEqual(
      await apiIds(api, `/v2/departments?count=25&sort=created_at:desc&query=name:${run}`, 'departments'),
    );
    await page.goBack();
    await settled(page);
    expect(await departmentFilters(page).getByLabel('Sort by').inputValue()).toBe('name');
    expect(await shownIds(page, 'Departments')).toEqual(ids.slice(0, 25));
    await page.reload();
    await settled(page);
    expect(await departmentFilters(page).getByLabel('Name starts with').inputValue()).toBe(run);
    expect(await shownIds(page, 'Departments')).toEqual(ids.slice(0, 25));
    await expectAccessible(view, 'departments list, filtered and sorted');

    const create = page.getByRole('region', { name: 'Create a department' });
    await create.getByLabel('Name').fill(`${run} New`);
    await create.getByLabel('Id (optional)').fill(`${run}-new`);
    await create.getByRole('button', { name: 'Create department' }).click();
    await settled(page);
    expect(await create.locator('.done').textContent()).toBe(`Created ${run} New.`);
    expect((await api.get(`/v2/departments/${run}-new`)).body).toMatchObject({ name: `${run} New`, user_count: 0 });
  }, 120_000);
});

describe("a department's page", () => {
  it('shows the quotas, edits limits, previews an addition (an overage, unknown ids) before adding, removes members, renames, deletes when empty', async () => {
    const run = `dp${Date.now().toString(36)}`;
    const [m1, m2, m3, o1, o2] = ['m1', 'm2', 'm3', 'o1', 'o2'].map((name) => `${run}-${name}`);
    await createDepartments([run]);
    await createUsers(api, [
      { id: m1, last_name: `${run}a`, account_role: 'admin', activated: true },
      { id: m2, last_name: `${run}b`, activated: true },
      { id: m3, last_name: `${run}c` },
      { id: o1, last_name: `${run}d` },
      { id: o2, last_name: `${run}e` },
    ]);
    expect((await api.post(`/v2/departments/${run}/users`, { user_ids: [m1, m2, m3] })).status).toBe(200);
    await api.put(`/v2/departments/${run}/quotas`, { name: 'users', limit: 4 });

    const view = await openAt(harness, `/departments/${run}`);
    const { page } = view;
    await settled(page);
    const quotas = page.getByRole('region', { name: 'Quotas' });
    const e6 = (await api.get(`/v2/departments/${run}/quotas`)).body.quotas as Array<{ name: string; usage: number; limit: number | null }>;
    expect(await quotas.locator('.quota-name').allTextContents()).toEqual(e6.map((quota) => quota.name));
    const words = await quotas.locator('.quota-words').allTextContents();
    e6.forEach((quota, i) =>
      expect(words[i]).toMatch(new RegExp(`^${quota.usage} ${quota.limit === null ? '\\(no limit\\)' : `of ${quota.limit}`}`)),
    );
    expect(words[0]).toBe('3 of 4');
    expect(await quotas.getByLabel('seats limit').count()).toBe(0);
    expect(await quotas.textContent()).toContain('DEPARTMENT_SEATS');
    await expectAccessible(view, "a department's page");

    // A limit below its usage is accepted, and said so.
    await quotas.getByLabel('admins limit').fill('0');
    await quotas.getByRole('button', { name: 'Save limits' }).click();
    await settled(page);
    expect(await quotas.locator('.done').textContent()).toBe(
      'Saved: admins 0. admins is below its 1 in use: they stay, further additions fail.',
    );
    expect((await api.get(`/v2/departments/${run}/quotas`)).body.quotas[2]).toMatchObject({ name: 'admins', limit: 0, usage: 1 });
    expect(await quotas.locator('.quota-words').nth(2).textContent()).toBe('1 of 0, over the limit');

    // The preview of an addition over the users quota: its overage, and nothing changed.
    const add = page.getByRole('region', { name: 'Add users' });
    await add.getByLabel(/User ids/).fill(`${o1}\n${o2}`);
    await add.getByRole('button', { name: 'Preview' }).click();
    await settled(page);
    const refusal = add.getByRole('alert');
    expect(await refusal.locator('p').first().textContent()).toBe('Nothing was changed: this would take the department over its quotas.');
    expect(await refusal.getByRole('table', { name: 'Quotas this would exceed' }).locator('tbody tr').allTextContents()).toEqual([
      'users4321',
    ]);
    expect(await add.getByRole('button', { name: /^Add/ }).count()).toBe(0);
    expect((await api.get(`/v2/departments/${run}`)).body.user_count).toBe(3);
    expect((await api.get(`/v2/users/${o1}`)).body.department_id).toBeNull();
    await expectAccessible(view, "a department's page, a preview with an overage");

    // Unknown ids.
    await add.getByLabel(/User ids/).fill(`${o1}, ${run}-nobody`);
    await add.getByRole('button', { name: 'Preview' }).click();
    await settled(page);
    expect(await add.getByRole('alert').textContent()).toContain(`Unknown users: ${run}-nobody`);

    // Room for them, a preview that succeeds (still nothing changed), then Add, busy while it runs.
    await quotas.getByLabel('users limit', { exact: true }).fill('10');
    await quotas.getByRole('button', { name: 'Save limits' }).click();
    await settled(page);
    expect((await api.get(`/v2/departments/${run}/quotas`)).body.quotas[0].limit).toBe(10);
    await add.getByLabel(/User ids/).fill(`${o1}\n${o2}`);
    await add.getByRole('button', { name: 'Preview' }).click();
    await settled(page);
    expect(await add.locator('.done').textContent()).toBe('Adding these 2 users would succeed. Nothing has changed yet.');
    expect(await shownIds(page, 'The users as they would be')).toEqual([o1, o2]);
    expect((await api.get(`/v2/users/${o1}`)).body.department_id).toBeNull();
    await expectAccessible(view, "a department's page, a preview that succeeds");
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/v2/departments/${run}/users`, async (route) => {
      await held;
      await route.continue();
    });
    await add.getByRole('button', { name: 'Add 2 users' }).click();
    await expect.poll(() => add.locator('.busy', { hasText: 'Adding 2 users…' }).count()).toBe(1);
    release();
    await settled(page);
    await page.unroute(`**/v2/departments/${run}/users`);
    expect(await add.locator('.done').textContent()).toBe('Added 2 users.');
    expect((await api.get(`/v2/users/${o2}`)).body.department_id).toBe(run);
    expect((await api.get(`/v2/departments/${run}`)).body.user_count).toBe(5);

    // The members, against the API, and E1's filters.
    const members = page.getByRole('region', { name: 'Members' });
    expect(await shownIds(page, 'Members')).toEqual(await apiIds(api, `/v2/departments/${run}/users?count=25`, 'users'));
    expect(await members.getByRole('navigation', { name: 'Pages of members' }).textContent()).toContain('5 members shown of 5');
    await members.getByLabel('Role', { exact: true }).selectOption('admin');
    await members.getByRole('button', { name: 'Apply' }).click();
    await settled(page);
    expect(await shownIds(page, 'Members')).toEqual([m1]);
    expect(new URL(page.url()).searchParams.get('account_role')).toBe('admin');
    await page.goBack();
    await settled(page);
    expect(await shownIds(page, 'Members')).toHaveLength(5);

    // One member out (E4), then two (E5), asking first.
    await members.getByRole('button', { name: `Remove ${o1}` }).click();
    await expectAccessible(view, "a department's page, asking before removing a member");
    await page
      .getByRole('dialog', { name: `Remove ${o1}` })
      .getByRole('button', { name: 'Remove' })
      .click();
    await settled(page);
    expect((await api.get(`/v2/users/${o1}`)).body.department_id).toBeNull();
    await members.getByLabel(`Select ${o2}`).check();
    await members.getByLabel(`Select ${m3}`).check();
    await members.getByRole('button', { name: 'Remove the 2 selected' }).click();
    await page.getByRole('dialog', { name: 'Remove the 2 selected' }).getByRole('button', { name: 'Remove them' }).click();
    await settled(page);
    expect(await members.locator('.done').textContent()).toBe('Removed 2 users from the department.');
    expect((await api.get(`/v2/users/${m3}`)).body.department_id).toBeNull();
    expect(await shownIds(page, 'Members')).toEqual([m1, m2]);
    expect(await quotas.locator('.quota-words').first().textContent()).toBe('2 of 10');

    // A rename after someone else's: 412, reload, then the rename.
    expect((await api.patch(`/v2/departments/${run}`, { name: `${run} Theirs` })).status).toBe(200);
    const rename = page.getByRole('region', { name: 'Rename' });
    await rename.getByLabel('Name').fill(`${run} Mine`);
    await rename.getByRole('button', { name: 'Rename' }).click();
    await settled(page);
    expect(await rename.getByRole('alert').textContent()).toContain('Someone else changed this since you opened it');
    await expectAccessible(view, "a department's page, a stale rename");
    await rename.getByRole('button', { name: 'Reload' }).click();
    await settled(page);
    expect(await rename.getByLabel('Name').inputValue()).toBe(`${run} Theirs`);
    await rename.getByLabel('Name').fill(`${run} Mine`);
    await rename.getByRole('button', { name: 'Rename' }).click();
    await settled(page);
    expect((await api.get(`/v2/departments/${run}`)).body.name).toBe(`${run} Mine`);
    // The page reads the department again after the change (a request that starts just after the change's answer).
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(`${run} Mine`);

    // Delete: refused while it has members, then done once empty.
    const remove = page.getByRole('region', { name: 'Delete' });
    await remove.getByRole('button', { name: 'Delete department' }).click();
    await page.getByRole('dialog', { name: 'Delete department' }).getByRole('button', { name: 'Delete' }).click();
    await settled(page);
    expect(await remove.getByRole('alert').textContent()).toBe('The department still has 2 users: move or remove them first.');
    expect((await api.get(`/v2/departments/${run}`)).status).toBe(200);
    expect((await api.delete(`/v2/departments/${run}/users`, { user_ids: [m1, m2] })).status).toBe(204);
    await page.reload();
    await settled(page);
    await page.getByRole('button', { name: 'Delete department' }).click();
    await page.getByRole('dialog', { name: 'Delete department' }).getByRole('button', { name: 'Delete' }).click();
    await settled(page);
    expect(await page.locator('.done').textContent()).toBe(`Deleted ${run} Mine. Back to departments`);
    expect((await api.get(`/v2/departments/${run}`)).status).toBe(404);
    await expectAccessible(view, "a department's page, deleted");
  }, 180_000);
});

describe('the Departments screens for a read-only token', () => {
  it('show the list and a department with its quotas and members, with no button that changes data', async () => {
    const run = `dr${Date.now().toString(36)}`;
    await createDepartments([run]);
    await createUsers(api, [{ id: `${run}-u`, last_name: run }]);
    await api.post(`/v2/departments/${run}/users/${run}-u`);
    const view = await openAt(harness, '/departments', { token: READ_TOKEN });
    const { page } = view;
    await settled(page);
    await expect.poll(() => page.getByText('Read only').count()).toBe(1);
    expect(await page.getByRole('button').allTextContents()).toEqual(['Sign out', 'Apply']);
    await expectAccessible(view, 'departments list, read only');
    await departmentFilters(page).getByLabel('Name starts with').fill(run);
    await departmentFilters(page).getByRole('button', { name: 'Apply' }).click();
    await settled(page);
    await page.getByRole('link', { name: run, exact: true }).click();
    await settled(page);
    expect(await page.locator('.quota').count()).toBe(6);
    expect(await shownIds(page, 'Members')).toEqual([`${run}-u`]);
    expect(await page.getByRole('button').allTextContents()).toEqual(['Sign out', 'Apply']);
    expect(await page.locator('main textarea, main input[type=checkbox], main input[type=number]').count()).toBe(0);
    await expectAccessible(view, "a department's page, read only");
  });
});
