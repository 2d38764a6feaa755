/**
 * The SCIM tokens screen in Chromium: an administrator creates a token, whose secret is shown once (copied, and gone
 * once the screen is left) and works against SCIM; its last use shows in the list; revoking it (after asking)
 * stops it at once (the local SCIM authorizer checks each request). A read-only token sees the list only.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { READ_TOKEN } from '../support/api';
import { apiCallsOnOpen, expectAccessible, go, settled, useConsole } from '../support/console';

const harness = useConsole();
/** A page answers after its API calls, which take longer on a busy machine than expect.poll's default second. */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });
const { api } = harness;
const run = `sc${Date.now().toString(36)}`;

const scimConfig = (secret: string) =>
  fetch(`${api.baseUrl}/scim/v2/ServiceProviderConfig`, { headers: { authorization: `Bearer ${secret}` } });

/** The row of the token with this description. */
const rowOf = (page: Page, description: string) => page.locator('tbody tr', { has: page.getByRole('rowheader', { name: description, exact: true }) });

describe('the SCIM tokens screen', () => {
  it('creates a token whose secret is shown once and works, shows its last use, and revokes it', async () => {
    const description = `${run} Okta production`;
    const view = await harness.open('/');
    const { page } = view;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    expect(await apiCallsOnOpen(view, '/scim-tokens')).toEqual(['GET /v2/scim/tokens']);
    await expectAccessible(view, 'SCIM tokens');

    await page.getByLabel(/^Description/).fill(description);
    await page.getByRole('button', { name: 'Create token' }).click();
    const secretField = page.getByLabel('Secret', { exact: true });
    await eventually(() => secretField.count()).toBe(1);
    const secret = await secretField.inputValue();
    expect(await page.locator('.secret').textContent()).toContain('it will not be shown again');
    await page.getByRole('button', { name: 'Copy the secret' }).click();
    await eventually(() => page.getByText('Copied.').count()).toBe(1);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    await expectAccessible(view, 'SCIM tokens, new secret');

    // The list (as the API has it, without secrets) shows the token, never used yet.
    const listed = (await api.get('/v2/scim/tokens')).body.tokens.find((token: { description: string }) => token.description === description);
    expect(listed).toBeDefined();
    expect(JSON.stringify((await api.get('/v2/scim/tokens')).body)).not.toContain(secret);
    await eventually(() => rowOf(page, description).locator('td').nth(0).textContent()).toBe(listed.id);
    expect(await rowOf(page, description).locator('td').nth(3).textContent()).toBe('never');

    // The secret works against SCIM, and its use shows once the list is read again.
    const used = await scimConfig(secret);
    expect(used.status).toBe(200);
    expect(await used.json()).toMatchObject({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'] });
    await go(page, '/');
    await settled(page);
    await go(page, '/scim-tokens');
    await settled(page);
    const afterUse = (await api.get('/v2/scim/tokens')).body.tokens.find((token: { id: string }) => token.id === listed.id);
    expect(afterUse.last_used_at).not.toBeNull();
    await eventually(() => rowOf(page, description).locator('td').nth(3).locator('time').getAttribute('datetime')).toBe(afterUse.last_used_at);
    // Left and come back: the secret is gone from the page.
    expect(await page.getByLabel('Secret', { exact: true }).count()).toBe(0);
    expect(await page.locator('input').evaluateAll((inputs, shown) => inputs.some((input) => (input as unknown as { value: string }).value === shown), secret)).toBe(false);
    expect(await page.content()).not.toContain(secret);

    await rowOf(page, description).getByRole('button', { name: `Revoke ${listed.id}` }).click();
    const dialog = page.getByRole('dialog', { name: `Revoke ${listed.id}` });
    expect(await dialog.textContent()).toContain(description);
    await expectAccessible(view, 'SCIM tokens, revoking');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await eventually(() => page.locator('.done').textContent()).toContain(`Revoked the token “${description}”`);
    await eventually(() => rowOf(page, description).count()).toBe(0);
    expect((await api.get('/v2/scim/tokens')).body.tokens.some((token: { id: string }) => token.id === listed.id)).toBe(false);
    expect((await scimConfig(secret)).status).toBe(401);
    await expectAccessible(view, 'SCIM tokens, revoked');
  });

  it('shows a read-only token the list and last use, and no button that changes data', async () => {
    const created = await api.post('/v2/scim/tokens', { description: `${run} Entra`, expires_at: '2099-01-01T00:00:00.000Z' });
    expect(created.status).toBe(201);
    const view = await harness.open('/scim-tokens', { token: READ_TOKEN });
    const { page } = view;
    await eventually(() => page.getByText('Read only').count()).toBe(1);
    await settled(page);
    const row = rowOf(page, `${run} Entra`);
    await eventually(() => row.locator('td').nth(0).textContent()).toBe(created.body.id);
    expect(await row.locator('td').nth(2).locator('time').getAttribute('datetime')).toBe('2099-01-01T00:00:00.000Z');
    expect(await page.locator('main').getByRole('button').count()).toBe(0);
    expect(await page.locator('main input').count()).toBe(0);
    await expectAccessible(view, 'SCIM tokens, read only');
  });
});
