/**
 * `npm run screenshots`: the console's pictures in docs/ (the README shows them). Starts the service as `npm start`
 * does (this folder's start.ts, in a child with a fresh data directory and port of its own), fills it through the API
 * with a small organization whose Engineering department is near, at and over its quotas, opens the console in Debian's
 * Chromium by the link start.ts prints and writes each shot at a phone's and a desktop's width:
 *
 *   docs/console-<shot>-phone.png (375 px wide, at twice the pixels) and docs/console-<shot>-desktop.png (1440 px)
 *
 *   npm run screenshots [-- --only=overview,department,preview]
 *
 * Each shot is one small function (SHOTS) that brings the screen to what it shows and checks it is there; a shot that
 * cannot be made is reported and its files are left as they were (the script then exits 1).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { launchChromium } from '../../test/support/browser';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = join(projectRoot, 'docs');
const TOKEN = 'screenshots-write-token';
const WIDTHS = [
  { name: 'phone', viewport: { width: 375, height: 812 }, deviceScaleFactor: 2 },
  { name: 'desktop', viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 },
] as const;

/** The department the quota and preview shots show, and the people the preview would add to it. */
const SHOWN_DEPARTMENT = { id: 'eng', name: 'Engineering' };
const NEW_HIRES = ['noor-haddad', 'lars-berg', 'mei-tanaka'];

// What the functions given to page.evaluate see in the page (this project's types are Node's, not the DOM's).
declare const document: { querySelectorAll(selector: string): Iterable<{ textContent: string | null }> };
declare const location: { hash: string };

/** Each shot: the console's route, and what to do there before the picture (throws when the screen is not as expected). */
const SHOTS: Record<string, { route: string; prepare: (page: Page) => Promise<void> }> = {
  overview: {
    route: '/',
    prepare: async (page) => {
      await page.getByRole('heading', { name: 'Departments at or over a quota' }).waitFor();
      await page.getByRole('link', { name: SHOWN_DEPARTMENT.name }).first().waitFor();
    },
  },
  department: {
    route: `/departments/${SHOWN_DEPARTMENT.id}`,
    prepare: async (page) => {
      await page.getByRole('heading', { level: 1, name: SHOWN_DEPARTMENT.name }).waitFor({ timeout: 10_000 });
      // The quota bars, one per quota, "over" among them.
      await page.getByText('over the limit').first().waitFor({ timeout: 10_000 });
    },
  },
  preview: {
    route: `/departments/${SHOWN_DEPARTMENT.id}`,
    prepare: async (page) => {
      await page.getByRole('heading', { level: 1, name: SHOWN_DEPARTMENT.name }).waitFor({ timeout: 10_000 });
      await page.getByRole('textbox', { name: /user ids/i }).fill(NEW_HIRES.join(', '));
      await page.getByRole('button', { name: 'Preview' }).click();
      // The dry run's overages as a table.
      await page
        .getByRole('table')
        .filter({ hasText: 'Quotas this would exceed' })
        .waitFor({ timeout: 10_000 });
      await settle(page);
      await page
        .getByRole('table')
        .filter({ hasText: 'Quotas this would exceed' })
        .scrollIntoViewIfNeeded();
    },
  },
};

/** Starts `npm start` (start.ts) in a child on a free port with fresh data; answers its base URL and a stop. */
async function startService() {
  const dataDir = mkdtempSync(join(tmpdir(), 'console-screenshots-'));
  const child = spawn(join(projectRoot, 'node_modules', '.bin', 'tsx'), ['infra/local/start.ts'], {
    cwd: projectRoot,
    env: { ...process.env, PORT: '0', LOCAL_DATA_DIR: dataDir, ADMIN_API_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const api = /^ {2}API +(http:\/\/\S+)/m.exec(out);
      if (api) resolve(api[1]);
    });
    child.on('exit', (code) => reject(new Error(`npm start exited (${code}) before it was ready:\n${out.slice(-2000)}`)));
  });
  // Its function logs are not this script's.
  child.stdout!.resume();
  return {
    url,
    stop: async () => {
      child.kill('SIGINT');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A small organization through the API: departments, people, and Engineering near, at and over its limits. */
async function seed(url: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  };
  const departments: Array<[string, string, string[]]> = [
    ['eng', 'Engineering', ['ada-lovelace', 'grace-hopper', 'alan-turing', 'margaret-hamilton', 'barbara-liskov', 'donald-knuth',
      'dennis-ritchie', 'adele-goldberg', 'frances-allen', 'jeannette-wing', 'ken-thompson', 'radia-perlman']],
    ['sales', 'Sales', ['priya-shah', 'omar-farouk', 'linda-moreau', 'james-okafor', 'sarah-kim', 'wei-zhang']],
    ['support', 'Customer Support', ['fatima-zahra', 'tom-becker', 'aiko-sato', 'john-murphy', 'maria-garcia']],
    ['finance', 'Finance', ['robert-novak', 'susan-lee', 'arjun-mehta']],
    ['design', 'Design', ['jessica-rossi', 'hiroshi-ito']],
  ]; // prettier-ignore
  const roles: Record<string, string> = { 'grace-hopper': 'admin', 'ken-thompson': 'admin', 'alan-turing': 'manager', 'priya-shah': 'manager', 'susan-lee': 'admin', 'tom-becker': 'guest' }; // prettier-ignore
  const inactive = new Set(['dennis-ritchie', 'john-murphy']);
  const person = (id: string) => {
    const [first, last] = id.split('-').map((part) => part[0].toUpperCase() + part.slice(1));
    return {
      id,
      email: `${id.replace('-', '.')}@example.com`,
      first_name: first,
      last_name: last,
      account_role: roles[id] ?? 'member',
      activated: !inactive.has(id),
    };
  };
  for (const [id, name, members] of departments) {
    await call('POST', '/v2/departments', { id, name });
    for (const user of members) await call('POST', '/v2/users', person(user));
    await call('POST', `/v2/departments/${id}/users`, { user_ids: members });
  }
  const groups: Array<[string, string, string[]]> = [
    ['on-call', 'On-call', ['grace-hopper', 'ken-thompson', 'radia-perlman', 'tom-becker']],
    ['mentors', 'Mentors', ['barbara-liskov', 'donald-knuth', 'priya-shah']],
    ['security-champions', 'Security champions', ['radia-perlman', 'susan-lee']],
  ]; // prettier-ignore
  for (const [id, name, members] of groups) await call('POST', '/v2/groups', { id, name, user_ids: members });
  for (const user of NEW_HIRES)
    await call('POST', '/v2/users', { ...person(user), account_role: user === 'lars-berg' ? 'admin' : 'member' });
  // Engineering: users at its limit, activated users near it, admins over it (a limit below usage is accepted), managers under.
  const limits: Array<[string, string, number]> = [
    ['eng', 'users', 12], ['eng', 'activated_users', 13], ['eng', 'admins', 1], ['eng', 'managers', 4],
    ['sales', 'users', 7], ['support', 'users', 5],
  ]; // prettier-ignore
  for (const [department, name, limit] of limits) await call('PUT', `/v2/departments/${department}/quotas`, { name, limit });
}

/** Until nothing says it is loading and the network has been idle for a moment. */
async function settle(page: Page) {
  await page.waitForFunction(() => [...document.querySelectorAll('.busy')].every((element) => element.textContent === ''));
  await page.waitForLoadState('networkidle');
}

async function main() {
  const { values } = parseArgs({ options: { only: { type: 'string' } } });
  const wanted = values.only ? values.only.split(',') : Object.keys(SHOTS);
  const unknown = wanted.filter((name) => !(name in SHOTS));
  if (unknown.length > 0) throw new Error(`no such shot: ${unknown.join(', ')} (there are ${Object.keys(SHOTS).join(', ')})`);
  const service = await startService();
  const browser = await launchChromium();
  const missed: string[] = [];
  try {
    await seed(service.url);
    for (const name of wanted) {
      const { route, prepare } = SHOTS[name];
      for (const { name: width, viewport, deviceScaleFactor } of WIDTHS) {
        const context = await browser.newContext({ viewport, deviceScaleFactor, colorScheme: 'light' });
        try {
          const page = await context.newPage();
          await page.goto(`${service.url}/console#token=${encodeURIComponent(TOKEN)}`);
          await page.waitForFunction(() => location.hash === '#/');
          if (route !== '/') await page.evaluate((hash) => (location.hash = hash), route);
          await settle(page);
          await prepare(page);
          await settle(page);
          const file = join(DOCS, `console-${name}-${width}.png`);
          await page.screenshot({ path: file, fullPage: true });
          console.log(`wrote ${file}`);
        } catch (error) {
          missed.push(`${name} at ${width} width: ${(error as Error).message.split('\n')[0]}`);
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
    await service.stop();
  }
  if (missed.length > 0) {
    console.error(`not made (their files are as they were):\n  ${missed.join('\n  ')}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
