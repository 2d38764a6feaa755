/**
 * The report worker under faults: S3 failing (a single put, or one part of a
 * multipart upload) fails the job and leaves no object; a worker that dies
 * mid-way is retried by maintenance, then failed — never running for ever.
 */
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, describe, expect, it } from 'vitest';
import { s3 } from '../../lib/aws/s3';
import { resourceName } from '../../lib/config';
import { REPORT_SOURCES, type Row } from '../../lib/reports/csv';
import { claimReport, createReport, findReport, MAX_ATTEMPTS, repairReports, WORKER_TIMEOUT_SECONDS } from '../../lib/reports/jobs';
import { runReport } from '../../lib/reports/worker';

const ctx = { actor: 'test', operationId: 'E9', requestId: 'test' };

/** S3 commands whose name matches fail, from their `after`-th call on. */
let failure: { command: RegExp; after: number; seen: number } | undefined;
const sent: string[] = [];
s3().middlewareStack.add(
  (next, context) => async (args) => {
    sent.push(context.commandName ?? '');
    if (failure && failure.command.test(context.commandName ?? '') && ++failure.seen > failure.after) {
      throw Object.assign(new Error('injected S3 failure'), { name: 'InternalError', $fault: 'server' });
    }
    return next(args);
  },
  { step: 'initialize', name: 's3Failure' },
);
const originalRows = REPORT_SOURCES.departments.rows;
afterEach(() => {
  failure = undefined;
  REPORT_SOURCES.departments.rows = originalRows;
});

const objectExists = async (key: string) =>
  s3()
    .send(new HeadObjectCommand({ Bucket: resourceName('REPORTS_BUCKET'), Key: key }))
    .then(() => true)
    .catch((error: { name?: string }) => (error.name === 'NotFound' ? false : Promise.reject(error)));

describe('report worker faults', () => {
  it('fails the job and leaves no object when the upload fails', async () => {
    failure = { command: /PutObject/, after: 0, seen: 0 };
    const report = await createReport(ctx, 'departments', null);
    await runReport(report.id);
    expect(await findReport(report.id)).toMatchObject({ status: 'failed', row_count: null });
    expect(await objectExists(`reports/departments/${report.id}.csv`)).toBe(false);
  });

  it('aborts a multipart upload that fails after its first part, leaving nothing visible', async () => {
    // ~9 MB of rows: two 5 MB parts; the second part fails.
    REPORT_SOURCES.departments.rows = async function* (): AsyncGenerator<Row> {
      for (let i = 0; i < 150_000; i++) yield [`d${i}`, `Department number ${i}`, i, 0, 0, 0, 0, null, null, null, null, null, null, 'x'];
    };
    failure = { command: /UploadPart/, after: 1, seen: 0 };
    const report = await createReport(ctx, 'departments', null);
    await runReport(report.id);
    expect((await findReport(report.id))!.status).toBe('failed');
    expect(await objectExists(`reports/departments/${report.id}.csv`)).toBe(false);
    // s3rver cannot list multipart uploads, so check that the upload was aborted rather than left for the lifecycle rule.
    expect(sent).toContain('AbortMultipartUploadCommand');
  });

  it('retries a job whose worker died, and fails it after the last attempt', async () => {
    const report = await createReport(ctx, 'departments', null);
    const leasePassed = () => Date.now() + (WORKER_TIMEOUT_SECONDS + 120) * 1000;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await claimReport(report.id)).toMatchObject({ status: 'running', attempts: attempt }); // ...and the worker dies
      expect(await repairReports(Date.now())).toBe(0); // its lease has not passed yet
      expect(await repairReports(leasePassed())).toBe(1);
      const after = (await findReport(report.id))!;
      expect(after.status).toBe(attempt < MAX_ATTEMPTS ? 'pending' : 'failed');
    }
    await runReport(report.id); // a late trigger changes nothing
    expect((await findReport(report.id))!.status).toBe('failed');
  });

  it('completes a retried job normally', async () => {
    const report = await createReport(ctx, 'departments', null);
    await claimReport(report.id);
    await repairReports(Date.now() + (WORKER_TIMEOUT_SECONDS + 120) * 1000);
    await runReport(report.id);
    expect(await findReport(report.id)).toMatchObject({ status: 'complete', attempts: 2 });
    expect(await objectExists(`reports/departments/${report.id}.csv`)).toBe(true);
  });
});
