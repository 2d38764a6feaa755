/**
 * The benchmark (issue 7): `npm run bench` (full, up to ~20 minutes) or
 * `npm run bench -- --quick` (small sizes, about 2 minutes). See
 * bench/README.md for what each section measures and each column means.
 *
 * 1. cold start — every function bundled as the stack bundles it, against
 *    its floor (no local services needed, so it runs first, on a quieter
 *    machine);
 * 2. overhead — warm handler vs the same raw SDK calls (E2, E3, E1, G1, G4);
 * 3. bulk — E3 of 1,000 users vs the raw transactions;
 * 4. capacity — reported vs minimum RCU/WCU, every operation, no scans;
 * 5. reports — departments and groups reports vs a raw read, in fresh processes;
 * 6. list — user lists and the audit list at 10,000 and 100,000 users: RCU
 *    against each other and against the page's own cost, and time (issue 15).
 *
 * It starts its own DynamoDB Local, s3rver and SES stand-in (in memory,
 * free ports) and stops them at the end. Results: the tables on stdout and
 * bench/results.json.
 *
 * It runs on the Lambda runtime's Node (support/runtime.ts): started on
 * another one, it starts itself again on that binary, so every section —
 * the fresh-process imports of the cold start, the warm handlers of the
 * overhead, the report and list children — runs on what the functions run
 * on. `--host-node` keeps this machine's Node instead (results.json says so).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform } from 'node:os';
import { join } from 'node:path';
import type { ColdStartResult } from './cold-start';
import type { ListScaleRow } from './list-scale';
import type { G1ScaleResult, ReportResult } from './reports';
import { findLambdaNode, major } from './support/runtime';
import { progress, round, table } from './support/util';

const quick = process.argv.includes('--quick');
// --host-node: run on this machine's Node, not the Lambda runtime's (tools/lambda-node or LAMBDA_NODE).
const hostNode = process.argv.includes('--host-node');
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const wanted = (section: string) => !only || only.includes(section);
// --functions=E1,ReportWorker: the cold-start section for these functions only (names as in the table).
const coldFunctions = process.argv
  .find((arg) => arg.startsWith('--functions='))
  ?.slice('--functions='.length)
  .split(',');
const projectRoot = join(import.meta.dirname, '..');

const SIZES = quick
  ? {
      importRuns: 3,
      overheadRuns: 10,
      overheadWarmup: 3,
      bulkUsers: 1_000,
      bulkRuns: 1,
      report: { users: [200, 2_000], runs: { departments: 1, groups: 1 }, g1Runs: 3 },
      list: { users: [1_000, 10_000], departments: 100, runs: 1 },
    }
  : {
      importRuns: 11,
      overheadRuns: 40,
      overheadWarmup: 5,
      bulkUsers: 1_000,
      bulkRuns: 5,
      report: { users: [10_000, 100_000], runs: { departments: 3, groups: 2 }, g1Runs: 11 },
      list: { users: [10_000, 100_000], departments: 1_000, runs: 5 },
    };

// --import-runs=N: more fresh-process imports per function than the size's default.
const importRuns = Number(process.argv.find((arg) => arg.startsWith('--import-runs='))?.slice('--import-runs='.length) ?? NaN);
if (Number.isInteger(importRuns) && importRuns > 0) SIZES.importRuns = importRuns;

// --report-users=A,B: the reports at other sizes (each: N users, N/10 departments, N/10 groups; goals judged at the largest).
const reportUsers = process.argv
  .find((arg) => arg.startsWith('--report-users='))
  ?.slice('--report-users='.length)
  .split(',')
  .map(Number);
if (reportUsers && reportUsers.length >= 1 && reportUsers.every((n) => Number.isInteger(n) && n >= 100)) {
  SIZES.report.users = reportUsers.sort((a, b) => a - b);
}

// --list-users=A,B: the list section at other sizes (smallest first); --list-runs=N: timed runs per request.
const listUsers = process.argv
  .find((arg) => arg.startsWith('--list-users='))
  ?.slice('--list-users='.length)
  .split(',')
  .map(Number);
if (listUsers && listUsers.length >= 2 && listUsers.every((n) => Number.isInteger(n) && n >= 100)) {
  SIZES.list.users = listUsers.sort((a, b) => a - b);
}
const listRuns = Number(process.argv.find((arg) => arg.startsWith('--list-runs='))?.slice('--list-runs='.length) ?? NaN);
if (Number.isInteger(listRuns) && listRuns > 0) SIZES.list.runs = listRuns;

const mark = (ok: boolean) => (ok ? 'yes' : 'NO');

/**
 * Starts this script again on the Lambda runtime's Node unless it runs on it
 * already (or --host-node); answers the child's exit code, or undefined to
 * go on here.
 */
async function onLambdaNode(): Promise<number | undefined> {
  if (hostNode || process.env.BENCH_LAMBDA_NODE) return undefined;
  const { node, reason } = findLambdaNode();
  if (!node) throw new Error(`no Node.js of the Lambda runtime: ${reason}; or run on this machine's ${process.version} with --host-node`);
  if (node.version === process.versions.node) return undefined;
  progress(`starting again on Node ${node.version} (${node.source}), the Lambda runtime's; this machine's is ${process.version}`);
  const child = spawn(node.path, ['--import', 'tsx', join(projectRoot, 'bench', 'run.ts'), ...process.argv.slice(2)], {
    cwd: projectRoot,
    stdio: 'inherit',
    env: { ...process.env, BENCH_LAMBDA_NODE: node.source, BENCH_HOST_NODE: process.version },
  });
  // Ctrl-C reaches both processes; the child stops its services and exits, and this one follows it.
  const ignore = () => {};
  process.on('SIGINT', ignore);
  process.on('SIGTERM', ignore);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** What results.json and the output say about the Node the bench ran on, next to the Lambda runtime. */
async function runtimeInfo() {
  const { FUNCTION_ARCHITECTURE, FUNCTION_RUNTIME } = await import('../infra/bundling');
  const lambdaMajor = Number(/^nodejs(\d+)\.x$/.exec(FUNCTION_RUNTIME.name)?.[1]);
  return {
    node: process.versions.node,
    v8: process.versions.v8,
    platform: platform(),
    arch: arch(),
    source: process.env.BENCH_LAMBDA_NODE ?? (hostNode ? "this machine's (--host-node)" : "this machine's"),
    host_node: (process.env.BENCH_HOST_NODE ?? process.version).replace(/^v/, ''),
    lambda_runtime: FUNCTION_RUNTIME.name,
    lambda_architecture: FUNCTION_ARCHITECTURE.name,
    /** The same major version as the Lambda runtime: the figures describe what deploys (but on this machine's CPU architecture). */
    matches_lambda_runtime: major(process.versions.node) === lambdaMajor,
  };
}

async function main() {
  const code = await onLambdaNode();
  if (code !== undefined) process.exit(code);
  const started = new Date();
  const loadBefore = loadavg()[0];
  const runtime = await runtimeInfo();
  const results: Record<string, unknown> = {
    node: process.version,
    runtime,
    quick,
    started_at: started.toISOString(),
    machine: { cpus: cpus().length, load_average_at_start: round(loadBefore, 2) },
    sizes: SIZES,
  };
  const print = (title: string, text: string) => {
    process.stdout.write(`\n${title}\n${text}\n`);
  };
  process.stdout.write(
    `Runtime: Node ${runtime.node} (${runtime.platform}/${runtime.arch}, ${runtime.source}); the functions run ${runtime.lambda_runtime} on ` +
      `${runtime.lambda_architecture}${runtime.matches_lambda_runtime ? '' : ' — NOT the Lambda runtime: these figures do not prove its goals'}\n`,
  );

  if (wanted('cold')) {
    const { COLD_START_GOALS, measureColdStart } = await import('./cold-start');
    const cold: ColdStartResult[] = await measureColdStart(projectRoot, { runs: SIZES.importRuns, only: coldFunctions });
    results.cold_start = cold;
    print(
      `Cold start on Node ${runtime.node} (median of ${SIZES.importRuns} alternating fresh-process imports each, function and floor; ` +
        `goal: bytes ≤ ${COLD_START_GOALS.bytes}× the floor's — with no AWS client, ≤ the floor + ${COLD_START_GOALS.noClientBytes / 1024} KB — ` +
        `and import ≤ ${COLD_START_GOALS.import}× the floor's wall time; CPU × is the same ratio of the import's CPU time)`,
      table(
        [
          'function',
          'bytes',
          'import ms',
          'floor',
          'floor bytes',
          'floor ms',
          'bytes ×',
          'bytes limit',
          'import ×',
          'CPU ×',
          'goal',
          'largest additions over the floor (KB)',
        ],
        cold.map((c) => [
          c.name,
          c.bytes,
          c.import_ms,
          c.baseline,
          c.baseline_bytes,
          c.baseline_import_ms,
          c.bytes_ratio,
          c.bytes_limit,
          c.import_ratio,
          c.import_cpu_ratio,
          mark(c.meets_goal),
          c.over_floor_kb
            .slice(0, 4)
            .map((p) => `${p.package.replace('@aws-lambda-powertools/', 'pt/')} ${p.kb}`)
            .join(', '),
        ]),
      ),
    );
    for (const c of cold.filter((c) => c.clients_note)) process.stdout.write(`  ${c.name}: ${c.clients_note}\n`);
  }

  const needsServices = ['overhead', 'bulk', 'capacity', 'reports', 'list'].some(wanted);
  if (needsServices) {
    progress('starting DynamoDB Local, s3rver and the SES stand-in');
    const { startLocalServices } = await import('../infra/local/services');
    const services = await startLocalServices({ tableName: 'bench' });
    // Before any lib/ module is imported: lib/config.ts and the logger read the environment once.
    Object.assign(process.env, services.env, {
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    });
    delete process.env.DEPARTMENT_SEATS;
    try {
      const { rawClient } = await import('./support/dataset');
      const client = rawClient();
      const tableName = services.env.TABLE_NAME;

      if (wanted('overhead')) {
        const { measureOverhead, pipelineMs, OVERHEAD_GOAL } = await import('./overhead');
        const overhead = await measureOverhead(client, tableName, { runs: SIZES.overheadRuns, warmup: SIZES.overheadWarmup });
        const pipeline = await pipelineMs();
        results.overhead = overhead;
        results.overhead_pipeline_ms = pipeline;
        print(
          `Overhead (median warm invocation vs the same raw SDK calls, ${SIZES.overheadRuns} runs each, interleaved; goal ≤ ${OVERHEAD_GOAL}×; ` +
            `the pipeline alone — operation() around a no-op — takes ${pipeline} ms)`,
          table(
            ['operation', 'handler ms', 'raw ms', '×', 'extra ms', 'handler CPU ms', 'raw CPU ms', 'goal'],
            overhead.map((o) => [
              o.operation,
              o.handler_ms,
              o.raw_ms,
              o.ratio,
              o.extra_ms,
              o.handler_cpu_ms,
              o.raw_cpu_ms,
              mark(o.meets_goal),
            ]),
          ),
        );
      }

      if (wanted('bulk')) {
        const { measureBulk, BULK_GOAL } = await import('./bulk');
        const bulk = await measureBulk(client, tableName, { users: SIZES.bulkUsers, runs: SIZES.bulkRuns });
        results.bulk = bulk;
        print(
          `Bulk (E3 of users in other departments vs the raw transactions, median of ${SIZES.bulkRuns}; goal ≤ ${BULK_GOAL}×)`,
          table(
            ['users', 'handler s', 'raw s', '×', 'goal'],
            [[bulk.users, bulk.seconds, bulk.raw_seconds, bulk.ratio, mark(bulk.meets_goal)]],
          ),
        );
      }

      if (wanted('capacity')) {
        const { measureCapacity } = await import('./capacity-ops');
        const capacity = await measureCapacity({ client, table: tableName });
        results.capacity = capacity;
        print(
          'Capacity (RCU as DynamoDB Local reports; WCU with transactions charged by DynamoDB rules, since Local miscounts them; vs the minimum of the data model; goal: at the minimum, no scans)',
          table(
            ['operation', 'RCU', 'min RCU', 'WCU', 'min WCU', 'index WCU', 'Local WCU', 'calls', 'goal'],
            capacity.map((c) => [
              c.operation,
              c.rcu,
              c.min_rcu,
              c.wcu,
              c.min_wcu,
              c.index_wcu,
              c.wcu_reported_by_local,
              c.calls,
              mark(c.meets_goal),
            ]),
          ),
        );
      }

      if (wanted('reports')) {
        const { measureReports, REPORT_GOALS, USERS_PER_DEPARTMENT, USERS_PER_GROUP } = await import('./reports');
        const { reports, g1 } = await measureReports(services.env, SIZES.report);
        results.reports = reports;
        results.reports_g1 = g1;
        const largest = Math.max(...SIZES.report.users);
        print(
          `Reports on Node ${runtime.node} (${SIZES.report.users.join(' and ')} users, a department and a group per ` +
            `${USERS_PER_DEPARTMENT === USERS_PER_GROUP ? USERS_PER_GROUP : `${USERS_PER_DEPARTMENT}/${USERS_PER_GROUP}`} of them; ` +
            `each run in a fresh process, median of ${SIZES.report.runs.departments} (departments) and ${SIZES.report.runs.groups} (groups); ` +
            `goal at ${largest} users: ≤ ${REPORT_GOALS.ratio}× the raw read, < ${REPORT_GOALS.rssMb} MB RSS growth; ` +
            `fixed: the claim, the object's write and the completion, in ms and round trips (min))`,
          table(
            [
              'report',
              'users',
              'rows',
              's',
              'rows/s',
              'raw s',
              '×',
              'fixed ms',
              'fixed RT (min)',
              '× w/o fixed',
              'RCU',
              'raw RCU',
              'RSS +MB',
              'in DynamoDB s',
              'in S3 s',
              'goal',
            ],
            reports.map((r) => [
              r.type,
              r.users,
              r.rows,
              r.seconds,
              r.rows_per_second,
              r.raw_read_seconds,
              r.ratio,
              r.fixed_cost.ms,
              `${r.fixed_cost.round_trips} (${r.fixed_cost.min_round_trips})`,
              r.ratio_without_fixed_cost,
              r.rcu,
              r.raw_rcu,
              r.peak_rss_growth_mb,
              r.dynamodb_seconds,
              r.s3_seconds,
              r.judged ? mark(r.meets_goal) : '-',
            ]),
          ),
        );
        for (const r of reports.filter((r) => r.judged)) {
          process.stdout.write(`  ${r.type} report's fixed cost at ${r.users} users: ${r.fixed_cost.calls.join(', ')}\n`);
        }
      }
      if (wanted('list')) {
        const { measureListScale, listScaleTable, LIST_GOALS } = await import('./list-scale');
        const list = await measureListScale(services.env, SIZES.list);
        results.list_scale = list;
        const { headers, lines } = listScaleTable(list, SIZES.list.users);
        print(
          `List scale (${SIZES.list.users.join(' and ')} users, 90% in ${SIZES.list.departments} departments; a page of 100 through the handler; ` +
            `RCU and calls as DynamoDB Local reports them, ms median of up to ${SIZES.list.runs}; ` +
            `goal: RCU ≤ ${LIST_GOALS.ratio}× the smallest size's, ≤ ${LIST_GOALS.overMin}× min RCU (its own page and the counters it read), < ${LIST_GOALS.ms} ms)`,
          table(headers, lines),
        );
      }
      client.destroy();
    } finally {
      await services.stop();
    }
  }

  if (results.list_scale || results.reports) {
    const { scaleOfCost, scaleTable } = await import('./scale');
    const scale = scaleOfCost(
      (results.list_scale as ListScaleRow[] | undefined) ?? [],
      (results.reports as ReportResult[] | undefined) ?? [],
      (results.reports_g1 as G1ScaleResult[] | undefined) ?? [],
    );
    if (scale.length > 0) {
      results.scale = scale;
      const { headers, lines } = scaleTable(scale);
      print(
        'Scale of cost (how RCU and time grow from the smaller dataset to the larger, next to what the data model says: ' +
          'a page or a group reads the same whatever the number of users, a report reads every row; "as model": RCU × within 20% of it)',
        table(headers, lines),
      );
    }
  }

  const verdicts: Array<{ section: string; name: string; ok: boolean }> = [];
  for (const c of (results.cold_start as ColdStartResult[] | undefined) ?? [])
    verdicts.push({ section: 'cold_start', name: c.name, ok: c.meets_goal });
  for (const c of (results.capacity as Array<{ operation: string; meets_goal: boolean }> | undefined) ?? [])
    verdicts.push({ section: 'capacity', name: c.operation, ok: c.meets_goal });
  for (const o of (results.overhead as Array<{ operation: string; meets_goal: boolean }> | undefined) ?? [])
    verdicts.push({ section: 'overhead', name: o.operation, ok: o.meets_goal });
  // The reports' goals hold at the largest size (the smaller ones are for the scale of cost).
  for (const r of ((results.reports as ReportResult[] | undefined) ?? []).filter((r) => r.judged))
    verdicts.push({ section: 'reports', name: `${r.type} (${r.rows} rows)`, ok: r.meets_goal });
  // One verdict per list request: every size within its goals (requests that cannot be made on this code count as missed).
  const listRows = (results.list_scale as Array<{ request: string; meets_goal: boolean }> | undefined) ?? [];
  for (const request of new Set(listRows.map((r) => r.request))) {
    verdicts.push({ section: 'list_scale', name: request, ok: listRows.filter((r) => r.request === request).every((r) => r.meets_goal) });
  }
  const bulk = results.bulk as { meets_goal: boolean } | undefined;
  if (bulk) verdicts.push({ section: 'bulk', name: 'E3', ok: bulk.meets_goal });
  const missed = verdicts.filter((v) => !v.ok).map((v) => `${v.section}: ${v.name}`);
  const capacityScans = ((results.capacity as Array<{ scans: number }> | undefined) ?? []).reduce((n, c) => n + c.scans, 0);
  const reportScans = ((results.reports as Array<{ scans: number }> | undefined) ?? []).reduce((n, r) => n + r.scans, 0);
  results.scans = capacityScans + reportScans;
  const scaleRows = (results.scale as Array<{ request: string; as_model: boolean | null }> | undefined) ?? [];
  const scaleMisses = scaleRows.filter((r) => r.as_model === false).map((r) => r.request);
  // What this run can prove: the goals hold on the Lambda runtime, at the full run's sizes and repetitions.
  const proofGaps = [
    quick && '--quick: small sizes and few runs (a smoke test)',
    !runtime.matches_lambda_runtime && `Node ${runtime.node} is not the Lambda runtime's (${runtime.lambda_runtime})`,
    only && `only ${only.join(', ')}`,
    coldFunctions && `cold start of ${coldFunctions.join(', ')} only`,
    wanted('cold') && SIZES.importRuns < 11 && `${SIZES.importRuns} imports per function (the goal needs the median of at least 11)`,
  ].filter((gap): gap is string => typeof gap === 'string');
  results.summary = {
    goals_met: verdicts.length - missed.length,
    goals_missed: missed.length,
    missed,
    scale_as_model: scaleRows.filter((r) => r.as_model === true).length,
    scale_not_as_model: scaleMisses,
    full_run: proofGaps.length === 0,
    not_a_full_run_because: proofGaps,
  };
  results.finished_at = new Date().toISOString();
  results.seconds = round((Date.now() - started.getTime()) / 1000, 0);
  results.machine = { ...(results.machine as object), load_average_at_end: round(loadavg()[0], 2) };

  writeFileSync(join(projectRoot, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(
    `\nScans: ${capacityScans + reportScans} (every command of the capacity section and of the report runs is logged)\n` +
      `${verdicts.length - missed.length}/${verdicts.length} goals met in ${results.seconds} s on Node ${runtime.node}` +
      `${missed.length ? `; missed: ${missed.join(', ')}` : ''}\n` +
      (scaleRows.length > 0
        ? `Scale of cost: ${scaleRows.length - scaleMisses.length}/${scaleRows.length} as the data model says${scaleMisses.length ? `; not: ${scaleMisses.join(', ')}` : ''}\n`
        : '') +
      (proofGaps.length > 0 ? `Not a full run (proves no goal): ${proofGaps.join('; ')}\n` : '') +
      'wrote bench/results.json\n',
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
