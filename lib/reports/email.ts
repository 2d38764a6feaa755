/**
 * Report e-mail: one message to all recipients, composed by emailjs's MIME
 * composer (addresses are validated before the job exists, and the composer
 * encodes every header), sent as a raw message through SES. emailjs's
 * `Message` bundles to ~10 KB; nodemailer's composer was 125 KB, 76 KB of
 * it a file-extension table this service never consults (cold-start budget: docs/performance.md).
 *
 * The message: multipart/mixed of a multipart/alternative (text, then HTML:
 * the same content, from email-content.ts) and the CSV when it is attached.
 */
import { SendRawEmailCommand } from '@aws-sdk/client-ses';
import { Message } from 'emailjs';
import { ses } from '../aws/ses';
import { config } from '../config';
import { mailContent } from './email-content';
import { renderHtml } from './email-html';
import { renderText } from './email-text';
import type { StoredReport } from './jobs';
import type { ReportSummary } from './summary';

/** A CSV up to this size travels as an attachment; a larger one as a link. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

export interface ReportMail {
  report: StoredReport;
  rowCount: number;
  /** The CSV itself when it is small enough to attach. */
  attachment?: Buffer;
  /** Where to download it otherwise. */
  link?: string;
  /** When the link stops working, as the e-mail states it. */
  linkExpiresAt?: Date;
  /** What the rows say (summary.ts); without it the e-mail gives the row count only. */
  summary?: ReportSummary;
}

/**
 * emailjs writes the `text` part raw under `Content-Transfer-Encoding: 7bit`
 * (outputText in its message.js). That is wrong for this text: names in any
 * script are 8-bit, and a link may be longer than the 998 characters a line
 * may hold (a pre-signed one with a session token is 1,500+). So emailjs is given this marker
 * (ASCII, and with characters base64 never writes, so it cannot occur in the
 * other parts), swapped afterwards for the text base64-encoded, as emailjs
 * encodes every other part.
 */
const TEXT_MARKER = 'report-mail-text-part';
const SEVEN_BIT_TEXT = `Content-Transfer-Encoding: 7bit\r\nContent-Disposition: inline\r\n\r\n${TEXT_MARKER}\r\n`;

function base64Lines(text: string): string {
  return Buffer.from(text, 'utf8')
    .toString('base64')
    .replace(/.{76}(?=.)/g, '$&\r\n');
}

function withEncodedText(raw: string, text: string): string {
  const parts = raw.split(SEVEN_BIT_TEXT);
  // An emailjs that writes its text part differently must fail here, not send a message with a marker in it.
  if (parts.length !== 2) throw new Error('emailjs wrote the text part in an unexpected form');
  return parts.join(`Content-Transfer-Encoding: base64\r\nContent-Disposition: inline\r\n\r\n${base64Lines(text)}\r\n`);
}

export async function composeReportMail({ report, rowCount, attachment, link, linkExpiresAt, summary }: ReportMail): Promise<Buffer> {
  const content = mailContent({ report, rowCount, summary, attachmentBytes: attachment?.length, link, linkExpiresAt });
  const message = new Message({
    from: config().reportEmailFrom,
    to: report.email!.recipients.join(', '),
    subject: content.subject,
    text: TEXT_MARKER,
    attachment: [
      { data: renderHtml(content), alternative: true, type: 'text/html', charset: 'utf-8' },
      // Given as base64, so the CSV arrives byte for byte as the worker wrote it.
      ...(content.csv.attached && attachment
        ? [{ name: content.csv.fileName, data: attachment.toString('base64'), encoded: true, type: 'text/csv', charset: 'utf-8' }]
        : []),
    ],
  });
  return Buffer.from(withEncodedText(await message.readAsync(), renderText(content)), 'utf8');
}

export async function sendReportMail(mail: ReportMail): Promise<void> {
  const raw = await composeReportMail(mail);
  await ses().send(
    new SendRawEmailCommand({ Source: config().reportEmailFrom, Destinations: mail.report.email!.recipients, RawMessage: { Data: raw } }),
  );
}
