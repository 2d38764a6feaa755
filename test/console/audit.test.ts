/**
 * The audit trail in Chromium: changes made through the API, then the screen filtered by resource, operation and
 * time, each page's rows the API's answer to the same query (filters in the address, the next page by cursor); each
 * entry's changes readable. A read-only token reads it the same, with no button that changes data.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { READ_TOKEN } from '../support/api';
import { apiCallsOnOpen, expectAccessible, settled, useConsole } from '../support/console';

const harness = useConsole();
/** A page answers after its API calls, which take longer on a busy machine than expect.poll's default second. */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });
const { api } = harness;
const run = `au${Date.now().toString(36)}`;
/** The first walk makes 110 changes first, then checks four looks per state, on a machine shared with other work. */
const LONG_WALK = 120_000;

interface Entry {
  id: string;
  actor: string;
  operation: string;
  resource_type: string;
  resource_id: string;
}

/** The entry ids of the rows shown, in order. */
const shownIds = (rows: Locator) =>
  rows.evaluateAll((elements) => elements.map((element) => (element as unknown as { dataset: { entryId: string } }).dataset.entryId));
const rowsOf = (page: Page) => page.locator('table.audit tbody tr');
const queryOf = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

/** A group with `members` users added one by one (G4): 2 + 2 × members entries on the group and its users. */
async function makeChanges(groupId: string, members: number): Promise<void> {
  expect((await api.post('/v2/groups', { id: groupId, name: `${groupId} Audited` })).status).toBe(201);
  for (let i = 0; i < members; i++) {
    const userId = `${groupId}-u${i}`;
    expect((await api.post('/v2/users', { id: userId, email: `${userId}@example.com`, first_name: 'A', last_name: `U${i}` })).status).toBe(201);
    expect((await api.post(`/v2/groups/${groupId}/users/${userId}`)).status).toBe(200);
  }
  expect((await api.patch(`/v2/groups/${groupId}`, { name: `${groupId} Renamed` })).status).toBe(200);
}

describe('the audit trail', () => {
  it('shows the API’s entries for a resource and an operation, newest first, a page at a time by cursor', async () => {
    const groupId = `${run}-g`;
    await makeChanges(groupId, 55);
    const view = await harness.open('/');
    const { page } = view;
    expect(await apiCallsOnOpen(view, '/audit')).toEqual(['GET /v2/audit?count=50']);
    const latest = await api.get('/v2/audit?count=50');
    await eventually(() => shownIds(rowsOf(page))).toEqual(latest.body.entries.map((entry: Entry) => entry.id));
    await expectAccessible(view, 'audit trail');

    await page.getByLabel('Resource id').fill(groupId);
    await page.getByRole('button', { name: 'Show' }).click();
    const byResource = await api.get(`/v2/audit?query=resource_id:${groupId}&count=50`);
    expect(byResource.body.entries).toHaveLength(50);
    await eventually(() => shownIds(rowsOf(page))).toEqual(byResource.body.entries.map((entry: Entry) => entry.id));
    expect(queryOf(page)).toEqual({ resource_id: groupId });
    // Newest first: the rename, with its change readable.
    const rename = rowsOf(page).first();
    expect(await rename.locator('td').nth(1).textContent()).toBe(byResource.body.entries[0].operation);
    expect(await rename.locator('td').nth(3).textContent()).toBe(`name: ${groupId} Audited → ${groupId} Renamed`);
    expect(await rename.locator('td').nth(0).textContent()).toBe('local-admin');
    // A membership change names its user.
    expect(await rowsOf(page).nth(1).locator('td').nth(3).textContent()).toContain(`${groupId}-u54`);
    expect(await page.locator('.pager').textContent()).toContain('50 changes shown');
    expect(await page.locator('.pager').textContent()).not.toContain(' of ');

    await page.getByRole('link', { name: 'Next page' }).click();
    const next = await api.get(`/v2/audit?query=resource_id:${groupId}&count=50&cursor=${encodeURIComponent(byResource.body.next_cursor)}`);
    await eventually(() => shownIds(rowsOf(page))).toEqual(next.body.entries.map((entry: Entry) => entry.id));
    expect(queryOf(page)).toEqual({ resource_id: groupId, cursor: byResource.body.next_cursor });
    await expectAccessible(view, 'audit trail, next page');

    await page.getByLabel(/^Operation/).fill('G4');
    await page.getByRole('button', { name: 'Show' }).click();
    const added = await api.get(`/v2/audit?query=resource_id:${groupId},operation:G4&count=50`);
    await eventually(() => shownIds(rowsOf(page))).toEqual(added.body.entries.map((entry: Entry) => entry.id));
    expect(queryOf(page)).toEqual({ resource_id: groupId, operation: 'G4' });
    expect(new Set(await rowsOf(page).locator('td:nth-child(3)').allTextContents())).toEqual(new Set(['G4']));

    // A time bound: nothing happened after the next minute begins.
    const inAMinute = new Date(Date.now() + 60_000);
    const local = new Date(inAMinute.getTime() - inAMinute.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await page.getByLabel('At or after').fill(local);
    await page.getByRole('button', { name: 'Show' }).click();
    await eventually(() => queryOf(page).since).toBeDefined();
    const since = queryOf(page).since!;
    expect((await api.get(`/v2/audit?query=resource_id:${groupId},operation:G4&since=${since}`)).body.entries).toEqual([]);
    await eventually(() => page.getByText('No change matches.').count()).toBe(1);
    await expectAccessible(view, 'audit trail, nothing matches');

    // The back button returns to the filter before.
    await page.goBack();
    await eventually(() => shownIds(rowsOf(page))).toEqual(added.body.entries.map((entry: Entry) => entry.id));
  }, LONG_WALK);

  it('reads the same for a read-only token, with no button that changes data', async () => {
    const groupId = `${run}-ro`;
    await makeChanges(groupId, 1);
    const view = await harness.open('/audit', { token: READ_TOKEN });
    const { page } = view;
    await eventually(() => page.getByText('Read only').count()).toBe(1);
    await page.getByLabel('Resource id').fill(groupId);
    await page.getByRole('button', { name: 'Show' }).click();
    const answer = await api.get(`/v2/audit?query=resource_id:${groupId}&count=50`, { token: READ_TOKEN });
    await eventually(() => shownIds(rowsOf(page))).toEqual(answer.body.entries.map((entry: Entry) => entry.id));
    expect(await page.locator('main').getByRole('button').allTextContents()).toEqual(['Show']);
    await expectAccessible(view, 'audit trail, read only');
  });
});
