/** What the console's lists show, read as a person would (by a table's caption), and the test data they list. */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Api } from './api';
import { go, settled, type ConsoleHarness } from './console';

/** The ids a table shows, in order: the last segment of each row's link (`#/users/<id>`, `#/departments/<id>`). */
export async function shownIds(page: Page, caption: string): Promise<string[]> {
  const links = page.getByRole('table', { name: caption, exact: true }).locator('tbody th a');
  const hrefs = await links.evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''));
  return hrefs.map((href) => decodeURIComponent(href.split('/').pop()!));
}

/** The ids of a list the API answers (`users` or `departments`) for a path with its query. */
export async function apiIds(api: Api, path: string, items: 'users' | 'departments'): Promise<string[]> {
  const answer = await api.get(path);
  expect(answer.status, answer.text).toBe(200);
  return (answer.body[items] as Array<{ id: string }>).map((item) => item.id);
}

export interface NewUser {
  id: string;
  last_name: string;
  first_name?: string;
  account_role?: 'admin' | 'manager' | 'member' | 'guest';
  activated?: boolean;
  last_login?: string | null;
}

/** Users made through the API, a few at a time (the local functions run one invocation at a time each). */
export async function createUsers(api: Api, users: NewUser[]): Promise<void> {
  for (let start = 0; start < users.length; start += 4) {
    await Promise.all(
      users.slice(start, start + 4).map(async (user) => {
        const created = await api.post('/v2/users', { email: `${user.id}@example.com`, ...user });
        expect(created.status, created.text).toBe(201);
      }),
    );
  }
}

/**
 * The console opened at `route` once the overview it signs in on has finished its reads: its quota reads of the ten
 * largest departments queue behind one local function, longer than `settled` waits when a test made many departments.
 */
export async function openAt(harness: ConsoleHarness, route: string, options?: Parameters<ConsoleHarness['open']>[1]) {
  const view = await harness.open('/', options);
  await expect
    .poll(
      () =>
        settled(view.page).then(
          () => true,
          () => false,
        ),
      { timeout: 60_000, interval: 100 },
    )
    .toBe(true);
  await go(view.page, route);
  await settled(view.page);
  return view;
}
