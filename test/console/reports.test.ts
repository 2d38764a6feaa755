/**
 * The reports screen in Chromium: an administrator starts a departments report e-mailed to someone and a groups
 * report, watches the announced progress until the background worker (started by useApi, as npm start runs it)
 * completes them, and downloads the CSV in the browser; the status shown is the API's. A read-only token follows a
 * report by its link and can start none.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { READ_TOKEN } from '../support/api';
import { apiCallsOnOpen, expectAccessible, settled, useConsole } from '../support/console';

const harness = useConsole();
/** A page answers after its API calls, which take longer on a busy machine than expect.poll's default second. */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });
const { api } = harness;
const run = `rp${Date.now().toString(36)}`;

const DEPARTMENTS_HEADER =
  'department_id,name,user_count,activated_users,admins,managers,guests,users_limit,activated_users_limit,admins_limit,managers_limit,guests_limit,seats_limit,created_at';
const GROUPS_HEADER = 'group_id,group_name,group_description,user_id,email,first_name,last_name,account_role';

/** The report the page follows, from its address (`?type=…&report=…`). */
const followed = (page: Page) => new URL(page.url()).searchParams.get('report');

/** The worker writes the CSV in the background: a report of a few rows completes in seconds. */
const UNTIL_COMPLETE = { timeout: 30_000, interval: 250 };

describe('the reports screen', () => {
  it('makes a departments report e-mailed, shows its progress until complete, and downloads the CSV', async () => {
    expect((await api.post('/v2/departments', { id: `${run}-d`, name: `${run} Reports` })).status).toBe(201);
    const view = await harness.open('/');
    const { page } = view;
    // Nothing to read until a report is started: the API lists no reports.
    expect(await apiCallsOnOpen(view, '/reports')).toEqual([]);
    await expectAccessible(view, 'reports');

    await page.getByLabel(/^E-mail it to/).fill(`${run}@example.com`);
    await page.getByRole('button', { name: 'Start the report' }).click();
    await eventually(() => followed(page)).not.toBeNull();
    const reportId = followed(page)!;
    expect(new URL(page.url()).searchParams.get('type')).toBe('departments');
    const status = page.getByRole('status').filter({ hasText: 'The report is' });
    await expect.poll(() => status.textContent(), UNTIL_COMPLETE).toMatch(/The report is complete\. It has \d+ rows\./);
    await expect.poll(() => page.locator('.fields').textContent(), UNTIL_COMPLETE).toContain(`to ${run}@example.com: sent`);

    const report = await api.get(`/v2/departments/exports/${reportId}`);
    expect(report.body).toMatchObject({ status: 'complete', email: { recipients: [`${run}@example.com`], status: 'sent' } });
    expect(await status.textContent()).toBe(`The report is complete. It has ${report.body.row_count} rows.`);
    const link = page.getByRole('link', { name: `Download the CSV (${report.body.row_count} rows)` });
    const href = (await link.getAttribute('href'))!;
    expect(new URL(href).pathname).toBe(new URL(report.body.download_url).pathname);
    await expectAccessible(view, 'reports, complete');

    // A reload (or the link shared) keeps following the same report.
    await page.reload();
    await eventually(() => status.textContent()).toContain('complete');

    // The browser saves the file the link points to (a pre-signed S3 link: the only request to another origin).
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: /^Download the CSV/ }).click();
    const saved = await (await download).path();
    const csv = await readFile(saved, 'utf8');
    expect(csv.split('\r\n')[0]).toBe(DEPARTMENTS_HEADER);
    expect(csv).toContain(`${run}-d,${run} Reports,0,`);
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(report.body.row_count + 1);
    expect(view.faults.map((fault) => fault.replace(/\?.*/, ''))).toEqual([`request elsewhere: ${href.replace(/\?.*/, '')}`]);
  });

  it('makes a groups report and offers the link the API signs', async () => {
    expect((await api.post('/v2/groups', { id: `${run}-g`, name: `${run} Group` })).status).toBe(201);
    const view = await harness.open('/reports');
    const { page } = view;
    await settled(page);
    await page.getByLabel('Groups, one row per member').check();
    await page.getByRole('button', { name: 'Start the report' }).click();
    await eventually(() => new URL(page.url()).searchParams.get('type')).toBe('groups');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'The report is' }).textContent(), UNTIL_COMPLETE).toContain('complete');
    const report = await api.get(`/v2/groups/exports/${followed(page)}`);
    expect(report.body.status).toBe('complete');
    expect(report.body.email).toBeNull();
    const href = await page.getByRole('link', { name: /^Download the CSV/ }).getAttribute('href');
    const file = await fetch(href!);
    expect(file.status).toBe(200);
    const csv = await file.text();
    expect(csv.split('\r\n')[0]).toBe(GROUPS_HEADER);
    expect(csv).toContain(`${run}-g,${run} Group,,,`);
    await expectAccessible(view, 'groups report, complete');
  });

  it('lets a read-only token follow a report by its link but start none', async () => {
    const started = await api.post('/v2/departments/exports');
    expect(started.status).toBe(202);
    const view = await harness.open('/reports', { token: READ_TOKEN });
    const { page } = view;
    await eventually(() => page.getByText('Read only').count()).toBe(1);
    await settled(page);
    expect(await page.locator('main').getByRole('button').count()).toBe(0);
    expect(await page.locator('main input').count()).toBe(0);
    expect(await page.locator('main').textContent()).toContain('Your token may only read');
    await expectAccessible(view, 'reports, read only');

    await page.goto(`${api.baseUrl}/console?type=departments&report=${started.body.id}#/reports`);
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'The report is' }).textContent(), UNTIL_COMPLETE)
      .toContain('complete');
    expect(await page.getByRole('link', { name: /^Download the CSV/ }).count()).toBe(1);
    expect(await page.locator('main').getByRole('button').count()).toBe(0);
    await expectAccessible(view, 'a report, read only');
  });
});
