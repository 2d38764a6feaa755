/**
 * The docs page and the console's link in a real browser: `npm start` serves /docs, and
 * Debian's chromium, driven by playwright-core, renders it and lists every
 * operation of the document, with no script error and nothing loaded from
 * anywhere but the service (no CDN).
 *
 * Needs `chromium` on PATH (or CHROMIUM_PATH); .ci/run installs it with apt.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDocument } from '../../lib/openapi/generate';
import { START_TIMEOUT_MS, startService, stopService, type StartedService } from '../support/npm-start';

/** Redoc's menu shows the Redocly logo from its CDN; the page's CSP refuses it and Redoc then hides it. */
const REDOCLY_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

describe('the docs page', () => {
  let dataDir: string;
  let service: StartedService | undefined;
  let browser: Browser | undefined;
  let baseUrl: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'docs-page-'));
    service = startService(dataDir, { ADMIN_API_TOKEN: 'docs-page-test-token' });
    [baseUrl, browser] = await Promise.all([service.url, launchChromium()]);
  }, START_TIMEOUT_MS + 10_000);

  afterAll(async () => {
    await browser?.close();
    if (service) await stopService(service.child);
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('starts with a banner that says once, in one line, which Node the Lambdas run, and no AWS SDK Node-version warning', async () => {
    // A route that reads the table makes the first SDK client, which is when the SDK would warn.
    const users = await fetch(`${baseUrl}/v2/users?count=1`, { headers: { authorization: 'Bearer docs-page-test-token' } });
    expect(users.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const output = service!.output();
    const nodeLines = output.split('\n').filter((line) => /the Lambdas run Node \d+ \(nodejs\d+\.x\)/.test(line));
    expect(nodeLines, output).toHaveLength(1);
    expect(nodeLines[0]).toContain(`${process.version} here; the Lambdas run Node 22 (nodejs22.x)`);
    expect(output).not.toMatch(/NodeVersionSupportWarning|AWS SDK for JavaScript \(v3\)/);
  });

  it('renders every operation of the document, without a script error, from the service alone', async () => {
    const { document } = await generateDocument();
    const operations = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((operation) => operation as { operationId: string; summary: string }),
    );

    const page = await browser!.newPage();
    const errors: string[] = [];
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      // Redoc's search runs in a worker made from a blob of the page itself.
      if (!/^(data:|blob:)/.test(request.url()) && !request.url().startsWith(`${baseUrl}/`)) elsewhere.push(request.url());
    });
    page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
    page.on('requestfailed', (request) => errors.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));

    const response = await page.goto(`${baseUrl}/docs`);
    expect(response?.status()).toBe(200);
    // Redoc gives each operation a section `operation/<operationId>` and an entry in the side menu.
    await page.waitForSelector('[data-section-id^="operation/"]', { timeout: 20_000 });
    const sections = await page.$$eval('[data-section-id^="operation/"]', (nodes) =>
      nodes.map((node) => node.getAttribute('data-section-id')),
    );
    expect(new Set(sections)).toEqual(new Set(operations.map((operation) => `operation/${operation.operationId}`)));
    const menu = await page.$$eval('[role="menuitem"], .menu-content li label', (nodes) =>
      nodes.map((node) => node.textContent ?? '').join('\n'),
    );
    for (const operation of operations) expect(menu, operation.operationId).toContain(operation.summary);
    expect(await page.title()).toBe((document.info as { title: string }).title);
    expect(elsewhere.filter((url) => url !== REDOCLY_LOGO)).toEqual([]);
    expect(errors.filter((error) => !error.includes(REDOCLY_LOGO))).toEqual([]);
    await page.close();
  }, 30_000);

  it('prints a console link that opens the console signed in, with nothing else to do', async () => {
    const link = /console\s+(http:\/\/\S+)/.exec(service!.output())![1];
    expect(link).toBe(`${baseUrl}/console#token=docs-page-test-token`);
    const page = await browser!.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(link);
    await page.getByRole('heading', { name: 'Overview' }).waitFor({ timeout: 20_000 });
    await page.locator('.total-number', { hasText: /^\d+$/ }).first().waitFor();
    // The token rode in the fragment: no request carried it in its address, and the address bar no longer shows it.
    expect(requests.filter((url) => url.includes('docs-page-test-token'))).toEqual([]);
    expect(page.url()).toBe(`${baseUrl}/console#/`);
    await page.close();
  }, 30_000);
});
