/**
 * Report e-mail: one message to all recipients, composed by nodemailer's
 * MIME composer (addresses are validated before the job exists, and the
 * composer encodes every header), sent as a raw message through SES.
 */
import { SendRawEmailCommand } from '@aws-sdk/client-ses';
import MailComposer from 'nodemailer/lib/mail-composer';
import { ses } from '../aws/ses';
import { config } from '../config';
import type { StoredReport } from './jobs';

/** A CSV up to this size travels as an attachment; a larger one as a link. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

export interface ReportMail {
  report: StoredReport;
  rowCount: number;
  /** The CSV itself when it is small enough to attach. */
  attachment?: Buffer;
  /** Where to download it otherwise. */
  link?: string;
}

export async function composeReportMail({ report, rowCount, attachment, link }: ReportMail): Promise<Buffer> {
  const title = `${report.type === 'departments' ? 'Departments' : 'Groups'} report ${report.id}`;
  const lines = [`The ${report.type} report you asked for is ready: ${rowCount} row(s), made ${report.created_at}.`];
  if (attachment) lines.push('The CSV is attached.');
  else lines.push(`The CSV is too large to attach; download it here (the link expires in 7 days):`, link ?? '');
  const composer = new MailComposer({
    from: config().reportEmailFrom,
    to: report.email!.recipients,
    subject: title,
    text: lines.join('\n'),
    attachments: attachment
      ? [{ filename: `${report.type}-report-${report.id}.csv`, content: attachment, contentType: 'text/csv; charset=utf-8' }]
      : [],
  });
  return composer.compile().build();
}

export async function sendReportMail(mail: ReportMail): Promise<void> {
  const raw = await composeReportMail(mail);
  await ses().send(
    new SendRawEmailCommand({ Source: config().reportEmailFrom, Destinations: mail.report.email!.recipients, RawMessage: { Data: raw } }),
  );
}
