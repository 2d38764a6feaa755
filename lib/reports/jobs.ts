/**
 * Report jobs (E9, G8): one item per report, moving
 * `pending` → `running` → `complete` | `failed`, every step a conditional
 * update on the state it expects, so a duplicate trigger or a late worker
 * can never move a job backwards.
 *
 * While unfinished, a job sits in index partition REPORTS#PENDING (sorted by
 * creation) or REPORTS#RUNNING (sorted by its lease end). The worker is
 * started by the job's own insert (the table's stream on AWS; the local
 * runner polls REPORTS#PENDING), so no job is lost between its write and its
 * start. The maintenance function puts a running job whose lease passed back
 * to pending (up to MAX_ATTEMPTS, then failed) and fails a job left pending
 * too long: no job stays `running` or `pending` for ever.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { s3 } from '../aws/s3';
import { config } from '../config';
import { db, tableName } from '../db/client';
import { reportKey, reportQueuePartition } from '../db/keys';
import type { Item } from '../db/query';
import { INDEXES } from '../db/table';
import { isConditionFailure, transactWrite } from '../db/transact';
import { DomainError, notFound } from '../errors';
import { newId } from '../ids';
import { auditWrite, type ChangeContext } from '../domain/audit';

export const REPORT_TYPES = ['departments', 'groups'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
export type ReportStatus = 'pending' | 'running' | 'complete' | 'failed';
export type EmailStatus = 'pending' | 'sent' | 'failed';

/** A worker runs for at most this long (the function's timeout); its lease is a little longer. */
export const WORKER_TIMEOUT_SECONDS = 300;
const LEASE_MS = (WORKER_TIMEOUT_SECONDS + 60) * 1000;
export const MAX_ATTEMPTS = 3;
/** A job still pending after this long lost its trigger (its invocations failed into the dead-letter queue). */
const PENDING_TIMEOUT_MS = 15 * 60 * 1000;
/** Lifetime of a download link. */
export const DOWNLOAD_URL_SECONDS = 15 * 60;

export interface Report {
  id: string;
  type: ReportType;
  status: ReportStatus;
  created_at: string;
  completed_at: string | null;
  row_count: number | null;
  download_url: string | null;
  email: { recipients: string[]; status: EmailStatus } | null;
}

export interface StoredReport extends Omit<Report, 'download_url'> {
  object_key: string;
  attempts: number;
}

export const reportObjectKey = (type: ReportType, id: string) => `reports/${type}/${id}.csv`;
export const reportPath = (type: ReportType, id: string) => `/v2/${type}/exports/${id}`;

function toStoredReport(item: Item): StoredReport {
  return {
    id: String(item.id),
    type: item.report_type as ReportType,
    status: item.status as ReportStatus,
    created_at: String(item.created_at),
    completed_at: (item.completed_at as string | undefined) ?? null,
    row_count: typeof item.row_count === 'number' ? item.row_count : null,
    email: (item.email as StoredReport['email']) ?? null,
    object_key: String(item.object_key),
    attempts: Number(item.attempts ?? 0),
  };
}

export async function createReport(ctx: ChangeContext, type: ReportType, recipients: string[] | null): Promise<Report> {
  const id = newId();
  const now = new Date().toISOString();
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
  const { type: reportType, ...fields } = report;
  await transactWrite([
    {
      item: {
        Put: {
          TableName: tableName(),
          Item: {
            ...reportKey(id),
            type: 'report',
            report_type: reportType,
            ...fields,
            gsi1pk: reportQueuePartition('pending'),
            gsi1sk: `${now}#${id}`,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    auditWrite(ctx, { resourceType: 'report', resourceId: id, changes: { created: { type, email: report.email } } }, now),
  ]);
  return representation(report, null);
}

export async function findReport(id: string): Promise<StoredReport | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: reportKey(id), ConsistentRead: true }));
  return result.Item ? toStoredReport(result.Item) : undefined;
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
export async function downloadUrl(report: StoredReport, expiresIn = DOWNLOAD_URL_SECONDS): Promise<string> {
  const command = new GetObjectCommand({
    Bucket: config().reportsBucket,
    Key: report.object_key,
    ResponseContentDisposition: `attachment; filename="${report.type}-report-${report.id}.csv"`,
  });
  return getSignedUrl(s3(), command, { expiresIn });
}

/** The report as API.md shows it; `download_url` once complete. */
export async function getReport(type: ReportType, id: string): Promise<Report> {
  const report = await getStoredReport(type, id);
  return representation(report, report.status === 'complete' ? await downloadUrl(report) : null);
}

/** Where `/download` redirects; 409 `report-not-ready` until the report is complete. */
export async function reportDownloadUrl(type: ReportType, id: string): Promise<string> {
  const report = await getStoredReport(type, id);
  if (report.status !== 'complete') {
    throw new DomainError('report-not-ready', `Report "${id}" is ${report.status}; download it once it is complete.`, {
      report_status: report.status,
    });
  }
  return downloadUrl(report);
}

// --- the worker's side --------------------------------------------------------

/** Takes a pending job for one attempt; undefined when another worker has it or it is finished. */
export async function claimReport(id: string): Promise<StoredReport | undefined> {
  const leaseUntil = new Date(Date.now() + LEASE_MS).toISOString();
  try {
    const result = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: reportKey(id),
        UpdateExpression: 'SET #status = :running, gsi1pk = :queue, gsi1sk = :due ADD attempts :one',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':running': 'running',
          ':pending': 'pending',
          ':queue': reportQueuePartition('running'),
          ':due': `${leaseUntil}#${id}`,
          ':one': 1,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toStoredReport(result.Attributes!);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** Ends an attempt; ignored when the job is no longer this attempt's (its lease passed and another took it). */
export async function finishReport(report: StoredReport, outcome: { rowCount: number } | { error: string }): Promise<boolean> {
  const now = new Date().toISOString();
  const complete = 'rowCount' in outcome;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: reportKey(report.id),
        UpdateExpression: complete
          ? 'SET #status = :status, completed_at = :now, row_count = :rows REMOVE gsi1pk, gsi1sk'
          : 'SET #status = :status, completed_at = :now, failure = :error REMOVE gsi1pk, gsi1sk',
        ConditionExpression: '#status = :running AND attempts = :attempt',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':status': complete ? 'complete' : 'failed',
          ':now': now,
          ':running': 'running',
          ':attempt': report.attempts,
          ...(complete ? { ':rows': outcome.rowCount } : { ':error': outcome.error }),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function setEmailStatus(id: string, status: Exclude<EmailStatus, 'pending'>): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: reportKey(id),
      UpdateExpression: 'SET #email.#status = :status',
      ConditionExpression: '#email.#status = :pending',
      ExpressionAttributeNames: { '#email': 'email', '#status': 'status' },
      ExpressionAttributeValues: { ':status': status, ':pending': 'pending' },
    }),
  );
}

async function queued(state: 'pending' | 'running', before?: string): Promise<Item[]> {
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: INDEXES.byName.name,
      KeyConditionExpression: before ? '#pk = :pk AND #sk < :before' : '#pk = :pk',
      ExpressionAttributeNames: { '#pk': INDEXES.byName.partitionKey, ...(before ? { '#sk': INDEXES.byName.sortKey } : {}) },
      ExpressionAttributeValues: { ':pk': reportQueuePartition(state), ...(before ? { ':before': before } : {}) },
      Limit: 100,
    }),
  );
  return result.Items ?? [];
}

/** Ids of pending jobs, oldest first (the local runner's trigger). */
export async function pendingReportIds(): Promise<string[]> {
  return (await queued('pending')).map((item) => String(item.id));
}

/** Maintenance: retries jobs whose worker died, and fails those that can no longer finish. Answers how many. */
export async function repairReports(now = Date.now()): Promise<number> {
  const stamp = new Date(now).toISOString();
  const stale = await queued('running', stamp);
  const lost = await queued('pending', new Date(now - PENDING_TIMEOUT_MS).toISOString());
  let repaired = 0;
  for (const item of [...stale, ...lost]) {
    const retry = item.status === 'running' && Number(item.attempts) < MAX_ATTEMPTS;
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: reportKey(String(item.id)),
          UpdateExpression: retry
            ? 'SET #status = :pending, gsi1pk = :queue, gsi1sk = :due'
            : 'SET #status = :failed, completed_at = :now, failure = :why REMOVE gsi1pk, gsi1sk',
          ConditionExpression: '#status = :was AND attempts = :attempts',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':was': item.status,
            ':attempts': item.attempts,
            ...(retry
              ? { ':pending': 'pending', ':queue': reportQueuePartition('pending'), ':due': `${stamp}#${item.id}` }
              : {
                  ':failed': 'failed',
                  ':now': stamp,
                  ':why': item.status === 'running' ? 'worker died repeatedly' : 'worker never started',
                }),
          },
        }),
      );
      repaired++;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  return repaired;
}
