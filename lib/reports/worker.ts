/**
 * The report worker: claims a pending job, streams its rows through
 * csv-stringify into a multipart S3 upload (memory stays flat whatever the
 * row count), marks the job complete, then e-mails it if asked. A failed
 * upload is aborted, so no partial object is left, and the job is failed;
 * a failed e-mail only marks `email.status` failed.
 */
import { once } from 'node:events';
import { Transform } from 'node:stream';
import { Upload } from '@aws-sdk/lib-storage';
import { s3 } from '../aws/s3';
import { resourceName } from '../config';
import { log } from '../log';
import { recordMetric } from '../metrics';
import { csvWriter, REPORT_SOURCES } from './csv';
import { MAX_ATTACHMENT_BYTES, sendReportMail } from './email';
import { prepareEmailLink } from './email-link';
import { claimReport, finishReport, pendingReportIds, setEmailStatus, type StoredReport } from './jobs';
import { summarize, type ReportSummary } from './summary';

const PART_BYTES = 5 * 1024 * 1024;

/** Counts the bytes going by and, when the report is to be e-mailed, keeps them while they still fit in an attachment. */
class AttachmentTap extends Transform {
  bytes = 0;
  private kept: Buffer[] | undefined;

  constructor(keep: boolean) {
    super();
    this.kept = keep ? [] : undefined;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void) {
    this.bytes += chunk.length;
    if (this.kept && this.bytes <= MAX_ATTACHMENT_BYTES) this.kept.push(chunk);
    else this.kept = undefined;
    done(null, chunk);
  }

  attachment(): Buffer | undefined {
    return this.kept && Buffer.concat(this.kept);
  }
}

async function writeCsv(report: StoredReport): Promise<{ rowCount: number; attachment?: Buffer; summary: ReportSummary }> {
  const source = REPORT_SOURCES[report.type];
  const csv = csvWriter(source.columns);
  const tap = new AttachmentTap(report.email !== null);
  const summary = summarize(report.type, source.columns); // counters and top-5 lists: memory stays flat
  const upload = new Upload({
    client: s3(),
    params: { Bucket: resourceName('REPORTS_BUCKET'), Key: report.object_key, Body: csv.pipe(tap), ContentType: 'text/csv; charset=utf-8' },
    partSize: PART_BYTES,
    queueSize: 2,
    leavePartsOnError: false,
  });
  let rowCount = 0;
  const feed = async () => {
    try {
      for await (const row of source.rows()) {
        rowCount++;
        summary.add(row);
        if (!csv.write(row)) await once(csv, 'drain');
      }
      csv.end();
    } catch (error) {
      tap.destroy(error as Error); // fails the upload, which aborts it
      throw error;
    }
  };
  const uploaded = upload.done().catch((error: unknown) => {
    csv.destroy(); // stops the feed waiting for a drain that will never come
    throw error;
  });
  await Promise.all([feed(), uploaded]);
  return { rowCount, attachment: tap.attachment(), summary: summary.result() };
}

async function emailReport(report: StoredReport, rowCount: number, attachment: Buffer | undefined, summary: ReportSummary): Promise<void> {
  let sent = false;
  try {
    // Too large to attach: a link of the service's own, which works as long as the e-mail says (email-link.ts).
    const link = attachment ? undefined : await prepareEmailLink(report);
    await sendReportMail({ report, rowCount, attachment, link: link?.url, linkExpiresAt: link?.expiresAt, summary });
    sent = true;
    recordMetric('reportEmailsSent', 1, {});
    await setEmailStatus(report.id, 'sent');
  } catch (error) {
    if (!sent) recordMetric('reportEmailsFailed', 1, {});
    await log('warn', 'report e-mail failed; the report stays downloadable', { reportId: report.id, error: error as Error });
    await setEmailStatus(report.id, 'failed');
  }
}

/** Runs one job to its end, if it is still pending. Errors of the job itself end in `failed`, never in a throw. */
export async function runReport(id: string): Promise<void> {
  const report = await claimReport(id);
  if (!report) return; // another worker has it, or it is finished
  const started = performance.now();
  let written: Awaited<ReturnType<typeof writeCsv>>;
  try {
    written = await writeCsv(report);
  } catch (error) {
    await log('error', 'report failed', { reportId: id, error: error as Error });
    await finishReport(report, { error: 'The report could not be written; create it again.' });
    return;
  }
  const completed = await finishReport(report, { rowCount: written.rowCount });
  if (completed) {
    // From the claim to the finished job: what the caller waits for before the download works (the e-mail not included).
    recordMetric('reportDuration', performance.now() - started, { Report: report.type });
    recordMetric('reportRows', written.rowCount, { Report: report.type });
  }
  if (completed && report.email) await emailReport(report, written.rowCount, written.attachment, written.summary);
}

/** The local stand-in for the stream trigger: runs every pending job. */
export async function runPendingReports(): Promise<void> {
  for (const id of await pendingReportIds()) await runReport(id);
}
