/**
 * The report e-mail as the recipient's mail client reads it: composed by
 * lib/reports/email.ts, sent through the local SES stand-in, which parses
 * the raw MIME message (mailparser) into what is checked here.
 */
import { describe, expect, it } from 'vitest';
import { composeReportMail, sendReportMail } from '../../lib/reports/email';
import type { StoredReport } from '../../lib/reports/jobs';
import { unique } from '../support/fixtures';

interface ParsedMail {
  subject: string;
  from: string;
  body: { text?: string };
  destination: { to: string[] };
  attachments: unknown[];
}

async function received(recipient: string): Promise<ParsedMail | undefined> {
  const response = await fetch(`${process.env.SES_ENDPOINT}/store`);
  const { emails } = (await response.json()) as { emails: ParsedMail[] };
  return emails.find((mail) => mail.destination.to.join(',').includes(recipient));
}

function report(recipients: string[]): StoredReport {
  const id = unique('rep');
  return {
    id,
    type: 'groups',
    status: 'complete',
    created_at: '2026-11-21T09:30:00.000Z',
    completed_at: '2026-11-21T09:30:05.000Z',
    row_count: 250_000,
    email: { recipients, status: 'pending' },
    object_key: `reports/groups/${id}.csv`,
    attempts: 1,
  };
}

describe('report e-mail', () => {
  it('carries a link, whole and unbroken, when the CSV is too large to attach', async () => {
    const recipient = `${unique('big')}@example.com`;
    // A presigned URL is long (~1,000 characters) and full of characters MIME encodings transform.
    // A presigned URL made with a Lambda role's credentials carries their session token: well over 1,000 characters.
    const link = `http://localhost:4569/reports/groups/x.csv?X-Amz-Security-Token=${'ab%2F'.repeat(300)}&X-Amz-Signature=${'ab12'.repeat(16)}`;
    const raw = (await composeReportMail({ report: report([recipient]), rowCount: 250_000, link })).toString('utf8');
    const longest = Math.max(...raw.split('\r\n').map((line) => line.length));
    expect(longest, 'RFC 5322 allows at most 998 characters per line').toBeLessThanOrEqual(998);
    await sendReportMail({ report: report([recipient]), rowCount: 250_000, link });
    const mail = await received(recipient);
    expect(mail, 'message in the local SES inbox').toBeDefined();
    expect(mail!.attachments).toHaveLength(0);
    expect(mail!.body.text).toContain('too large to attach');
    expect(mail!.body.text!.split('\n').map((line) => line.trim())).toContain(link);
  });

  it('addresses every recipient and names the report in the subject', async () => {
    const recipients = [`${unique('one')}@example.com`, `${unique('two')}@example.org`];
    const stored = report(recipients);
    await sendReportMail({ report: stored, rowCount: 2, attachment: Buffer.from('group_id,group_name\r\ng1,Ünïcode\r\n') });
    const mail = await received(recipients[0]);
    expect(mail!.destination.to.join(',')).toContain(recipients[0]);
    expect(mail!.destination.to.join(',')).toContain(recipients[1]);
    expect(mail!.subject).toBe(`Groups report ${stored.id}`);
    expect(mail!.attachments).toHaveLength(1);
  });
});
