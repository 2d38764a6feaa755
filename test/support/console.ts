/**
 * The console in a real browser, as an administrator uses it: the service's
 * bundled functions behind the local gateway (useApi), Debian's Chromium,
 * signed in by the link `npm start` prints (the token in the fragment).
 * Every page a test opens is watched: a script error, a CSP refusal or a
 * request to any other origin fails the test (checkPage).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { useApi, WRITE_TOKEN, type TestApi } from './api';
import { launchChromium } from './browser';

// What the functions given to page.evaluate see in the page (this project's types are Node's, not the DOM's).
declare const location: { hash: string };
declare const document: {
  documentElement: { scrollWidth: number; clientWidth: number };
  querySelectorAll(selector: string): Iterable<{ textContent: string | null }>;
};
declare const window: unknown;

export const PHONE = { width: 375, height: 800 };
export const DESKTOP = { width: 1440, height: 900 };
/** The widths and colour schemes every screen is checked at. */
export const LOOKS = [
  { viewport: PHONE, colorScheme: 'light' },
  { viewport: PHONE, colorScheme: 'dark' },
  { viewport: DESKTOP, colorScheme: 'light' },
  { viewport: DESKTOP, colorScheme: 'dark' },
] as const;

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface ConsolePage {
  page: Page;
  /** Script errors, CSP refusals, failed requests and requests to other origins seen so far. */
  faults: string[];
}

interface OpenOptions {
  token?: string | null;
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
}

export interface ConsoleHarness {
  api: TestApi;
  /** Opens the console signed in with `token` (the write token by default; null: signed out) at `route` (`/departments/eng`). */
  open(route?: string, options?: OpenOptions): Promise<ConsolePage>;
}

/** The API with its functions, and a browser, for one test file. */
export function useConsole(): ConsoleHarness {
  const api = useApi();
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
  });
  return {
    api,
    async open(route = '/', { token = WRITE_TOKEN, viewport = DESKTOP, colorScheme = 'light' }: Parameters<ConsoleHarness['open']>[1] = {}) {
      const context = await browser!.newContext({ viewport, colorScheme });
      contexts.push(context);
      const page = await context.newPage();
      const faults: string[] = [];
      page.on('pageerror', (error) => faults.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        // The browser logs a refused answer (a 404 the console shows as a sentence) as an error: only CSP refusals and script errors count.
        if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) faults.push(`console: ${message.text()}`);
      });
      const pending = new Set<Request>();
      inFlight.set(page, pending);
      page.on('request', (request) => {
        // A data: URL (the page's empty icon) reports no end.
        if (/^data:/.test(request.url())) return;
        pending.add(request);
        if (!request.url().startsWith(`${api.baseUrl}/`)) faults.push(`request elsewhere: ${request.url()}`);
      });
      const done = (request: Request) => pending.delete(request);
      page.on('requestfinished', done);
      page.on('requestfailed', done);
      if (token === null) {
        await page.goto(`${api.baseUrl}/console`);
        return { page, faults };
      }
      await page.goto(`${api.baseUrl}/console#token=${encodeURIComponent(token)}`);
      await page.waitForFunction(() => location.hash === '#/');
      if (route !== '/') await page.evaluate((hash) => (location.hash = hash), route);
      return { page, faults };
    },
  };
}

/** Opens a route by its fragment, as a link or the address bar would. */
export async function go(page: Page, route: string): Promise<void> {
  await page.evaluate((hash) => (location.hash = hash), route);
}

/** Requests of each page in flight (the console keeps none open, unlike the load state `networkidle` assumes). */
const inFlight = new WeakMap<Page, Set<Request>>();

/** Waits until no request of the page is in flight and nothing says it is loading. */
export async function settled(page: Page): Promise<void> {
  await expect.poll(() => [...(inFlight.get(page) ?? [])].map((request) => request.url()), { timeout: 15_000, interval: 50 }).toEqual([]);
  await page.waitForFunction(() => [...document.querySelectorAll('.busy')].every((element) => element.textContent === ''));
}

/** The outermost elements wider than the page, to say where an overflow comes from. */
function widest(page: Page): Promise<string> {
  return page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    const over = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > width + 1);
    const outermost = over.filter((el) => !over.includes(el.parentElement));
    return outermost.slice(0, 3).map((el) => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).replace(/ /g, '.') : '')).join(', ');
  })()`);
}

/**
 * The screen as it is now meets WCAG 2.1 AA by axe-core, and shows no horizontal scroll bar, at a phone's and a
 * desktop's width, light and dark; the page's own faults (script errors, CSP refusals, other origins) are none.
 */
export async function expectAccessible({ page, faults }: ConsolePage, screen: string): Promise<void> {
  const original = page.viewportSize();
  const found: string[] = [];
  for (const { viewport, colorScheme } of LOOKS) {
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme });
    await settled(page);
    // Evaluated, not a <script>: the page's CSP (rightly) refuses inline scripts.
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const axe = (
        window as {
          axe: {
            run: (
              context: unknown,
              options: object,
            ) => Promise<{ violations: Array<{ id: string; help: string; nodes: Array<{ target: string[] }> }> }>;
          };
        }
      ).axe;
      const result = await axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
        resultTypes: ['violations'],
      });
      return result.violations.map(
        (v) =>
          `${v.id} (${v.help}): ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 5)
            .join(', ')}`,
      );
    });
    found.push(...violations.map((violation) => `${viewport.width}px ${colorScheme}: ${violation}`));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (overflow > 0) found.push(`${viewport.width}px ${colorScheme}: ${overflow}px of horizontal overflow (${await widest(page)})`);
  }
  if (original) await page.setViewportSize(original);
  await page.emulateMedia({ colorScheme: 'light' });
  if (found.length > 0) throw new Error(`${screen}: not accessible:\n${found.join('\n')}`);
  if (faults.length > 0) throw new Error(`${screen}: page faults:\n${faults.join('\n')}`);
}

/**
 * The API calls (`GET /v2/groups?count=25`) a screen makes when a person opens it from another screen, until it has
 * settled: what each screen costs to open (the read-only probe and the overview's own calls are done before).
 */
export async function apiCallsOnOpen({ page }: ConsolePage, route: string): Promise<string[]> {
  await settled(page);
  const calls: string[] = [];
  const record = (request: Request) => {
    const url = new URL(request.url());
    if (!url.pathname.includes('/console')) calls.push(`${request.method()} ${url.pathname}${url.search}`);
  };
  page.on('request', record);
  await go(page, route);
  await settled(page);
  page.off('request', record);
  return calls;
}
