/**
 * Reports: the departments and groups reports at each size (a department and a group per 10 users), each run by the
 * worker in a fresh process (report-child.ts), against a raw read of the same items, alternating; G1 on a group of 10
 * at each size. The goals are judged at the largest size: docs/performance.md "Reports".
 */
import { loadDataset, rawClient } from '../test/support/measure/dataset';
import { inTableOfItsOwn } from './support/tables';
import { jsonChild, median, progress, ratio, round } from './support/util';

/** Claim, object write, completion: their summed wall time and round trips (the calls of the first run). */
type FixedCost = { ms: number; round_trips: number; min_round_trips: number; calls: string[] };
type ChildResult = Record<'rows' | 'seconds' | 'peak_rss_growth_mb' | 'scans' | 'rcu' | 'wcu', number> & { fixed_cost?: FixedCost };

/** A report at one size: medians of its runs (RSS growth: the largest) next to the raw read's; judged at the largest size only. */
function reportRow(type: 'departments' | 'groups', users: number, judged: boolean, report: ChildResult[], raw: ChildResult[]) {
  const seconds = median(report.map((r) => r.seconds));
  const rawSeconds = median(raw.map((r) => r.seconds));
  const fixedMs = median(report.map((r) => r.fixed_cost!.ms));
  const rss = Math.max(...report.map((r) => r.peak_rss_growth_mb));
  const rows = report[0].rows;
  if (raw[0].rows !== rows) progress(`reports: warning: ${type} report has ${rows} rows, the raw read ${raw[0].rows}`);
  return {
    ...{ type, users, rows, seconds: round(seconds, 2), rows_per_second: round(rows / seconds, 0), raw_read_seconds: round(rawSeconds, 2) },
    ratio: round(ratio(seconds, rawSeconds), 2),
    fixed_cost: { ...report[0].fixed_cost!, ms: round(fixedMs, 1) },
    ratio_without_fixed_cost: round(ratio(seconds - fixedMs / 1000, rawSeconds), 2),
    rcu: round(median(report.map((r) => r.rcu)), 1),
    raw_rcu: round(median(raw.map((r) => r.rcu)), 1),
    wcu: round(median(report.map((r) => r.wcu)), 1),
    peak_rss_growth_mb: round(rss, 1),
    raw_peak_rss_growth_mb: round(Math.max(...raw.map((r) => r.peak_rss_growth_mb)), 1),
    runs: report.length,
    scans: [...report, ...raw].reduce((n, r) => n + r.scans, 0),
    judged,
    meets_goal: ratio(seconds, rawSeconds) <= REPORT_GOALS.ratio && rss < REPORT_GOALS.rssMb,
  };
}
export type ReportResult = ReturnType<typeof reportRow>;

/** G1 on a group of 10 members, at one dataset size. */
export type G1ScaleResult = { users: number; members: number; rcu: number; calls: number; ms: number };

export const REPORT_GOALS = { ratio: 1.3, rssMb: 100 };
const USERS_PER_DEPARTMENT = 10;
const USERS_PER_GROUP = 10;

/** `users`: user counts, smallest first; `runs`: report and raw runs of each type at each size. */
export type ReportSizes = { users: number[]; runs: { departments: number; groups: number }; g1Runs: number };

const runChild = <T = ChildResult>(env: Record<string, string>, type: string, mode: 'report' | 'raw' | 'g1') =>
  jsonChild<T>('report-child.ts', { ...env, BENCH_REPORT_TYPE: type, BENCH_REPORT_MODE: mode });

export async function measureReports(env: Record<string, string>, sizes: ReportSizes) {
  const reports: ReportResult[] = [];
  const g1: G1ScaleResult[] = [];
  for (const users of sizes.users) {
    await inTableOfItsOwn(env, `${env.TABLE_NAME}-reports-${users}`, async (table) => {
      const measured = await measureSize({ ...env, TABLE_NAME: table }, users, sizes, users === Math.max(...sizes.users));
      reports.push(...measured.reports);
      g1.push(measured.g1);
    });
  }
  return { reports, g1 };
}

async function measureSize(env: Record<string, string>, users: number, sizes: ReportSizes, judged: boolean) {
  const departments = Math.max(1, Math.round(users / USERS_PER_DEPARTMENT));
  const groups = Math.max(1, Math.round(users / USERS_PER_GROUP));
  const client = rawClient();
  progress(`reports: loading ${users} users in ${departments} departments and ${groups} groups into ${env.TABLE_NAME}`);
  const spec = { prefix: `r${users}-`, departments, usersPerDepartment: USERS_PER_DEPARTMENT, unassignedUsers: 0 };
  const data = await loadDataset(client, env.TABLE_NAME, { ...spec, groups, usersPerGroup: USERS_PER_GROUP, emailClaims: false }, 16);
  client.destroy();

  const reports: ReportResult[] = [];
  for (const type of ['departments', 'groups'] as const) {
    const report: ChildResult[] = [];
    const raw: ChildResult[] = [];
    const runs = sizes.runs[type];
    for (let run = 0; run < runs; run++) {
      progress(`reports: ${type} at ${users} users, run ${run + 1}/${runs} (report and raw read, each in a fresh process)`);
      for (const mode of run % 2 === 0 ? (['report', 'raw'] as const) : (['raw', 'report'] as const)) {
        (mode === 'report' ? report : raw).push(await runChild(env, type, mode));
      }
    }
    reports.push(reportRow(type, users, judged, report, raw));
  }

  const group = data.groups[0];
  progress(`reports: G1 at ${users} users (a group of ${group.members.length}), ${sizes.g1Runs} runs in a fresh process`);
  const g1 = await runChild<G1ScaleResult>({ ...env, BENCH_G1_GROUP: group.id, BENCH_G1_RUNS: String(sizes.g1Runs) }, 'groups', 'g1');
  return { reports, g1: { users, members: group.members.length, rcu: g1.rcu, calls: g1.calls, ms: round(g1.ms, 1) } };
}
