/**
 * The report e-mail as its reader sees it, end to end: the worker writes a
 * realistic report (1,000 departments; 120 groups), e-mails it through the
 * local SES stand-in, and the HTML part as received is opened in Chromium at
 * a phone's and a desktop's width, in light and dark mode. The numbers on
 * the page are checked against the CSV the worker uploaded, worked out here
 * on their own.
 *
 * Needs `chromium` on PATH (or CHROMIUM_PATH), like the docs page test.
 * `REPORT_EMAIL_SCREENSHOT=1 npx vitest run test/integration/report-email-browser.test.ts`
 * also writes docs/report-email-phone.png (the departments e-mail on a phone).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3 } from '../../lib/aws/s3';
import { resourceName } from '../../lib/config';
import { REPORT_SOURCES, type Row } from '../../lib/reports/csv';
import { createReport, findReport, type ReportType } from '../../lib/reports/jobs';
import { runReport } from '../../lib/reports/worker';
import { unique } from '../support/fixtures';

const SCREENSHOT = fileURLToPath(new URL('../../docs/report-email-phone.png', import.meta.url));
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };
/** The page's own address; playwright serves it, and refuses every other request. */
const PAGE_URL = 'http://report-email.test/';

const format = (value: number) => new Intl.NumberFormat('en-US').format(value);


/*
 * The browser globals the functions run in the page (page.evaluate) use: the
 * project's TypeScript has no DOM library, and these functions only need this.
 */
interface PageElement {
  readonly parentElement: PageElement | null;
  readonly childNodes: Iterable<{ nodeType: number; textContent: string | null }>;
  readonly textContent: string | null;
  readonly outerHTML: string;
  readonly style: { backgroundColor: string };
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { right: number; width: number };
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  appendChild(child: PageElement): PageElement;
  remove(): void;
}
declare const window: { innerWidth: number };
declare const document: Pick<PageElement, 'querySelector' | 'querySelectorAll'> & {
  body: PageElement;
  documentElement: PageElement;
  scrollingElement: { scrollWidth: number } | null;
  createElement(tag: string): PageElement;
};
declare function getComputedStyle(
  element: PageElement,
): Record<'color' | 'backgroundColor' | 'opacity' | 'fontSize' | 'fontWeight', string>;

/** A small deterministic random source, so the report and the screenshot are the same every run. */
function random(seed: number) {
  let state = seed;
  return (min: number, max: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return min + (state % (max - min + 1));
  };
}

const FUNCTIONS = [
  'Engineering',
  'Sales',
  'Marketing',
  'Finance',
  'Customer Support',
  'Operations',
  'Legal',
  'People & Culture',
  'Design',
  'Research',
  'Data',
  'Security',
  'IT',
  'Procurement',
  'Facilities',
  'Product',
  'Quality',
  'Logistics',
  'Partnerships',
  'Communications',
];
const SITES = [
  'Berlin',
  'Zürich',
  'São Paulo',
  'Kraków',
  'Malmö',
  'Montréal',
  'Lyon',
  'Dublin',
  'Austin',
  'Toronto',
  'Madrid',
  'Lisbon',
  'Oslo',
  'Helsinki',
  'Tallinn',
  'Vienna',
  'Prague',
  'Warsaw',
  'Milan',
  'Rome',
  'Athens',
  'Istanbul',
  'Cairo',
  'Nairobi',
  'Lagos',
  'Cape Town',
  'Dubai',
  'Mumbai',
  'Bengaluru',
  'Singapore',
  'Manila',
  'Jakarta',
  'Seoul',
  'Tokyo',
  'Osaka',
  'Sydney',
  'Auckland',
  'Denver',
  'Seattle',
  'Chicago',
  'Boston',
  'Atlanta',
  'Miami',
  'Mexico City',
  'Bogotá',
  'Lima',
  'Santiago',
  'Buenos Aires',
  'Reykjavík',
  'Edinburgh',
];
/** The three departments at a quota limit, by position: the quota, its usage and its limit. */
const AT_LIMIT = new Map<number, { quota: 'users' | 'admins' | 'guests'; usage: number; limit: number }>([
  [3, { quota: 'users', usage: 120, limit: 120 }], // Finance – Berlin
  [121, { quota: 'admins', usage: 4, limit: 3 }], // Sales – Lyon
  [187, { quota: 'guests', usage: 10, limit: 10 }], // People & Culture – Toronto
]);

/** 1,000 departments as departmentRows() yields them: mostly small, a few large, some with limits, three at one. */
function departmentRows(): Row[] {
  const next = random(17);
  return Array.from({ length: 1_000 }, (_, i) => {
    const name = `${FUNCTIONS[i % FUNCTIONS.length]} – ${SITES[Math.floor(i / FUNCTIONS.length) % SITES.length]}`;
    const hit = AT_LIMIT.get(i);
    const users = hit?.quota === 'users' ? hit.usage : i % 97 === 4 ? next(250, 640) : next(2, 48);
    const usage = {
      users,
      activated: users - next(0, Math.min(3, users)),
      admins: next(1, 3),
      managers: Math.ceil(users / 9),
      guests: next(0, 4),
    };
    const limits: Record<string, number | null> = { users: i % 6 === 0 ? users + next(5, 40) : null, admins: null, guests: null };
    if (hit) {
      usage[hit.quota] = hit.usage;
      limits[hit.quota] = hit.limit;
    }
    return [
      `dep-${String(i).padStart(4, '0')}`,
      name,
      usage.users,
      usage.activated,
      usage.admins,
      usage.managers,
      usage.guests,
      limits.users,
      null,
      limits.admins,
      null,
      limits.guests,
      null,
      '2026-03-02T08:00:00.000Z',
    ];
  });
}

/** 120 groups as groupRows() yields them: one row per member, one row with empty user cells for an empty group. */
function groupRows(): Row[] {
  const next = random(29);
  const rows: Row[] = [];
  for (let g = 0; g < 120; g++) {
    const name = `${SITES[g % SITES.length]} ${FUNCTIONS[g % FUNCTIONS.length]} team`;
    const head = [`grp-${g}`, name, 'Everyone working on it'];
    const members = g % 17 === 5 ? 0 : next(1, 70);
    if (members === 0) rows.push([...head, null, null, null, null, null]);
    for (let m = 0; m < members; m++) rows.push([...head, `u${(g * 31 + m) % 900}`, `u${m}@example.com`, 'Ada', 'Lovelace', 'member']);
  }
  return rows;
}

/** RFC 4180 rows (quotes, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') ((cell += '"'), i++);
      else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') (row.push(cell), (cell = ''));
    else if (char === '\r' && text[i + 1] === '\n') (row.push(cell), rows.push(row), (row = []), (cell = ''), i++);
    else cell += char;
  }
  return rows;
}

/** The CSV's rows as objects by column name. */
function records(csv: string): Array<Record<string, string>> {
  const [header, ...rows] = parseCsv(csv);
  return rows.map((row) => Object.fromEntries(header.map((column, i) => [column, row[i]])));
}

interface Expected {
  subject: string;
  figures: Record<string, string>;
  sections: Record<string, Array<{ name: string; detail: string }>>;
}

/** What the e-mail must say about a departments CSV, worked out from the CSV alone. */
function expectedDepartments(csv: string): Expected {
  const departments = records(csv);
  const quotas: Array<[string, string, string]> = [
    ['users', 'user_count', 'users_limit'],
    ['activated users', 'activated_users', 'activated_users_limit'],
    ['admins', 'admins', 'admins_limit'],
    ['managers', 'managers', 'managers_limit'],
    ['guests', 'guests', 'guests_limit'],
    ['seats', 'user_count', 'seats_limit'],
  ];
  const atQuota = departments
    .map((d) => ({
      name: d.name,
      hits: quotas.filter(([, usage, limit]) => d[limit] !== '' && Number(d[usage]) >= Number(d[limit])),
      d,
    }))
    .filter((d) => d.hits.length > 0);
  const largest = [...departments].sort((a, b) => Number(b.user_count) - Number(a.user_count)).slice(0, 5);
  const people = departments.reduce((sum, d) => sum + Number(d.user_count), 0);
  return {
    subject: `Departments report: ${format(departments.length)} departments, ${format(atQuota.length)} at a quota limit`,
    figures: { departments: format(departments.length), people: format(people), 'at-quota': format(atQuota.length) },
    sections: {
      'at-quota': atQuota.map(({ name, hits, d }) => ({
        name,
        detail: hits
          .map(([quota, usage, limit]) => {
            const over = Number(d[usage]) - Number(d[limit]);
            return `${quota} ${format(Number(d[usage]))} of ${format(Number(d[limit]))}${over > 0 ? ` (${format(over)} over)` : ''}`;
          })
          .join(', '),
      })),
      largest: largest.map((d) => ({ name: d.name, detail: `${format(Number(d.user_count))} people` })),
    },
  };
}

/** What the e-mail must say about a groups CSV, worked out from the CSV alone. */
function expectedGroups(csv: string): Expected {
  const sizes = new Map<string, { name: string; members: number }>();
  for (const row of records(csv)) {
    const group = sizes.get(row.group_id) ?? { name: row.group_name, members: 0 };
    if (row.user_id !== '') group.members++;
    sizes.set(row.group_id, group);
  }
  const groups = [...sizes.values()];
  const members = groups.reduce((sum, g) => sum + g.members, 0);
  const empty = groups.filter((g) => g.members === 0);
  const plural = (n: number, word: string) => `${format(n)} ${word}${n === 1 ? '' : 's'}`;
  return {
    subject: `Groups report: ${plural(groups.length, 'group')}, ${plural(members, 'member')}`,
    figures: { groups: format(groups.length), members: format(members), empty: format(empty.length) },
    sections: {
      largest: [...groups]
        .filter((g) => g.members > 0)
        .sort((a, b) => b.members - a.members)
        .slice(0, 5)
        .map((g) => ({ name: g.name, detail: plural(g.members, 'member') })),
      empty: empty.slice(0, 5).map((g) => ({ name: g.name, detail: 'no members' })),
    },
  };
}

/** The at-quota list in name order (its own order, furthest over first, is summary.ts's and its tests'); other lists as they are. */
function byName(items: Array<{ name: string | null; detail: string | null }>, section: string) {
  return section === 'at-quota' ? [...items].sort((a, b) => a.name!.localeCompare(b.name!)) : items;
}

interface Delivered {
  csv: Buffer;
  subject: string;
  text: string;
  html: string;
  attachment: Buffer;
}

/** Runs the worker on these rows for a report e-mailed to a fresh address; answers the uploaded CSV and the e-mail received. */
async function deliver(type: ReportType, rows: Row[]): Promise<Delivered> {
  const source = REPORT_SOURCES[type];
  const original = source.rows;
  source.rows = async function* () {
    yield* rows;
  };
  const recipient = `${unique('reader')}@example.com`;
  try {
    const report = await createReport({ actor: 'test', operationId: 'E9', requestId: 'test' }, type, [recipient]);
    await runReport(report.id);
    expect(await findReport(report.id)).toMatchObject({ status: 'complete', email: { status: 'sent' } });
    const object = await s3().send(
      new GetObjectCommand({ Bucket: resourceName('REPORTS_BUCKET'), Key: `reports/${type}/${report.id}.csv` }),
    );
    const csv = Buffer.from(await object.Body!.transformToByteArray());
    const inbox = (await (await fetch(`${process.env.SES_ENDPOINT}/store`)).json()) as {
      emails: Array<{
        subject: string;
        destination: { to: string[] };
        body: { text: string; html: string };
        attachments: Array<{ content: string }>;
      }>;
    };
    const mail = inbox.emails.find((m) => m.destination.to.includes(recipient));
    expect(mail, 'message in the local SES inbox').toBeDefined();
    expect(mail!.attachments).toHaveLength(1);
    return {
      csv,
      subject: mail!.subject,
      text: mail!.body.text,
      html: mail!.body.html,
      attachment: Buffer.from(mail!.attachments[0].content, 'base64'),
    };
  } finally {
    source.rows = original;
  }
}

/** What the page shows: figures by id, list items by section, and every request it made. */
async function openMail(browser: Browser, html: string, options: BrowserContextOptions) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.route('**/*', (route) =>
    route.request().url() === PAGE_URL ? route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }) : route.abort(),
  );
  await page.goto(PAGE_URL);
  await page.waitForLoadState('networkidle');
  const shown = await page.evaluate(() => ({
    figures: Object.fromEntries(
      [...document.querySelectorAll('[data-figure]')].map((el) => [el.getAttribute('data-figure'), el.textContent]),
    ),
    sections: Object.fromEntries(
      [...document.querySelectorAll('[data-section]')].map((section) => [
        section.getAttribute('data-section'),
        [...section.querySelectorAll('[data-item]')].map((item) => ({
          name: item.querySelector('[data-name]')!.textContent,
          detail: item.querySelector('[data-detail]')!.textContent,
        })),
      ]),
    ),
  }));
  return { context, page, shown, requests: () => requests.filter((url) => url !== PAGE_URL) };
}

/** Whatever sticks out past the right edge of the viewport. */
function overflow(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .map((el) => el.outerHTML.slice(0, 100));
    return { scrollWidth: document.scrollingElement!.scrollWidth, width, wide };
  });
}

/**
 * Every piece of text against what is behind it, WCAG contrast ratio:
 * colour blended by the opacities on its way up, background the nearest one
 * painted. Large text (24 px, or 18.66 px bold) needs 3:1, the rest 4.5:1.
 */
function contrast(page: Page) {
  return page.evaluate(() => {
    const rgba = (css: string) => {
      const [r, g, b, a = 1] = css.match(/[\d.]+/g)!.map(Number);
      return { r, g, b, a };
    };
    const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const channel = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    // Where nothing paints a background, the canvas shows: white, or dark under `color-scheme: dark`.
    const probe = document.documentElement.appendChild(document.createElement('div'));
    probe.style.backgroundColor = 'Canvas';
    const canvas = rgba(getComputedStyle(probe).backgroundColor);
    probe.remove();
    const background = (el: PageElement | null): { r: number; g: number; b: number } => {
      for (; el; el = el.parentElement) {
        const color = rgba(getComputedStyle(el).backgroundColor);
        if (color.a > 0) return color;
      }
      return canvas;
    };
    const failures: string[] = [];
    let checked = 0;
    for (const el of document.querySelectorAll('body *')) {
      const ownText = [...el.childNodes].some((node) => node.nodeType === 3 /* text */ && node.textContent!.trim() !== '');
      if (!ownText) continue;
      const style = getComputedStyle(el);
      let alpha = rgba(style.color).a;
      for (let up: PageElement | null = el; up; up = up.parentElement) alpha *= Number(getComputedStyle(up).opacity);
      const back = background(el);
      const fore = rgba(style.color);
      const seen = {
        r: fore.r * alpha + back.r * (1 - alpha),
        g: fore.g * alpha + back.g * (1 - alpha),
        b: fore.b * alpha + back.b * (1 - alpha),
      };
      const [light, dark] = [luminance(seen), luminance(back)].sort((a, b) => b - a);
      const ratio = (light + 0.05) / (dark + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      checked++;
      if (ratio < (large ? 3 : 4.5))
        failures.push(`${ratio.toFixed(2)}:1 ${style.color} on ${JSON.stringify(back)}: ${el.textContent!.slice(0, 40)}`);
    }
    return { checked, failures, pageLuminance: luminance(background(document.body)) };
  });
}

describe('the report e-mail in a browser', () => {
  let browser: Browser | undefined;
  let departments: Delivered;
  let groups: Delivered;

  beforeAll(async () => {
    [browser, departments, groups] = await Promise.all([
      launchChromium(),
      deliver('departments', departmentRows()),
      deliver('groups', groupRows()),
    ]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('comes from the worker with the CSV it uploaded attached, byte for byte, and an informative subject', () => {
    expect(departments.attachment.equals(departments.csv)).toBe(true);
    expect(groups.attachment.equals(groups.csv)).toBe(true);
    expect(departments.subject).toBe(expectedDepartments(departments.csv.toString('utf8')).subject);
    expect(departments.subject).toBe('Departments report: 1,000 departments, 3 at a quota limit');
    expect(groups.subject).toBe(expectedGroups(groups.csv.toString('utf8')).subject);
  });

  it.each([
    ['departments', () => departments, expectedDepartments],
    ['groups', () => groups, expectedGroups],
  ] as const)(
    'shows the %s numbers of the CSV, in the text part and in the HTML at phone and desktop widths',
    async (type, mail, expected) => {
      const want = expected(mail().csv.toString('utf8'));
      for (const value of Object.values(want.figures)) expect(mail().text).toMatch(new RegExp(`(^|, )${value} [a-z]`, 'm'));
      for (const items of Object.values(want.sections))
        for (const item of items) expect(mail().text).toContain(`- ${item.name}: ${item.detail}`);

      for (const viewport of [PHONE, DESKTOP]) {
        const { context, page, shown, requests } = await openMail(browser!, mail().html, { viewport, deviceScaleFactor: 2 });
        try {
          expect(shown.figures, `${type} figures at ${viewport.width} px`).toEqual(want.figures);
          for (const [section, items] of Object.entries(want.sections))
            expect(byName(shown.sections[section], section), section).toEqual(byName(items, section));
          const { scrollWidth, width, wide } = await overflow(page);
          expect(wide, `elements past the right edge at ${width} px`).toEqual([]);
          expect(scrollWidth).toBeLessThanOrEqual(width);
          const column = await page.evaluate(() => document.querySelector('[data-figures]')!.getBoundingClientRect().width);
          expect(column).toBeLessThanOrEqual(600);
          expect(column).toBeGreaterThan(Math.min(600, viewport.width) - 40); // and it uses the width it has
          expect(requests(), 'requests besides the page itself').toEqual([]);
          if (type === 'departments' && viewport === PHONE && process.env.REPORT_EMAIL_SCREENSHOT) {
            mkdirSync(dirname(SCREENSHOT), { recursive: true });
            await page.screenshot({ path: SCREENSHOT, fullPage: true });
          }
        } finally {
          await context.close();
        }
      }
    },
  );

  it.each(['light', 'dark'] as const)('reads in %s mode: every text contrasts with its background', async (colorScheme) => {
    for (const mail of [departments, groups]) {
      const { context, page } = await openMail(browser!, mail.html, { viewport: PHONE, colorScheme });
      try {
        const { checked, failures, pageLuminance } = await contrast(page);
        expect(checked).toBeGreaterThan(10);
        expect(failures).toEqual([]);
        if (colorScheme === 'dark') expect(pageLuminance, 'a dark page in dark mode').toBeLessThan(0.05);
        else expect(pageLuminance, 'a light page in light mode').toBeGreaterThan(0.8);
      } finally {
        await context.close();
      }
    }
  });
});
