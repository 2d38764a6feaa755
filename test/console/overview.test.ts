/**
 * The console's frame and overview in Chromium: signing in by the link's
 * fragment (and the token leaving the address bar), the totals and the
 * departments at a quota as the API has them, a read-only token, signing out.
 */
import { describe, expect, it } from 'vitest';
import { READ_TOKEN } from '../support/api';
import { expectAccessible, settled, useConsole } from '../support/console';

const harness = useConsole();
const { api } = harness;

describe('the console overview', () => {
  it('signs in from the link, forgets the token in the address bar, and shows the totals the API has', async () => {
    const run = `ov${Date.now().toString(36)}`;
    await api.post('/v2/departments', { id: `${run}-full`, name: `${run} Full` });
    await api.put(`/v2/departments/${run}-full/quotas`, { name: 'users', limit: 1 });
    await api.post('/v2/users', {
      id: `${run}-u`,
      email: `${run}@example.com`,
      first_name: 'Ada',
      last_name: 'Lovelace',
      account_role: 'member',
      activated: true,
    });
    await api.post(`/v2/departments/${run}-full/users/${run}-u`);

    const view = await harness.open('/');
    const { page } = view;
    await settled(page);
    expect(page.url()).not.toContain('token=');
    const totals = await Promise.all(['users', 'departments', 'groups'].map((kind) => api.get(`/v2/${kind}?count=1`)));
    const shown = await page.locator('.total').allTextContents();
    expect(shown.map((text) => text.replace(/\s+/g, ' ').trim())).toEqual([
      `${totals[0].body.total} users`,
      `${totals[1].body.total} departments`,
      `${totals[2].body.total} groups`,
    ]);
    const atQuota = page.locator('section', { has: page.getByRole('heading', { name: 'Departments at or over a quota' }) });
    await expect.poll(() => atQuota.getByText(`${run} Full`).count()).toBe(1);
    expect(await atQuota.locator('.quota', { hasText: 'users' }).first().textContent()).toContain('1 of 1, at the limit');
    await expectAccessible(view, 'overview');
  });

  it('shows a read-only token no button that changes data, and signing out forgets the token', async () => {
    const view = await harness.open('/', { token: READ_TOKEN });
    const { page } = view;
    await settled(page);
    await expect.poll(() => page.getByText('Read only').count()).toBe(1);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.getByLabel('API token').count()).toBe(1);
    expect(await page.evaluate('JSON.stringify(sessionStorage)')).toBe('{}');
    await page.reload();
    await expect.poll(() => page.getByLabel('API token').count()).toBe(1);
    await expectAccessible(view, 'sign-in');
  });

  it('works with the keyboard alone: skip to the content, and reach every screen of the navigation', async () => {
    const { page } = await harness.open('/');
    await settled(page);
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement.id')).toBe('main');
    const links = await page.getByRole('navigation', { name: 'Screens' }).getByRole('link').allTextContents();
    expect(links[0]).toBe('Overview');
    for (const name of links.slice(1)) {
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name }).focus();
      await page.keyboard.press('Enter');
      // The new screen's heading takes the focus, so the keyboard carries on from there.
      await expect.poll(() => page.evaluate('document.activeElement.tagName')).toBe('H1');
      expect(await page.getByRole('link', { name, exact: true }).getAttribute('aria-current')).toBe('page');
    }
  });

  it('serves the page with a CSP that allows this origin only, and the assets for a year', async () => {
    const response = await fetch(`${api.baseUrl}/console`);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    const html = await response.text();
    const script = /src="(console\/[^"]+\.js)"/.exec(html)![1];
    const asset = await fetch(`${api.baseUrl}/${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${api.baseUrl}/console/..%2Fconsole.mjs`)).status).toBe(404);
    expect((await fetch(`${api.baseUrl}/console/index.html`)).status).toBe(404);
  });
});

describe('the accessibility check itself', () => {
  it('fails on a screen with a violation and on horizontal overflow at a phone width', async () => {
    const view = await harness.open('/');
    await settled(view.page);
    await view.page.evaluate(() => {
      const main = (
        globalThis as unknown as { document: { querySelector(s: string): { insertAdjacentHTML(p: string, h: string): void } } }
      ).document.querySelector('main');
      // The width by CSSOM: the page's CSP (rightly) ignores a style attribute in markup.
      main.insertAdjacentHTML('beforeend', '<button></button><div id="wide">wide</div>');
      (main as unknown as { lastElementChild: { style: { width: string } } }).lastElementChild.style.width = '2000px';
    });
    const error = await expectAccessible(view, 'a broken screen').then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(error).toMatch(/375px light: button-name/);
    expect(error).toMatch(/375px light: \d+px of horizontal overflow/);
    expect(error).toMatch(/1440px dark: button-name/);
  });
});
