/**
 * The Webhooks screens in Chromium, with a receiver on loopback (node:http on 127.0.0.1; the local stack's setting
 * WEBHOOKS_ALLOW_LOCAL lets the service send there). An administrator is refused an internal address in a sentence,
 * creates a webhook whose signing secret is shown once (and verifies the receiver's ping), sends a test and sees the
 * endpoint's 200 in the attempt and in the deliveries, pauses, resumes, rotates the secret (the new one shown once,
 * the old one good for 24 hours), deletes it; each step checked against the API. A read-only token sees the list,
 * the settings and the deliveries page by page, and no button or field that changes anything.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_TOKEN } from '../support/api';
import { apiCallsOnOpen, expectAccessible, go, settled, useConsole } from '../support/console';

const harness = useConsole();
const { api } = harness;
const run = `wh${Date.now().toString(36)}`;
/** A page answers after its API calls, which take longer on a busy machine than expect.poll's default second. */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });

let receiver: Server;
let receiverUrl: string;
const received: Array<{ path: string; body: string; headers: IncomingHttpHeaders }> = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // The local stack's deployment setting: http and loopback endpoints allowed.
  await api.redeploy({ adjust: (fn) => ({ ...fn, environment: { ...fn.environment, WEBHOOKS_ALLOW_LOCAL: 'true' } }) });
}, 120_000);
afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
});

/** The last request the receiver got at `path`, verified with `secret` as a receiver would (throws when it does not verify). */
function verifiedAt(path: string, secret: string) {
  const delivery = received.filter((request) => request.path === path).at(-1);
  expect(delivery).toBeDefined();
  return new Webhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>) as { type: string; data: unknown };
}

const rowOf = (page: Page, url: string) => page.locator('tbody tr', { has: page.getByRole('rowheader', { name: url, exact: true }) });
/** The value beside a name in the webhook's settings. */
const setting = (page: Page, name: string) => page.locator('dl.fields dt', { hasText: name }).locator('xpath=following-sibling::dd[1]').textContent();
/** The last change's result: its sentence, or its problem (which a test then shows as what it got). */
const done = (page: Page) => page.locator('.done, .problem').last().textContent();

describe('the Webhooks screen', () => {
  it('creates a webhook (secret once), tests it, pauses, resumes, rotates and deletes it, as the API has it', async () => {
    const view = await harness.open('/');
    const { page } = view;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    expect(await apiCallsOnOpen(view, '/webhooks')).toEqual(['GET /v2/webhooks']);
    expect(await page.getByRole('link', { name: 'Webhooks', exact: true }).getAttribute('aria-current')).toBe('page');
    await expectAccessible(view, 'Webhooks');

    // An internal address is refused, in words.
    await page.getByLabel('URL of the endpoint (https)').fill('http://10.0.0.1/hook');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await eventually(() => page.locator('.problem').count()).toBe(1);
    expect(await page.locator('.problem').textContent()).toContain('url');
    await expectAccessible(view, 'Webhooks, refused address');

    const url = `${receiverUrl}/hook/${run}`;
    const description = `${run} HR system`;
    await page.getByLabel('URL of the endpoint (https)').fill(url);
    await page.getByLabel(/^Description/).fill(description);
    await page.getByRole('group', { name: /^Changes of/ }).getByLabel('Users').check();
    await page.getByRole('group', { name: /^Changes of/ }).getByLabel('Groups').check();
    await page.getByLabel(/^Leave out the changes of these actors/).fill('hr-sync, payroll');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const secretField = page.getByLabel('Signing secret', { exact: true });
    await eventually(() => secretField.count()).toBe(1);
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(await page.locator('.secret').textContent()).toContain('it will not be shown again');
    expect(await page.locator('.problem').count()).toBe(0);
    await page.getByRole('button', { name: 'Copy the secret' }).click();
    await eventually(() => page.getByText('Copied.').count()).toBe(1);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);

    // The list shows it as the API has it, without the secret.
    const listed = await api.get('/v2/webhooks');
    expect(listed.text).not.toContain(secret);
    const made = listed.body.webhooks.find((webhook: { url: string }) => webhook.url === url);
    expect(made).toMatchObject({ description, resource_types: ['user', 'group'], exclude_actors: ['hr-sync', 'payroll'], status: 'active' });
    const row = rowOf(page, url);
    await eventually(() => row.count()).toBe(1);
    expect(await row.locator('td').allTextContents()).toEqual([description, 'only users, groups; not by hr-sync, payroll', 'active']);
    await expectAccessible(view, 'Webhooks, new secret');

    // Its page: the secret is gone.
    await row.getByRole('link', { name: url }).click();
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(`Webhook “${description}”`);
    await settled(page);
    expect(await page.content()).not.toContain(secret);
    expect(await setting(page, 'Status')).toBe('active');
    expect(await setting(page, 'Resource types')).toBe('user, group');
    expect(await page.getByText('Nothing was sent yet.').count()).toBe(1);
    await expectAccessible(view, 'Webhook');

    // A test: the receiver gets a ping signed with the secret the page showed; the page says 200, as the log has it.
    await page.getByRole('button', { name: 'Send a test ping' }).click();
    await eventually(() => page.locator('p[role="status"]', { hasText: 'Sent a test ping.' }).count()).toBe(1);
    const log = (await api.get(`/v2/webhooks/${made.id}/deliveries`)).body.deliveries;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ status_code: 200, attempt: 1, error: null });
    expect(await page.locator('p[role="status"]', { hasText: 'Sent a test ping.' }).textContent()).toBe(
      `Sent a test ping. The endpoint answered 200 in ${log[0].duration_ms} ms.`,
    );
    expect(verifiedAt(`/hook/${run}`, secret)).toMatchObject({ type: 'ping', data: { webhook_id: made.id } });
    const logged = page.locator(`tr[data-delivery-id="${log[0].id}"]`);
    await eventually(() => logged.count()).toBe(1);
    expect(await logged.locator('td').allTextContents()).toEqual([
      `test ping ${log[0].change_id}`,
      '1',
      '200',
      `${log[0].duration_ms} ms`,
      '—',
      '—',
    ]);
    expect(await logged.locator('th time').getAttribute('datetime')).toBe(log[0].at);
    await expectAccessible(view, 'Webhook, tested');

    await page.getByRole('button', { name: 'Pause' }).click();
    await eventually(() => done(page)).toContain('Paused: nothing is delivered until it is resumed');
    await eventually(() => setting(page, 'Status')).toBe('paused');
    expect((await api.get(`/v2/webhooks/${made.id}`)).body.status).toBe('paused');
    await expectAccessible(view, 'Webhook, paused');
    await page.getByRole('button', { name: 'Resume' }).click();
    await eventually(() => done(page)).toContain('Resumed');
    await eventually(() => setting(page, 'Status')).toBe('active');
    expect((await api.get(`/v2/webhooks/${made.id}`)).body.status).toBe('active');

    // A new secret, after asking: shown once, with the old one's 24 hours; the next ping verifies with the new one and with the old.
    await page.getByRole('button', { name: 'Rotate the signing secret' }).click();
    const rotating = page.getByRole('dialog', { name: 'Rotate the signing secret' });
    expect(await rotating.textContent()).toContain('24 hours');
    await expectAccessible(view, 'Webhook, rotating');
    await rotating.getByRole('button', { name: 'Make a new secret' }).click();
    const newSecretField = page.getByLabel('New signing secret', { exact: true });
    await eventually(() => newSecretField.count()).toBe(1);
    const newSecret = await newSecretField.inputValue();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    const shown = await page.locator('.secret').textContent();
    expect(shown).toContain('The old one still verifies deliveries for 24 hours');
    expect(shown).toContain('it will not be shown again');
    await expectAccessible(view, 'Webhook, new secret');
    await page.getByRole('button', { name: 'Send a test ping' }).click();
    await eventually(() => page.locator('p[role="status"]', { hasText: 'Sent a test ping.' }).textContent()).toContain('answered 200');
    expect(verifiedAt(`/hook/${run}`, newSecret)).toMatchObject({ type: 'ping' });
    expect(verifiedAt(`/hook/${run}`, secret)).toMatchObject({ type: 'ping' });
    // The new secret, too, is gone once the screen is left.
    await go(page, '/webhooks');
    await settled(page);
    await go(page, `/webhooks/${made.id}`);
    await settled(page);
    expect(await page.content()).not.toContain(newSecret);

    await page.getByRole('button', { name: 'Delete the webhook' }).click();
    const deleting = page.getByRole('dialog', { name: 'Delete the webhook' });
    expect(await deleting.textContent()).toContain(url);
    await expectAccessible(view, 'Webhook, deleting');
    await deleting.getByRole('button', { name: 'Delete' }).click();
    await eventually(() => done(page)).toBe(`Deleted the webhook for ${url}: nothing more is delivered to it.`);
    expect((await api.get(`/v2/webhooks/${made.id}`)).status).toBe(404);
    await expectAccessible(view, 'Webhook, deleted');
    await page.getByRole('link', { name: 'Back to the webhooks' }).click();
    await settled(page);
    expect(await rowOf(page, url).count()).toBe(0);
    // Ten states, each checked at four looks: longer than a test's default minute on a busy machine.
  }, 300_000);

  it('shows a read-only token the list, a webhook and its deliveries page by page, and nothing that changes data', async () => {
    // Reports only: no change of this test reaches it, so its log holds the pings alone.
    const url = `${receiverUrl}/read/${run}`;
    const created = await api.post('/v2/webhooks', { url, resource_types: ['report'], description: `${run} read` });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    for (let ping = 0; ping < 21; ping++) expect((await api.post(`/v2/webhooks/${id}/test`)).status).toBe(200);
    expect((await api.patch(`/v2/webhooks/${id}`, { status: 'paused' })).status).toBe(200);

    const view = await harness.open('/webhooks', { token: READ_TOKEN });
    const { page } = view;
    await eventually(() => page.getByText('Read only').count()).toBe(1);
    await settled(page);
    const row = rowOf(page, url);
    await eventually(() => row.count()).toBe(1);
    expect(await row.locator('td').allTextContents()).toEqual([`${run} read`, 'only reports', 'paused']);
    expect(await page.locator('main').getByRole('button').count()).toBe(0);
    expect(await page.locator('main input').count()).toBe(0);
    await expectAccessible(view, 'Webhooks, read only');

    await row.getByRole('link', { name: url }).click();
    await settled(page);
    await eventually(() => setting(page, 'Status')).toBe('paused');
    const first = await api.get(`/v2/webhooks/${id}/deliveries?count=20`, { token: READ_TOKEN });
    const shownIds = () => page.locator('tbody tr').evaluateAll((rows) => rows.map((tr) => tr.getAttribute('data-delivery-id')));
    await eventually(shownIds).toEqual(first.body.deliveries.map((delivery: { id: string }) => delivery.id));
    expect(await page.getByRole('navigation', { name: 'Pages of attempts' }).textContent()).toContain('20 attempts shown');
    expect(await page.locator('main').getByRole('button').count()).toBe(0);
    await expectAccessible(view, 'Webhook, read only');

    await page.getByRole('link', { name: 'Next page' }).click();
    await settled(page);
    const second = await api.get(`/v2/webhooks/${id}/deliveries?count=20&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.body.deliveries).toHaveLength(1);
    await eventually(shownIds).toEqual([second.body.deliveries[0].id]);
    expect(page.url()).toContain('cursor=');
    await page.goBack();
    await eventually(shownIds).toEqual(first.body.deliveries.map((delivery: { id: string }) => delivery.id));
  });
});
