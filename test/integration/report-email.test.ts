/**
 * The report e-mail as the recipient's mail client reads it: composed by
 * lib/reports/email.ts, parsed by a real MIME parser (mailparser, the one
 * the local SES stand-in uses too), and sent through that stand-in.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { DEPARTMENT_COLUMNS, GROUP_COLUMNS } from '../../lib/reports/csv';
import { composeReportMail, sendReportMail } from '../../lib/reports/email';
import type { ReportType, StoredReport } from '../../lib/reports/jobs';
import { summarize, type SummaryCell } from '../../lib/reports/summary';
import { unique } from '../support/fixtures';

/** What these tests read of mailparser's answer (mailparser ships no types). */
interface ParsedMail {
  subject: string;
  text: string;
  html: string | false;
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>;
}
const { simpleParser } = createRequire(import.meta.url)('mailparser') as { simpleParser: (raw: Buffer) => Promise<ParsedMail> };

interface StoredMail {
  subject: string;
  destination: { to: string[] };
  body: { text?: string; html?: string };
  attachments: unknown[];
}

async function received(recipient: string): Promise<StoredMail | undefined> {
  const response = await fetch(`${process.env.SES_ENDPOINT}/store`);
  const { emails } = (await response.json()) as { emails: StoredMail[] };
  return emails.find((mail) => mail.destination.to.join(',').includes(recipient));
}

function report(type: ReportType, recipients: string[]): StoredReport {
  const id = unique('rep');
  return {
    id,
    type,
    status: 'complete',
    created_at: '2026-11-21T09:30:00.000Z',
    completed_at: '2026-11-21T09:30:05.000Z',
    row_count: 250_000,
    email: { recipients, status: 'pending' },
    object_key: `reports/${type}/${id}.csv`,
    attempts: 1,
  };
}

const HOSTILE = '<img src=x onerror=alert(1)> & "R&D"';

/** Rows as the worker yields them (limits null when unset). */
const DEPARTMENT_ROWS: SummaryCell[][] = [
  ['eng', 'Zürich Ops – Ærø ✓', 1250, 1200, 12, 40, 3, 1250, null, 10, null, null, null, '2026-01-01T00:00:00.000Z'],
  ['rd', HOSTILE, 48, 48, 2, 4, 0, null, null, null, null, null, null, '2026-01-01T00:00:00.000Z'],
  ['ops', 'Operations', 7, 7, 0, 1, 0, 50, null, null, null, null, null, '2026-01-01T00:00:00.000Z'],
];

function departmentsMail(recipients = ['it@example.com']) {
  const summary = summarize('departments', DEPARTMENT_COLUMNS);
  for (const row of DEPARTMENT_ROWS) summary.add(row);
  const csv = Buffer.from(
    `${DEPARTMENT_COLUMNS.join(',')}\r\n${DEPARTMENT_ROWS.map((row) => row.map((cell) => (cell === null ? '' : `"${String(cell).replaceAll('"', '""')}"`)).join(',')).join('\r\n')}\r\n`,
  );
  return { report: report('departments', recipients), rowCount: DEPARTMENT_ROWS.length, attachment: csv, summary: summary.result() };
}

/** The text a reader sees in the HTML part: tags dropped, entities decoded. */
function visibleText(html: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => entities[name])
    .replace(/\s+/g, ' ');
}

function longestLine(raw: Buffer): number {
  return Math.max(
    ...raw
      .toString('latin1')
      .split('\r\n')
      .map((line) => line.length),
  );
}

describe('report e-mail', () => {
  it('is a text and an HTML part saying the same, with the CSV attached byte for byte', async () => {
    const mail = departmentsMail();
    const raw = await composeReportMail(mail);
    expect(
      raw.every((byte) => byte < 0x80),
      'every part is encoded: the raw message is 7-bit',
    ).toBe(true);
    expect(longestLine(raw)).toBeLessThanOrEqual(998);
    const mime = raw.toString('latin1');
    expect(mime).toMatch(/Content-Type: multipart\/alternative/);
    expect(mime.indexOf('Content-Type:text/plain')).toBeLessThan(mime.indexOf('Content-Type: text/html')); // HTML last: preferred

    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe('Departments report: 3 departments, 1 at a quota limit');
    expect(parsed.attachments).toHaveLength(1);
    expect(parsed.attachments[0].filename).toBe(`departments-report-${mail.report.id}.csv`);
    expect(parsed.attachments[0].contentType).toBe('text/csv');
    expect(parsed.attachments[0].content.equals(mail.attachment)).toBe(true);

    const html = parsed.html as string;
    const facts = [
      'Departments report',
      'Made November 21, 2026 at 9:30 AM UTC',
      '1,305 people in departments',
      'At or over a quota limit',
      'Zürich Ops – Ærø ✓',
      'users 1,250 of 1,250, admins 12 of 10 (2 over)',
      'Largest departments',
      '48 people',
      HOSTILE,
      `The CSV is attached (3 rows, ${mail.attachment.length.toLocaleString('en-US')} bytes).`,
    ];
    for (const fact of facts) {
      expect(parsed.text, 'text part').toContain(fact);
      expect(visibleText(html), 'HTML part').toContain(fact);
    }
    expect(parsed.text).toContain('3 departments, 1,305 people in departments, 1 at a quota limit.');
    expect(parsed.text).toContain(`- ${HOSTILE}: 48 people`);
  });

  it('escapes every name in the HTML part', async () => {
    const html = (await simpleParser(await composeReportMail(departmentsMail()))).html as string;
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;R&amp;D&quot;');
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<(script|link|style|iframe|object)\b|<[^>]*\ssrc=|url\(|@import/i); // inline styles, nothing to fetch
  });

  it('sums up a groups report: groups, members, the largest and the empty groups', async () => {
    const summary = summarize('groups', GROUP_COLUMNS);
    const member = (group: string, name: string, user: string) => [group, name, '', user, `${user}@example.com`, 'F', 'L', 'member'];
    const empty = (group: string, name: string) => [group, name, '', null, null, null, null, null];
    for (const row of [
      empty('g0', 'Alumni'),
      member('g1', 'Design', 'u1'),
      member('g1', 'Design', 'u2'),
      member('g2', 'Ops', 'u1'),
      empty('g3', 'Zed'),
    ])
      summary.add(row);
    const raw = await composeReportMail({
      report: report('groups', ['it@example.com']),
      rowCount: 5,
      attachment: Buffer.from('x'),
      summary: summary.result(),
    });
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe('Groups report: 4 groups, 3 members');
    for (const fact of [
      '4 groups',
      '3 members',
      '2 empty groups',
      'Largest groups',
      'Design',
      '2 members',
      'Empty groups',
      'Alumni',
      'Zed',
    ]) {
      expect(parsed.text).toContain(fact);
      expect(visibleText(parsed.html as string)).toContain(fact);
    }
    expect(parsed.text).toContain('- Design: 2 members\n- Ops: 1 member\n');
  });

  it('carries a link, whole and unbroken, with its expiry, when the CSV is too large to attach', async () => {
    const recipient = `${unique('big')}@example.com`;
    // A presigned URL made with a Lambda role's credentials carries their session token: well over 1,000 characters,
    // full of characters MIME encodings transform.
    const link =
      'http://localhost:4569/reports/groups/x.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20261121T093005Z&X-Amz-Expires=604800' +
      `&X-Amz-Security-Token=${'ab%2F'.repeat(300)}&X-Amz-Signature=${'ab12'.repeat(16)}`;
    const raw = await composeReportMail({ report: report('groups', [recipient]), rowCount: 250_000, link });
    expect(longestLine(raw), 'RFC 5322 allows at most 998 characters per line').toBeLessThanOrEqual(998);
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe('Groups report: 250,000 rows');
    expect(parsed.attachments).toHaveLength(0);
    const expiry = 'too large to attach; download it with the link, which works until November 28, 2026 at 9:30 AM UTC.';
    expect(parsed.text).toContain(`The CSV (250,000 rows) is ${expiry}`);
    expect(parsed.text.split('\n').map((line) => line.trim())).toContain(link);
    expect(visibleText(parsed.html as string)).toContain(expiry);
    expect(parsed.html).toContain(`href="${link.replaceAll('&', '&amp;')}"`);

    await sendReportMail({ report: report('groups', [recipient]), rowCount: 250_000, link });
    const mail = await received(recipient);
    expect(mail, 'message in the local SES inbox').toBeDefined();
    expect(mail!.attachments).toHaveLength(0);
    expect(mail!.body.text!.split('\n').map((line) => line.trim())).toContain(link);
  });

  it('addresses every recipient and names the report in the subject', async () => {
    const recipients = [`${unique('one')}@example.com`, `${unique('two')}@example.org`];
    await sendReportMail(departmentsMail(recipients));
    const mail = await received(recipients[0]);
    expect(mail!.destination.to.join(',')).toContain(recipients[0]);
    expect(mail!.destination.to.join(',')).toContain(recipients[1]);
    expect(mail!.subject).toBe('Departments report: 3 departments, 1 at a quota limit');
    expect(mail!.body.html).toContain('Departments report');
    expect(mail!.attachments).toHaveLength(1);
  });
});
