/**
 * Report e-mail: one message to all recipients, composed by emailjs's MIME
 * composer (addresses are validated before the job exists, and the composer
 * encodes every header), sent as a raw message through SES. emailjs's
 * `Message` bundles to ~10 KB; nodemailer's composer was 125 KB, 76 KB of
 * it a file-extension table this service never consults (bench/, issue 7).
 */
import { SendRawEmailCommand } from '@aws-sdk/client-ses';
import { Message } from 'emailjs';
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
  const summary = `The ${report.type} report you asked for is ready: ${rowCount} row(s), made ${report.created_at}.`;
  // emailjs writes the main text as 7bit, unfolded: fine for this short ASCII summary, not for a presigned
  // link (its session token makes it 1,500+ characters, over the 998 a line may hold), which therefore
  // travels in an inline text part that emailjs base64-encodes, as it does every other part.
  const message = new Message({
    from: config().reportEmailFrom,
    to: report.email!.recipients.join(', '),
    subject: title,
    text: attachment ? `${summary}\nThe CSV is attached.` : summary,
    attachment: attachment
      ? [{ name: `${report.type}-report-${report.id}.csv`, data: attachment.toString('utf8'), type: 'text/csv', charset: 'utf-8' }]
      : [
          {
            data: `The CSV is too large to attach; download it here (the link expires in 7 days):\n${link ?? ''}\n`,
            type: 'text/plain',
            charset: 'utf-8',
            inline: true,
          },
        ],
  });
  return Buffer.from(await message.readAsync(), 'utf8');
}

export async function sendReportMail(mail: ReportMail): Promise<void> {
  const raw = await composeReportMail(mail);
  await ses().send(
    new SendRawEmailCommand({ Source: config().reportEmailFrom, Destinations: mail.report.email!.recipients, RawMessage: { Data: raw } }),
  );
}
