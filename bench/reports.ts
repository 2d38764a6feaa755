/**
 * Reports: the departments and groups reports over a loaded dataset, at each
 * size of `users` (full run: 10,000 and 100,000 users, a department and a
 * group per 10 of them, each user in one of each: at 100,000 the departments
 * report has 10,000 rows, the groups report 100,000), each run by the worker
 * (lib/reports/worker.ts runReport after lib/reports/jobs.ts createReport)
 * in a fresh process, against a raw paginated read of the same items (the
 * same Queries and BatchGetItems, no CSV, no S3) in a fresh process too.
 * Report and raw runs alternate. Each size's dataset lives in a table of its
 * own, deleted afterwards. The goals are judged at the largest size (issue
 * 18: a 1,000-row departments report is all fixed cost); the smaller ones
 * show how cost grows with the data (run.ts's scale table), with G1 on a
 * group of the same size at each.
 */
import { join } from 'node:path';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createTable } from '../infra/local/services';
import { loadDataset, rawClient } from './support/dataset';
import { median, progress, ratio, round, runNode } from './support/util';

export interface FixedCost {
  /** Claim, object write (PutObject, or a multipart upload's create and complete), completion: summed wall time of those calls. */
  ms: number;
  round_trips: number;
  /** 3 for an object of one part (claim, put, complete), 4 for a multipart upload (its create and complete). */
  min_round_trips: number;
  /** Those calls of the first run, in order, with their time. */
  calls: string[];
}

export interface ReportResult {
  type: 'departments' | 'groups';
  /** The dataset: users, departments and groups (10 users each). */
  users: number;
  departments: number;
  groups: number;
  rows: number;
  seconds: number;
  rows_per_second: number;
  raw_read_seconds: number;
  raw_rows_per_second: number;
  ratio: number;
  /** The report's fixed cost (median ms of the runs), and its ratio to the raw read without it. */
  fixed_cost: FixedCost;
  ratio_without_fixed_cost: number;
  /** Read units DynamoDB reported for the report's calls and for the raw read's (median of the runs). */
  rcu: number;
  raw_rcu: number;
  wcu: number;
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
  /** The goals apply at the largest size only; the others are for the scale of cost. */
  judged: boolean;
  meets_goal: boolean;
}

/** G1 on a group of 10 members, at one dataset size. */
export interface G1ScaleResult {
  users: number;
  members: number;
  rcu: number;
  calls: number;
  ms: number;
}

export const REPORT_GOALS = { ratio: 1.3, rssMb: 100 };
/** Users per department and per group in the reports' datasets. */
export const USERS_PER_DEPARTMENT = 10;
export const USERS_PER_GROUP = 10;

export interface ReportSizes {
  /** User counts, smallest first (full run: 10,000 and 100,000). */
  users: number[];
  /** Report and raw runs of each type at each size (the groups report is slow: it may get fewer). */
  runs: { departments: number; groups: number };
  /** G1 runs at each size. */
  g1Runs: number;
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
  rcu: number;
  wcu: number;
  fixed_cost?: FixedCost;
}

const projectRoot = join(import.meta.dirname, '..');

async function runChild<T = ChildResult>(env: Record<string, string>, type: string, mode: 'report' | 'raw' | 'g1'): Promise<T> {
  const { code, out, err } = await runNode(['--import', 'tsx', join('bench', 'report-child.ts')], {
    cwd: projectRoot,
    env: { ...process.env, ...env, BENCH_REPORT_TYPE: type, BENCH_REPORT_MODE: mode },
  });
  if (code !== 0) throw new Error(`${type} ${mode} child failed (${code}): ${err.slice(-1500)}`);
  const line = out.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as T;
  } catch {
    throw new Error(`${type} ${mode} child printed no result: ${out.slice(-500)} ${err.slice(-500)}`);
  }
}

async function deleteTable(env: Record<string, string>, table: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint: env.DYNAMODB_ENDPOINT, region: env.AWS_REGION });
  try {
    await client.send(new DeleteTableCommand({ TableName: table }));
  } catch (error) {
    progress(`reports: could not delete table ${table}: ${String(error)}`);
  } finally {
    client.destroy();
  }
}

export async function measureReports(
  env: Record<string, string>,
  sizes: ReportSizes,
): Promise<{ reports: ReportResult[]; g1: G1ScaleResult[] }> {
  const reports: ReportResult[] = [];
  const g1: G1ScaleResult[] = [];
  const largest = Math.max(...sizes.users);
  for (const users of sizes.users) {
    const table = `${env.TABLE_NAME}-reports-${users}`;
    await createTable(env.DYNAMODB_ENDPOINT, table, env.AWS_REGION);
    try {
      const measured = await measureSize(env, table, users, sizes, users === largest);
      reports.push(...measured.reports);
      g1.push(measured.g1);
    } finally {
      await deleteTable(env, table); // DynamoDB Local holds it in memory
    }
  }
  return { reports, g1 };
}

async function measureSize(
  env: Record<string, string>,
  table: string,
  users: number,
  sizes: ReportSizes,
  judged: boolean,
): Promise<{ reports: ReportResult[]; g1: G1ScaleResult }> {
  const departments = Math.max(1, Math.round(users / USERS_PER_DEPARTMENT));
  const groups = Math.max(1, Math.round(users / USERS_PER_GROUP));
  const client = rawClient();
  progress(
    `reports: loading ${users} users in ${departments} departments and ${groups} groups ` +
      `of ${USERS_PER_GROUP} into table ${table} (BatchWriteItem)`,
  );
  const started = performance.now();
  const data = await loadDataset(
    client,
    table,
    {
      prefix: `r${users}-`,
      departments,
      usersPerDepartment: USERS_PER_DEPARTMENT,
      unassignedUsers: 0,
      groups,
      usersPerGroup: USERS_PER_GROUP,
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
      progress(`reports: ${type} at ${users} users, run ${run + 1}/${runs} (report and raw read, each in a fresh process)`);
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
    const fixedMs = median(report.map((r) => r.fixed_cost!.ms));
    const rss = Math.max(...report.map((r) => r.peak_rss_growth_mb));
    const rows = report[0].rows;
    if (raw[0].rows !== rows) progress(`reports: warning: ${type} report has ${rows} rows, the raw read ${raw[0].rows}`);
    const first = report[0].fixed_cost!;
    results.push({
      type,
      users,
      departments,
      groups,
      rows,
      seconds: round(seconds, 2),
      rows_per_second: round(rows / seconds, 0),
      raw_read_seconds: round(rawSeconds, 2),
      raw_rows_per_second: round(rows / rawSeconds, 0),
      ratio: round(ratio(seconds, rawSeconds), 2),
      fixed_cost: { ms: round(fixedMs, 1), round_trips: first.round_trips, min_round_trips: first.min_round_trips, calls: first.calls },
      ratio_without_fixed_cost: round(ratio(seconds - fixedMs / 1000, rawSeconds), 2),
      rcu: round(median(report.map((r) => r.rcu)), 1),
      raw_rcu: round(median(raw.map((r) => r.rcu)), 1),
      wcu: round(median(report.map((r) => r.wcu)), 1),
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
      judged,
      meets_goal: ratio(seconds, rawSeconds) <= REPORT_GOALS.ratio && rss < REPORT_GOALS.rssMb,
    });
  }

  const group = data.groups[0];
  progress(`reports: G1 at ${users} users (group ${group.id}, ${group.members.length} members), ${sizes.g1Runs} runs in a fresh process`);
  const g1 = await runChild<{ rcu: number; calls: number; ms: number; scans: number }>(
    { ...childEnv, BENCH_G1_GROUP: group.id, BENCH_G1_RUNS: String(sizes.g1Runs) },
    'groups',
    'g1',
  );
  return {
    reports: results,
    g1: {
      users,
      members: group.members.length,
      rcu: g1.rcu,
      calls: g1.calls,
      ms: round(g1.ms, 1),
    },
  };
}
