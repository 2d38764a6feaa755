/**
 * Report jobs (E9, G8): created pending with their audit entry, claimed by
 * the worker for one attempt at a time, finished complete or failed, and
 * repaired when a worker dies. Every step is a conditional update on the
 * state it expects (lib/store/reports.ts), so a duplicate trigger or a late
 * worker can never move a job backwards.
 *
 * The worker is started by the job's own insert (the table's stream on AWS;
 * the local runner polls the pending jobs), so no job is lost between its
 * write and its start. The maintenance function puts a running job whose
 * lease passed back to pending (up to MAX_ATTEMPTS, then failed) and fails a
 * job left pending too long: no job stays `running` or `pending` for ever.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { recordChange, type ChangeContext } from '../audit/context';
import { s3 } from '../aws/s3';
import { resourceName } from '../config';
import { isConditionFailure, transactWrite } from '../db/transact';
import { newId } from '../ids';
import { notFound, Problem } from '../problems';
import { REPORT_TYPES, type EmailStatus, type ReportType } from '../schemas/enums';
import {
  claimPendingReport,
  findReport,
  finishReportAttempt,
  queuedReports,
  reportPut,
  requeueOrFail,
  setReportEmailStatus,
  type Report,
  type StoredReport,
} from '../store/reports';
import { useEmailAllowance } from './email-allowance';

export { findReport, REPORT_TYPES, type Report, type ReportType, type StoredReport };

/** A worker runs for at most this long (the function's timeout); its lease is a little longer. */
export const WORKER_TIMEOUT_SECONDS = 300;
const LEASE_MS = (WORKER_TIMEOUT_SECONDS + 60) * 1000;
export const MAX_ATTEMPTS = 3;
/** A job still pending after this long lost its trigger (its invocations failed into the dead-letter queue). */
const PENDING_TIMEOUT_MS = 15 * 60 * 1000;
/** Lifetime of a download link. */
export const DOWNLOAD_URL_SECONDS = 15 * 60;

export const reportObjectKey = (type: ReportType, id: string) => `reports/${type}/${id}.csv`;
export const reportPath = (type: ReportType, id: string) => `/v2/${type}/exports/${id}`;

/** A pending job (and its audit entry); one that e-mails also uses one of the caller's e-mailed reports of the hour. */
export async function createReport(ctx: ChangeContext, type: ReportType, recipients: string[] | null, clock = new Date()): Promise<Report> {
  const id = newId();
  const now = clock.toISOString();
  const report: StoredReport = {
    id,
    type,
    status: 'pending',
    created_at: now,
    completed_at: null,
    row_count: null,
    email: recipients ? { recipients, status: 'pending' } : null,
    object_key: reportObjectKey(type, id),
    attempts: 0,
  };
  await transactWrite([
    reportPut(report),
    recordChange(ctx, { resourceType: 'report', resourceId: id, changes: { created: { type, email: report.email } } }),
    ...(recipients ? [useEmailAllowance(ctx.actor, clock.getTime())] : []),
  ]);
  return representation(report, null);
}

async function getStoredReport(type: ReportType, id: string): Promise<StoredReport> {
  const report = await findReport(id);
  if (!report || report.type !== type) throw notFound('Report', id);
  return report;
}

function representation({ object_key: _key, attempts: _attempts, ...report }: StoredReport, downloadUrl: string | null): Report {
  return { ...report, download_url: downloadUrl };
}

/** A pre-signed GET of the CSV, made when asked for (never stored); the API's links live 15 minutes. */
export async function downloadUrl(report: StoredReport, expiresIn = DOWNLOAD_URL_SECONDS, signingDate = new Date()): Promise<string> {
  const command = new GetObjectCommand({
    Bucket: resourceName('REPORTS_BUCKET'),
    Key: report.object_key,
    ResponseContentDisposition: `attachment; filename="${report.type}-report-${report.id}.csv"`,
  });
  return getSignedUrl(s3(), command, { expiresIn, signingDate });
}

/** The report as the OpenAPI document shows it; `download_url` once complete. */
export async function getReport(type: ReportType, id: string): Promise<Report> {
  const report = await getStoredReport(type, id);
  return representation(report, report.status === 'complete' ? await downloadUrl(report) : null);
}

/** A download link of a complete report and when it stops working. */
export interface ReportDownload {
  download_url: string;
  expires_at: string;
}

/** Where `/download` points; 409 `report-not-ready` until the report is complete. */
export async function reportDownload(type: ReportType, id: string): Promise<ReportDownload> {
  const report = await getStoredReport(type, id);
  if (report.status !== 'complete') {
    throw new Problem('report-not-ready', `Report "${id}" is ${report.status}; download it once it is complete.`, {
      report_status: report.status,
    });
  }
  // Signed at a whole second (as X-Amz-Date writes it), so expires_at is exactly when S3 stops honouring the link.
  const signedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
  const download_url = await downloadUrl(report, DOWNLOAD_URL_SECONDS, signedAt);
  return { download_url, expires_at: new Date(signedAt.getTime() + DOWNLOAD_URL_SECONDS * 1000).toISOString() };
}

// --- the worker's side --------------------------------------------------------

/** Takes a pending job for one attempt; undefined when another worker has it or it is finished. */
export async function claimReport(id: string): Promise<StoredReport | undefined> {
  try {
    return await claimPendingReport(id, new Date(Date.now() + LEASE_MS).toISOString());
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** Ends an attempt; false when the job is no longer this attempt's (its lease passed and another took it). */
export async function finishReport(report: StoredReport, outcome: { rowCount: number } | { error: string }): Promise<boolean> {
  try {
    await finishReportAttempt(report.id, report.attempts, outcome, new Date().toISOString());
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export const setEmailStatus = (id: string, status: Exclude<EmailStatus, 'pending'>): Promise<void> => setReportEmailStatus(id, status);

/** Ids of pending jobs, oldest first (the local runner's trigger). */
export async function pendingReportIds(): Promise<string[]> {
  return (await queuedReports('pending')).map((job) => job.id);
}

/** Maintenance: retries jobs whose worker died, and fails those that can no longer finish. Answers how many. */
export async function repairReports(now = Date.now()): Promise<number> {
  const stamp = new Date(now).toISOString();
  const stale = await queuedReports('running', stamp);
  const lost = await queuedReports('pending', new Date(now - PENDING_TIMEOUT_MS).toISOString());
  let repaired = 0;
  for (const job of [...stale, ...lost]) {
    const retry = job.status === 'running' && job.attempts < MAX_ATTEMPTS;
    try {
      await requeueOrFail(job, retry, stamp, job.status === 'running' ? 'worker died repeatedly' : 'worker never started');
      repaired++;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  return repaired;
}
