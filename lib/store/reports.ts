/**
 * Report job items: `REPORT#<id>` / `REPORT`, moving `pending` → `running` →
 * `complete` | `failed`, every step a conditional update on the state it
 * expects. While unfinished, a job sits in index partition REPORTS#PENDING
 * (sorted by creation) or REPORTS#RUNNING (sorted by its lease end); a
 * finished job leaves the index.
 */
import { Condition, Update } from '../db/expression';
import * as attr from '../db/item-kind';
import { getItem, updateItem } from '../db/items';
import { queryStream } from '../db/query';
import { INDEXES, type Item, type Key } from '../db/table';
import { put, type Write } from '../db/transact';
import { EMAIL_STATUSES, REPORT_STATUSES, REPORT_TYPES, type EmailStatus, type ReportStatus } from '../schemas/enums';
import type { Report } from '../schemas/responses';

export type { Report };

/** A report as stored: the representation without its link, plus where the CSV goes and how many attempts were made. */
export interface StoredReport extends Omit<Report, 'download_url'> {
  object_key: string;
  attempts: number;
}

type QueueState = 'pending' | 'running';

const emailStatus = attr.oneOf(EMAIL_STATUSES);
/** Who the CSV is e-mailed to, and how that went. */
const email = attr.required(
  'recipients and a status',
  (value): value is NonNullable<Report['email']> =>
    attr.map.holds(value) && attr.stringList.holds(value.recipients) && emailStatus.holds(value.status),
);

/** The partition keys of report jobs start with this (the only items the report worker may write). */
export const REPORT_KEY_PREFIX = 'REPORT#';

const reportKind = attr.itemKind({
  type: 'report',
  key: (id: string): Key => ({ pk: `${REPORT_KEY_PREFIX}${id}`, sk: 'REPORT' }),
  attributes: {
    id: attr.string,
    report_type: attr.oneOf(REPORT_TYPES),
    status: attr.oneOf(REPORT_STATUSES),
    created_at: attr.string,
    completed_at: attr.nullable(attr.string),
    row_count: attr.nullable(attr.number),
    email: attr.nullable(email),
    object_key: attr.string,
    attempts: attr.orElse(attr.number, 0),
    /** Why a failed job failed. */
    failure: attr.optional(attr.string),
    /** The e-mailed link's secret, as a SHA-256 hex digest (never the secret itself), and when the link stops working. */
    email_link_hash: attr.optional(attr.string),
    email_link_expires_at: attr.optional(attr.string),
  },
  // An unfinished job's queue: a finished one leaves it.
  indexAttributes: { gsi1pk: attr.optional(attr.string), gsi1sk: attr.optional(attr.string) },
});

export const reportKey = reportKind.key;
const queuePartition = (state: QueueState) => `REPORTS#${state.toUpperCase()}`;
const queued = (state: QueueState, due: string, id: string) => ({ gsi1pk: queuePartition(state), gsi1sk: `${due}#${id}` });

function toStoredReport(item: Item): StoredReport {
  const { report_type: type, failure: _, email_link_hash: _hash, email_link_expires_at: _expires, ...report } = reportKind.read(item);
  return { type, ...report };
}

/** What the e-mailed link of a report is checked against. */
export interface ReportEmailLink {
  report: StoredReport;
  secretHash: string;
  expiresAt: string;
}

/** A new pending job, queued by its creation time. */
export function reportPut(report: StoredReport): Write {
  const { type, ...fields } = report;
  return put(
    reportKind.item(reportKey(report.id), { report_type: type, ...fields, ...queued('pending', report.created_at, report.id) }),
    new Condition().whenAbsent(),
  );
}

export async function findReport(id: string): Promise<StoredReport | undefined> {
  const item = await getItem(reportKey(id));
  return item ? toStoredReport(item) : undefined;
}

/** Takes a pending job for one attempt, leased until `leaseUntil`; fails its condition when it is not pending. */
export async function claimPendingReport(id: string, leaseUntil: string): Promise<StoredReport> {
  const changes = new Update()
    .setAll({ status: 'running', ...queued('running', leaseUntil, id) })
    .add('attempts', 1)
    .whenEquals('status', 'pending');
  return toStoredReport((await updateItem(reportKey(id), changes, { returnNew: true }))!);
}

/** Ends attempt `attempt` as complete or failed; fails its condition when the job is no longer that attempt's. */
export async function finishReportAttempt(id: string, attempt: number, outcome: { rowCount: number } | { error: string }, now: string) {
  const complete = 'rowCount' in outcome;
  const changes = new Update()
    .setAll({ status: complete ? 'complete' : 'failed', completed_at: now })
    .set(complete ? 'row_count' : 'failure', complete ? outcome.rowCount : outcome.error)
    .remove('gsi1pk', 'gsi1sk')
    .whenEquals('status', 'running')
    .whenEquals('attempts', attempt);
  await updateItem(reportKey(id), changes);
}

/** The report and its e-mailed link, when it has one (undefined otherwise, or when there is no such report). */
export async function findReportEmailLink(id: string): Promise<ReportEmailLink | undefined> {
  const item = await getItem(reportKey(id));
  if (!item) return undefined;
  const { email_link_hash: secretHash, email_link_expires_at: expiresAt } = reportKind.read(item);
  return secretHash && expiresAt ? { report: toStoredReport(item), secretHash, expiresAt } : undefined;
}

/** Keeps the e-mailed link's secret hash and expiry on a complete report. */
export async function setReportEmailLink(id: string, secretHash: string, expiresAt: string): Promise<void> {
  const changes = new Update().setAll({ email_link_hash: secretHash, email_link_expires_at: expiresAt }).whenEquals('status', 'complete');
  await updateItem(reportKey(id), changes);
}

/** Records the e-mail's outcome, once. */
export async function setReportEmailStatus(id: string, status: Exclude<EmailStatus, 'pending'>): Promise<void> {
  const changes = new Update();
  const email = changes.name('email');
  const emailStatus = changes.name('status');
  changes.setPath(`${email}.${emailStatus}`, status);
  changes.when(`${email}.${emailStatus} = ${changes.value('pending')}`);
  await updateItem(reportKey(id), changes);
}

/** Unfinished jobs in `state` due before `before` (all when absent), oldest first, at most 100. */
export async function queuedReports(
  state: QueueState,
  before?: string,
): Promise<Array<{ id: string; status: ReportStatus; attempts: number }>> {
  const jobs: Array<{ id: string; status: ReportStatus; attempts: number }> = [];
  const query = { index: INDEXES.byName, partition: queuePartition(state), sortKeyBetween: before ? { to: before } : undefined };
  for await (const item of queryStream(query, { pageSize: 100 })) {
    const { id, status, attempts } = reportKind.read(item);
    jobs.push({ id, status, attempts });
    if (jobs.length >= 100) break;
  }
  return jobs;
}

/** A job whose worker died goes back to pending (`retry`) or is failed, if it is still in the state and attempt read. */
export async function requeueOrFail(job: { id: string; status: ReportStatus; attempts: number }, retry: boolean, now: string, why: string) {
  const changes = retry
    ? new Update().setAll({ status: 'pending', ...queued('pending', now, job.id) })
    : new Update().setAll({ status: 'failed', completed_at: now, failure: why }).remove('gsi1pk', 'gsi1sk');
  changes.whenEquals('status', job.status).whenEquals('attempts', job.attempts);
  await updateItem(reportKey(job.id), changes);
}
