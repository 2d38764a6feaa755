/**
 * The link of a report e-mail whose CSV is too large to attach, as its reader uses it: read from the e-mail as
 * the local SES stand-in received it (parsed by mailparser), opened without any token through the local gateway,
 * redirected (303) to a freshly signed download of the CSV. It works as long as the e-mail says (7 days), since
 * the route signs each download itself rather than the worker signing one link with its short-lived credentials;
 * a tampered, foreign or expired secret is 404 `not-found`, the same answer as an unknown report.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Row, REPORT_SOURCES } from '../../lib/reports/csv';
import { formatTime } from '../../lib/reports/email-content';
import { emailedReportLocation } from '../../lib/reports/email-link';
import { createReport, findReport } from '../../lib/reports/jobs';
import { runReport } from '../../lib/reports/worker';
import { findReportEmailLink } from '../../lib/store/reports';
import type { Gateway } from '../../infra/local/gateway';
import { startTestGateway } from '../support/api';
import { unique } from '../support/fixtures';

const ctx = { actor: 'test', operationId: 'E9', requestId: 'test' };
const DAY_MS = 24 * 3600 * 1000;

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startTestGateway({ tokens: { write: 'unused-write-token' } });
  process.env.API_BASE_URL = gateway.url;
});
afterAll(() => gateway?.close());

/** The mail the SES stand-in received for `recipient`, as its mailparser read it. */
async function received(recipient: string): Promise<{ subject: string; body: { text: string; html: string }; attachments: unknown[] }> {
  const response = await fetch(`${process.env.SES_ENDPOINT}/store`);
  const { emails } = (await response.json()) as { emails: Array<{ destination: { to: string[] }; body: { text: string; html: string } }> };
  const mail = emails.find((email) => email.destination.to.join(',').includes(recipient));
  expect(mail, `a mail to ${recipient}`).toBeDefined();
  return mail as never;
}

/** A departments report of ~6 MB (over the 5 MB an attachment may be), e-mailed to a new recipient. */
async function largeEmailedReport() {
  const recipient = `${unique('big')}@example.com`;
  const original = REPORT_SOURCES.departments.rows;
  REPORT_SOURCES.departments.rows = async function* (): AsyncGenerator<Row> {
    for (let i = 0; i < 60_000; i++)
      yield [`d${i}`, `Department number ${i} ${'x'.repeat(60)}`, i, 0, 0, 0, 0, null, null, null, null, null, null, 'x'];
  };
  try {
    const report = await createReport(ctx, 'departments', [recipient]);
    const sentAfter = Date.now();
    await runReport(report.id);
    expect(await findReport(report.id)).toMatchObject({ status: 'complete', email: { status: 'sent' } });
    const mail = await received(recipient);
    expect(mail.attachments).toHaveLength(0);
    const links = mail.body.text.match(/https?:\/\/\S+/g) ?? [];
    expect(links, mail.body.text).toHaveLength(1);
    return { report, mail, link: links[0] as string, sentAfter };
  } finally {
    REPORT_SOURCES.departments.rows = original;
  }
}

describe('the e-mailed report link', () => {
  it('downloads the CSV without a token, and says until when it works (7 days)', async () => {
    const { report, mail, link, sentAfter } = await largeEmailedReport();
    expect(link).toMatch(new RegExp(`^${gateway.url}/v2/reports/${report.id}/email-download\\?token=[A-Za-z0-9_-]{43}$`));
    const stored = (await findReportEmailLink(report.id))!;
    const expiresAt = Date.parse(stored.expiresAt);
    expect(expiresAt - sentAfter).toBeGreaterThanOrEqual(7 * DAY_MS);
    expect(expiresAt - sentAfter).toBeLessThan(7 * DAY_MS + 60_000);
    expect(mail.body.text).toContain(`download it with the link, which works until ${formatTime(new Date(expiresAt))}.`);
    // The report keeps a hash of the secret, never the secret.
    expect(JSON.stringify(await findReport(report.id))).not.toContain(new URL(link).searchParams.get('token')!);
    expect(stored.secretHash).not.toBe(new URL(link).searchParams.get('token'));

    const redirect = await fetch(link, { redirect: 'manual' });
    expect(redirect.status).toBe(303);
    const location = redirect.headers.get('location')!;
    expect(new URL(location).searchParams.get('X-Amz-Expires')).toBe('300');
    const file = await fetch(location);
    expect(file.status).toBe(200);
    const csv = await file.text();
    expect(csv.split('\r\n')[0]).toMatch(/^department_id,name,/);
    expect(csv.length).toBeGreaterThan(5 * 1024 * 1024);
  });

  it('answers 404 to a tampered or foreign secret, and to an unknown report', async () => {
    const { report, link } = await largeEmailedReport();
    const token = new URL(link).searchParams.get('token')!;
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const other = await largeEmailedReport();
    for (const url of [
      `${gateway.url}/v2/reports/${report.id}/email-download?token=${tampered}`,
      `${gateway.url}/v2/reports/${other.report.id}/email-download?token=${token}`,
      `${gateway.url}/v2/reports/nope/email-download?token=${token}`,
    ]) {
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.status, url).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await response.json()).toMatchObject({ type: '/problems/not-found', status: 404 });
    }
    expect((await fetch(`${gateway.url}/v2/reports/${report.id}/email-download`, { redirect: 'manual' })).status).toBe(400);
  });

  it('works after 6 days and 23 hours, signing each download itself, and answers 404 once expired', async () => {
    const { report, link } = await largeEmailedReport();
    const token = new URL(link).searchParams.get('token')!;
    const expiresAt = Date.parse((await findReportEmailLink(report.id))!.expiresAt);
    const nearlyAWeek = expiresAt - 7 * DAY_MS + (6 * 24 + 23) * 3600 * 1000;
    const location = await emailedReportLocation(report.id, token, nearlyAWeek);
    const file = await fetch(location);
    expect(file.status, 'a download signed at that time, not by the worker').toBe(200);
    expect((await file.text()).startsWith('department_id,')).toBe(true);
    await expect(emailedReportLocation(report.id, token, expiresAt - 1)).resolves.toMatch(/^http/);
    await expect(emailedReportLocation(report.id, token, expiresAt)).rejects.toMatchObject({ slug: 'not-found' });
    await expect(emailedReportLocation(report.id, token, expiresAt + DAY_MS)).rejects.toMatchObject({ slug: 'not-found' });
  });
});
