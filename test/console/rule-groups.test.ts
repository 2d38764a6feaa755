/**
 * Rule groups in the console (docs/rule-groups.md), in Chromium, as an administrator uses them: creating a group kept by a rule
 * after its preview, the list marking it with its rule and status; on a group's page setting a rule (the preview's
 * numbers and samples are the API's dry run), waiting until it is current and the members shown are the API's,
 * changing it (a rule matching more than a group holds is refused in a sentence), turning it off; a page left open
 * while someone else sets a rule says why its member change is refused. Then a read-only token, which sees the rule
 * and no control that changes it. The member limit is lowered to 3 (RULE_GROUP_MAX_USERS) so it binds with 4 users.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { READ_TOKEN } from '../support/api';
import { expectAccessible, settled, useConsole } from '../support/console';

const harness = useConsole();
const { api } = harness;
/** A page answers after its API calls, and a rule applies within seconds: longer than expect.poll's default second. */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000, interval: 100 });
const run = `rc${Date.now().toString(36)}`;
const LIMIT = 3;
/** Walks with several states, each checked in four looks, on a machine shared with other work. */
const LONG_WALK = 180_000;

beforeAll(async () => {
  await api.redeploy({ adjust: (fn) => ({ ...fn, environment: { ...fn.environment, RULE_GROUP_MAX_USERS: String(LIMIT) } }) });
}, 120_000);

async function department(id: string) {
  const answer = await api.post('/v2/departments', { id, name: id });
  expect(answer.status, answer.text).toBe(201);
  return id;
}

async function user(id: string, account_role: string, departmentId: string) {
  const answer = await api.post('/v2/users', { id, email: `${id}@example.com`, first_name: 'Test', last_name: id, account_role });
  expect(answer.status, answer.text).toBe(201);
  expect((await api.post(`/v2/departments/${departmentId}/users/${id}`)).status).toBe(200);
  return id;
}

/** Department A: two members, an admin, a guest (4: over the lowered limit); B: a member and an admin. */
async function organization(prefix: string) {
  const a = await department(`${prefix}-a`);
  const b = await department(`${prefix}-b`);
  const users = {
    a1: await user(`${prefix}-a1`, 'member', a),
    a2: await user(`${prefix}-a2`, 'admin', a),
    a3: await user(`${prefix}-a3`, 'member', a),
    a4: await user(`${prefix}-a4`, 'guest', a),
    b1: await user(`${prefix}-b1`, 'member', b),
    b2: await user(`${prefix}-b2`, 'admin', b),
  };
  return { a, b, users };
}

async function untilCurrent(groupId: string) {
  await eventually(async () => (await api.get(`/v2/groups/${groupId}`)).body.rule_status).toBe('current');
}

const ids = (users: Array<{ id: string }>) => users.map((u) => u.id);
/** The preview's Matching, Joining, Leaving as shown. */
const previewNumbers = (page: Page) => page.locator('.rule-preview dd').allTextContents();
/** The user ids of a preview's sample table ("Would join", "Would leave"). */
const sampleIds = (page: Page, caption: string) =>
  page
    .locator('.rule-preview table', { has: page.locator('caption', { hasText: caption }) })
    .locator('tbody td code')
    .allTextContents();
const memberIds = (page: Page) => page.getByRole('table', { name: 'Members, by last name' }).locator('tbody td code').allTextContents();
const done = (page: Page) => page.locator('.done').last().textContent();

async function expectPreviewIs(
  page: Page,
  preview: {
    matching: number;
    joining: number;
    leaving: number;
    sample_joining: Array<{ id: string }>;
    sample_leaving: Array<{ id: string }>;
  },
) {
  await eventually(() => previewNumbers(page)).toEqual([preview.matching, preview.joining, preview.leaving].map(String));
  expect(await sampleIds(page, 'Would join')).toEqual(ids(preview.sample_joining));
  expect(await sampleIds(page, 'Would leave')).toEqual(ids(preview.sample_leaving));
}

describe('rule groups, as an administrator', () => {
  it(
    'creates a group kept by a rule after its preview; the list marks it with its rule and status',
    async () => {
      const prefix = `${run}-new`;
      const { b, users } = await organization(prefix);
      const rule = `department_id:${b}`;
      const view = await harness.open('/groups');
      const { page } = view;
      await settled(page);
      await page.getByLabel('Name', { exact: true }).fill(`${prefix} Team B`);
      await page.getByLabel(/^Id/).fill(`${prefix}-g`);
      await page.getByLabel('Kept by a rule').check();
      expect(await page.getByLabel(/^Member user ids/).count()).toBe(0);
      await page.getByRole('textbox', { name: 'Rule', exact: true }).fill(rule);
      await page.getByRole('button', { name: 'Preview' }).click();

      const dryRun = await api.post('/v2/groups?dry_run=true', { id: `${prefix}-g`, name: `${prefix} Team B`, rule });
      expect(dryRun.status, dryRun.text).toBe(200);
      expect(dryRun.body.rule_preview).toMatchObject({ matching: 2, joining: 2, leaving: 0 });
      await expectPreviewIs(page, dryRun.body.rule_preview);
      expect(ids(dryRun.body.rule_preview.sample_joining).sort()).toEqual([users.b1, users.b2]);
      expect((await api.get(`/v2/groups/${prefix}-g`)).status).toBe(404);
      await expectAccessible(view, 'new rule group, preview');

      await page.getByRole('button', { name: 'Create group' }).click();
      await eventually(() => done(page)).toContain(`Created the group ${prefix} Team B with its rule`);
      await untilCurrent(`${prefix}-g`);

      await page.getByLabel('Name starts with').fill(prefix);
      await page.getByRole('button', { name: 'Show' }).click();
      const row = page.locator('tbody tr', { hasText: `${prefix} Team B` });
      await eventually(() => row.locator('td').last().textContent()).toBe(`${rule} (current)`);
      const listed = await api.get(`/v2/groups?query=name:${prefix}`);
      expect(listed.body.groups).toMatchObject([{ id: `${prefix}-g`, rule, rule_status: 'current', user_count: 2 }]);
      await expectAccessible(view, 'groups list with a rule group');
    },
    LONG_WALK,
  );

  it(
    "sets a rule on a group's page after its preview, shows it applied, changes it and turns it off",
    async () => {
      const prefix = `${run}-page`;
      const { a, users } = await organization(prefix);
      const groupId = `${prefix}-g`;
      expect((await api.post('/v2/groups', { id: groupId, name: `${prefix} Reviewers`, user_ids: [users.b1] })).status).toBe(201);
      const view = await harness.open(`/groups/${groupId}`);
      const { page } = view;
      await settled(page);
      expect(await page.locator('.fields').textContent()).toContain('Members keptby hand');
      expect(await page.getByLabel('User id to add').count()).toBe(1);

      // The preview: the members of A, B's member leaves (a manual group's members are compared with the matches).
      const members = `department_id:${a},account_role:member`;
      await page.getByRole('textbox', { name: 'Rule', exact: true }).fill(members);
      await page.getByRole('button', { name: 'Preview' }).click();
      const dryRun = await api.patch(`/v2/groups/${groupId}?dry_run=true`, { rule: members });
      expect(dryRun.status, dryRun.text).toBe(200);
      expect(dryRun.body.rule_preview).toMatchObject({ matching: 2, joining: 2, leaving: 1 });
      await expectPreviewIs(page, dryRun.body.rule_preview);
      expect((await api.get(`/v2/groups/${groupId}`)).body.rule).toBeNull();
      await expectAccessible(view, 'group page, rule preview');

      // Editing the rule again withdraws the preview: only a previewed rule is saved.
      await page.getByRole('textbox', { name: 'Rule', exact: true }).fill(`${members},activated:false`);
      expect(await page.getByRole('button', { name: 'Keep the members by this rule' }).count()).toBe(0);
      await page.getByRole('textbox', { name: 'Rule', exact: true }).fill(members);
      await page.getByRole('button', { name: 'Preview' }).click();
      await expectPreviewIs(page, dryRun.body.rule_preview);
      await page.getByRole('button', { name: 'Keep the members by this rule' }).click();
      await eventually(() => done(page)).toBe('Saved the rule: 2 users join and 1 leaves as it is applied.');

      // The page follows the rule until it is current, then shows the API's members, with no way to change them by hand.
      await eventually(() => page.locator('.fields').textContent()).toContain(
        'Current: the members are exactly the users the rule matches.',
      );
      await untilCurrent(groupId);
      await settled(page);
      const applied = await api.get(`/v2/groups/${groupId}/users?count=25`);
      expect(ids(applied.body.users).sort()).toEqual([users.a1, users.a3]);
      await eventually(() => memberIds(page)).toEqual(ids(applied.body.users));
      expect(await page.locator('.fields').textContent()).toContain(`Members2Members keptby the rule ${members}`);
      expect(await page.getByLabel('User id to add').count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(0);
      await expectAccessible(view, 'rule group page');

      // A rule matching all 4 of A is more than the group holds: refused in a sentence, nothing changes.
      await page.getByRole('textbox', { name: 'Rule', exact: true }).fill(`department_id:${a}`);
      await page.getByRole('button', { name: 'Preview' }).click();
      await eventually(() => page.getByRole('alert').textContent()).toContain(
        `Nothing was saved: the rule matches 4 users and a group holds at most ${LIMIT}.`,
      );
      expect((await api.patch(`/v2/groups/${groupId}?dry_run=true`, { rule: `department_id:${a}` })).body).toMatchObject({
        matching: 4,
        limit: LIMIT,
      });
      expect(await page.getByRole('button', { name: 'Save the rule' }).count()).toBe(0);
      await expectAccessible(view, 'rule group page, rule over the limit');

      // Members and admins of A: the admin joins, nobody leaves.
      const withAdmins = `department_id:${a},account_role:admin,account_role:member`;
      await page.getByRole('textbox', { name: 'Rule', exact: true }).fill(withAdmins);
      await page.getByRole('button', { name: 'Preview' }).click();
      const change = await api.patch(`/v2/groups/${groupId}?dry_run=true`, { rule: withAdmins });
      expect(change.body.rule_preview).toMatchObject({ matching: 3, joining: 1, leaving: 0 });
      expect(ids(change.body.rule_preview.sample_joining)).toEqual([users.a2]);
      await expectPreviewIs(page, change.body.rule_preview);
      await page.getByRole('button', { name: 'Save the rule' }).click();
      await eventually(() => done(page)).toBe('Saved the rule: 1 user joins and 0 leave as it is applied.');
      await untilCurrent(groupId);
      await eventually(() => page.locator('.fields').textContent()).toContain('Current:');
      await settled(page);
      const changed = await api.get(`/v2/groups/${groupId}/users?count=25`);
      expect(ids(changed.body.users).sort()).toEqual([users.a1, users.a2, users.a3]);
      await eventually(() => memberIds(page)).toEqual(ids(changed.body.users));

      // Another admin joins A: 4 match, more than the group holds; it keeps its 3 members and says so.
      await user(`${prefix}-a5`, 'admin', a);
      await eventually(async () => (await api.get(`/v2/groups/${groupId}`)).body).toMatchObject({
        rule_status: 'over_limit',
        user_count: 3,
      });
      await page.reload();
      await eventually(() => page.locator('.fields').textContent()).toContain('Over the limit: more users match than a group holds');
      await settled(page);
      await expectAccessible(view, 'rule group page, over the limit');

      // Turned off after asking: the members stay, and can be changed by hand again.
      await page.getByRole('button', { name: 'Turn off the rule' }).click();
      await expectAccessible(view, 'rule group page, turning the rule off');
      await page.getByRole('dialog').getByRole('button', { name: 'Turn it off' }).click();
      await eventually(() => done(page)).toBe('Turned off the rule: the 3 members stay and are now changed by hand.');
      const off = await api.get(`/v2/groups/${groupId}`);
      expect(off.body).toMatchObject({ rule: null, rule_status: null, user_count: 3 });
      await eventually(() => page.getByLabel('User id to add').count()).toBe(1);
      expect(await page.locator('.fields').textContent()).toContain('Members keptby hand');
      expect(await page.getByRole('button', { name: 'Turn off the rule' }).count()).toBe(0);
    },
    LONG_WALK,
  );

  it(
    'says why a member change is refused when someone else gave the group a rule meanwhile',
    async () => {
      const prefix = `${run}-race`;
      const { b, users } = await organization(prefix);
      const groupId = `${prefix}-g`;
      expect((await api.post('/v2/groups', { id: groupId, name: `${prefix} Late` })).status).toBe(201);
      const view = await harness.open(`/groups/${groupId}`);
      const { page } = view;
      await settled(page);
      expect((await api.patch(`/v2/groups/${groupId}`, { rule: `department_id:${b}` })).status).toBe(200);
      await page.getByLabel('User id to add').fill(users.a1);
      await page.getByRole('button', { name: 'Add member' }).click();
      await eventually(() => page.getByRole('alert').textContent()).toBe(
        "This group's members follow its rule: change the rule, not the members.",
      );
      expect((await api.get(`/v2/groups/${groupId}/users?count=25`)).body.users.map((u: { id: string }) => u.id)).not.toContain(users.a1);
      await expectAccessible(view, 'group page, member change refused: rule-managed');
    },
    LONG_WALK,
  );
});

describe('rule groups with a read-only token', () => {
  it(
    'show the rule and its status with no control that changes them',
    async () => {
      const prefix = `${run}-ro`;
      const { b } = await organization(prefix);
      const groupId = `${prefix}-g`;
      const rule = `department_id:${b}`;
      expect((await api.post('/v2/groups', { id: groupId, name: `${prefix} Readers`, rule })).status).toBe(201);
      await untilCurrent(groupId);
      const view = await harness.open('/groups', { token: READ_TOKEN });
      const { page } = view;
      await eventually(() => page.getByText('Read only').count()).toBe(1);
      await settled(page);
      await page.getByLabel('Name starts with').fill(prefix);
      await page.getByRole('button', { name: 'Show' }).click();
      const row = page.locator('tbody tr', { hasText: `${prefix} Readers` });
      await eventually(() => row.locator('td').last().textContent()).toBe(`${rule} (current)`);
      expect(await page.getByLabel('Kept by a rule').count()).toBe(0);
      await expectAccessible(view, 'groups list with a rule group, read only');

      await page.getByRole('link', { name: `${prefix} Readers` }).click();
      await eventually(() => page.locator('.fields').textContent()).toContain(`Members keptby the rule ${rule}`);
      await settled(page);
      const members = await api.get(`/v2/groups/${groupId}/users?count=25`);
      await eventually(() => memberIds(page)).toEqual(ids(members.body.users));
      expect(await page.locator('main').getByRole('button').count()).toBe(0);
      expect(await page.locator('main input, main textarea').count()).toBe(0);
      await expectAccessible(view, 'rule group page, read only');
    },
    LONG_WALK,
  );
});
