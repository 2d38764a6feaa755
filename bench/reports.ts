/**
 * Reports: the departments and groups reports over a loaded dataset (full
 * run: 100,000 users in 1,000 departments of 100, 10,000 groups of 10, so
 * the groups report has 100,000 rows), each run by the worker
 * (lib/reports/worker.ts runReport after lib/reports/jobs.ts createReport)
 * in a fresh process, against a raw paginated read of the same items (the
 * same Queries and BatchGetItems, no CSV, no S3) in a fresh process too.
 * Report and raw runs alternate. The dataset lives in a table of its own.
 */
import { join } from 'node:path';
import { createTable } from '../infra/local/services';
import { loadDataset, rawClient } from './support/dataset';
import { median, progress, ratio, round, runNode } from './support/util';

export interface ReportResult {
  type: 'departments' | 'groups';
  rows: number;
  seconds: number;
  rows_per_second: number;
  raw_read_seconds: number;
  raw_rows_per_second: number;
  ratio: number;
  peak_rss_growth_mb: number;
  raw_peak_rss_growth_mb: number;
  /** Of the report's growth: the JavaScript heap in use at its peak, and Buffers (CSV chunks, upload parts), largest of the runs. */
  peak_heap_used_growth_mb: number;
  peak_array_buffers_growth_mb: number;
  raw_peak_heap_used_growth_mb: number;
  raw_peak_array_buffers_growth_mb: number;
  runs: number;
  /** Wall time with a DynamoDB call in flight, and with an S3 call in flight (the two overlap: the upload streams while rows are read). */
  dynamodb_seconds: number;
  dynamodb_calls: number;
  s3_seconds: number;
  s3_calls: number;
  raw_dynamodb_seconds: number;
  raw_dynamodb_calls: number;
  /** Per command of the (first) report run: summed milliseconds and calls. */
  report_commands: Record<string, { ms: number; calls: number }>;
  raw_commands: Record<string, { ms: number; calls: number }>;
  scans: number;
  meets_goal: boolean;
}

export const REPORT_GOALS = { ratio: 1.3, rssMb: 100 };

export interface ReportSizes {
  users: number;
  departments: number;
  groups: number;
  /** Report and raw runs of each type (the groups report is slow: it may get fewer). */
  runs: { departments: number; groups: number };
}

interface ChildResult {
  rows: number;
  seconds: number;
  peak_rss_growth_mb: number;
  scans: number;
  dynamodb_ms: number;
  dynamodb_calls: number;
  s3_ms: number;
  s3_calls: number;
  commands: Record<string, { ms: number; calls: number }>;
  peak_heap_used_growth_mb: number;
  peak_array_buffers_growth_mb: number;
}

const projectRoot = join(import.meta.dirname, '..');

async function runChild(env: Record<string, string>, type: string, mode: 'report' | 'raw'): Promise<ChildResult> {
  const { code, out, err } = await runNode(['--import', 'tsx', join('bench', 'report-child.ts')], {
    cwd: projectRoot,
    env: { ...process.env, ...env, BENCH_REPORT_TYPE: type, BENCH_REPORT_MODE: mode },
  });
  if (code !== 0) throw new Error(`${type} ${mode} child failed (${code}): ${err.slice(-1500)}`);
  const line = out.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as ChildResult;
  } catch {
    throw new Error(`${type} ${mode} child printed no result: ${out.slice(-500)} ${err.slice(-500)}`);
  }
}

export async function measureReports(env: Record<string, string>, sizes: ReportSizes): Promise<ReportResult[]> {
  const table = `${env.TABLE_NAME}-reports`;
  await createTable(env.DYNAMODB_ENDPOINT, table, env.AWS_REGION);
  const client = rawClient();
  progress(
    `reports: loading ${sizes.users} users in ${sizes.departments} departments and ${sizes.groups} groups ` +
      `of ${Math.round(sizes.users / sizes.groups)} into table ${table} (BatchWriteItem)`,
  );
  const started = performance.now();
  const data = await loadDataset(
    client,
    table,
    {
      prefix: 'r',
      departments: sizes.departments,
      usersPerDepartment: Math.round(sizes.users / sizes.departments),
      unassignedUsers: 0,
      groups: sizes.groups,
      usersPerGroup: Math.round(sizes.users / sizes.groups),
      emailClaims: false,
    },
    16,
  );
  progress(`reports: loaded ${data.items} items in ${round((performance.now() - started) / 1000, 0)} s`);
  client.destroy();

  const childEnv = { ...env, TABLE_NAME: table };
  const results: ReportResult[] = [];
  for (const type of ['departments', 'groups'] as const) {
    const report: ChildResult[] = [];
    const raw: ChildResult[] = [];
    const runs = sizes.runs[type];
    for (let run = 0; run < runs; run++) {
      progress(`reports: ${type}, run ${run + 1}/${runs} (report and raw read, each in a fresh process)`);
      if (run % 2 === 0) {
        report.push(await runChild(childEnv, type, 'report'));
        raw.push(await runChild(childEnv, type, 'raw'));
      } else {
        raw.push(await runChild(childEnv, type, 'raw'));
        report.push(await runChild(childEnv, type, 'report'));
      }
    }
    const seconds = median(report.map((r) => r.seconds));
    const rawSeconds = median(raw.map((r) => r.seconds));
    const rss = Math.max(...report.map((r) => r.peak_rss_growth_mb));
    const rows = report[0].rows;
    if (raw[0].rows !== rows) progress(`reports: warning: ${type} report has ${rows} rows, the raw read ${raw[0].rows}`);
    results.push({
      type,
      rows,
      seconds: round(seconds, 2),
      rows_per_second: round(rows / seconds, 0),
      raw_read_seconds: round(rawSeconds, 2),
      raw_rows_per_second: round(rows / rawSeconds, 0),
      ratio: round(ratio(seconds, rawSeconds), 2),
      peak_rss_growth_mb: round(rss, 1),
      raw_peak_rss_growth_mb: round(Math.max(...raw.map((r) => r.peak_rss_growth_mb)), 1),
      peak_heap_used_growth_mb: round(Math.max(...report.map((r) => r.peak_heap_used_growth_mb)), 1),
      peak_array_buffers_growth_mb: round(Math.max(...report.map((r) => r.peak_array_buffers_growth_mb)), 1),
      raw_peak_heap_used_growth_mb: round(Math.max(...raw.map((r) => r.peak_heap_used_growth_mb)), 1),
      raw_peak_array_buffers_growth_mb: round(Math.max(...raw.map((r) => r.peak_array_buffers_growth_mb)), 1),
      runs,
      dynamodb_seconds: round(median(report.map((r) => r.dynamodb_ms)) / 1000, 3),
      dynamodb_calls: report[0].dynamodb_calls,
      s3_seconds: round(median(report.map((r) => r.s3_ms)) / 1000, 3),
      s3_calls: report[0].s3_calls,
      raw_dynamodb_seconds: round(median(raw.map((r) => r.dynamodb_ms)) / 1000, 3),
      raw_dynamodb_calls: raw[0].dynamodb_calls,
      report_commands: report[0].commands,
      raw_commands: raw[0].commands,
      scans: [...report, ...raw].reduce((n, r) => n + r.scans, 0),
      meets_goal: ratio(seconds, rawSeconds) <= REPORT_GOALS.ratio && rss < REPORT_GOALS.rssMb,
    });
  }
  return results;
}
