/**
 * The overview's latest changes in Chromium: the audit trail's newest at open, then the change feed followed while
 * the screen is open. A change made through the API after the page opened appears within about 12 seconds of its
 * answer without a reload, announced politely while the focus stays put; nothing is asked while the tab is hidden
 * (what changed meanwhile comes when it is shown again) or once the person left the overview.
 */
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { READ_TOKEN } from '../support/api';
import { expectAccessible, go, settled, useConsole } from '../support/console';

const harness = useConsole();
const { api } = harness;
const run = `of${Date.now().toString(36)}`;

/** The contract's 10 seconds from an answer to the feed, and a poll's 5 s at most on top, less what the poll overlaps. */
const SHOWN_WITHIN_MS = 12_000;

const latest = (page: Page) => page.locator('section', { has: page.getByRole('heading', { name: 'Latest changes' }) });
const shownIds = (page: Page) =>
  latest(page)
    .locator('li')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-entry-id')));
const announcement = (page: Page) => latest(page).locator('[aria-live="polite"]:not(.busy)').textContent();

/** The audit entry of the one change made to a resource. */
async function entryOf(resourceId: string) {
  const entries = (await api.get(`/v2/audit?query=resource_id:${resourceId}`)).body.entries;
  expect(entries).toHaveLength(1);
  return entries[0] as { id: string; operation: string; resource_type: string; actor: string };
}

/** Counts the page's requests to the change feed from now on. */
function feedRequests(page: Page): { count: () => number; stop: () => void } {
  let count = 0;
  const seen = (request: Request) => void (new URL(request.url()).pathname === '/v2/changes' && count++);
  page.on('request', seen);
  return { count: () => count, stop: () => page.off('request', seen) };
}

const setVisibility = (page: Page, state: 'hidden' | 'visible') =>
  page.evaluate(
    `Object.defineProperty(document, 'visibilityState', { value: '${state}', configurable: true }); document.dispatchEvent(new Event('visibilitychange'))`,
  );

describe('the overview follows the change feed', () => {
  it('shows the newest changes at open, then a change made after it opened, within 12 s, announced without moving the focus', async () => {
    await api.post('/v2/departments', { id: `${run}-before`, name: `${run} Before` });
    const view = await harness.open('/');
    const { page } = view;
    await settled(page);
    const newest = (await api.get('/v2/audit?count=5')).body.entries.map((entry: { id: string }) => entry.id);
    expect(await shownIds(page)).toEqual(newest);
    expect(await announcement(page)).toBe('');
    await expectAccessible(view, 'overview, latest changes');

    // The person is reading elsewhere on the page; the page is never reloaded.
    const trailLink = page.getByRole('link', { name: 'The whole audit trail' });
    await trailLink.focus();
    await page.evaluate('window.notReloaded = true');

    const created = await api.post('/v2/departments', { id: `${run}-after`, name: `${run} After` });
    expect(created.status).toBe(201);
    const answeredAt = Date.now();
    const entry = await entryOf(`${run}-after`);
    await expect.poll(() => shownIds(page), { timeout: SHOWN_WITHIN_MS, interval: 100 }).toContain(entry.id);
    expect(Date.now() - answeredAt).toBeLessThan(SHOWN_WITHIN_MS);

    expect((await shownIds(page))[0]).toBe(entry.id);
    expect(await latest(page).locator(`li[data-entry-id="${entry.id}"]`).textContent()).toContain(`${run}-after`);
    expect(await announcement(page)).toBe(`1 new change: ${entry.operation} on ${entry.resource_type} ${run}-after by ${entry.actor}.`);
    expect(await page.evaluate('document.activeElement.textContent')).toBe('The whole audit trail');
    expect(await page.evaluate('window.notReloaded')).toBe(true);
    await expectAccessible(view, 'overview, a change arrived');
  });

  it('asks nothing while the tab is hidden and shows what changed meanwhile once visible; stops once the overview is left (read-only token)', async () => {
    const view = await harness.open('/', { token: READ_TOKEN });
    const { page } = view;
    await settled(page);
    // The first poll (since=now) has answered: the overview follows from here.
    await expect.poll(() => page.getByText('Read only').count()).toBe(1);

    await setVisibility(page, 'hidden');
    const whileHidden = feedRequests(page);
    await api.post('/v2/departments', { id: `${run}-hidden`, name: `${run} Hidden` });
    const entry = await entryOf(`${run}-hidden`);
    // Longer than a poll's interval and the feed's holding back: shown, it would have appeared by now.
    await page.waitForTimeout(11_000);
    whileHidden.stop();
    expect(whileHidden.count()).toBe(0);
    expect(await shownIds(page)).not.toContain(entry.id);

    await setVisibility(page, 'visible');
    await expect.poll(() => shownIds(page), { timeout: 2_000, interval: 100 }).toContain(entry.id);

    await go(page, '/users');
    await settled(page);
    const afterLeaving = feedRequests(page);
    await page.waitForTimeout(6_000);
    afterLeaving.stop();
    expect(afterLeaving.count()).toBe(0);
  });
});
