/**
 * The benchmark (bench/README.md: how to run it, its options; docs/performance.md: what it measures). Started on another
 * Node than the Lambda runtime's, it starts itself again on that binary, unless `--host-node`.
 */
import { writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform } from 'node:os';
import { join } from 'node:path';
import { findLambdaNode, major } from '../infra/lambda-node';
import { exitOnError, progress, projectRoot, round, runNode, table } from './support/util';

const argument = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
/** `--<name>=A,B`: integers of at least `min`, smallest first; undefined unless every one is. */
function integers(name: string, min: number): number[] | undefined {
  const values = argument(name)?.split(',').map(Number);
  return values?.every((n) => Number.isInteger(n) && n >= min) ? values.sort((a, b) => a - b) : undefined;
}
const [quick, hostNode] = [process.argv.includes('--quick'), process.argv.includes('--host-node')];
const only = argument('only')?.split(',');
const wanted = (section: string) => !only || only.includes(section);
/** `--functions=E1,ReportWorker`: the cold-start section for these functions only. */
const coldFunctions = argument('functions')?.split(',');

const SIZES = quick
  ? {
      ...{ importRuns: 3, overheadRuns: 10, overheadWarmup: 3, bulkUsers: 1_000, bulkRuns: 1 },
      report: { users: [200, 2_000], runs: { departments: 1, groups: 1 }, g1Runs: 3 },
      list: { users: [1_000, 10_000], departments: 100, runs: 1 },
      console: { users: [1_000], departments: 100, runs: 2 },
      feed: { entries: [1_000, 10_000] },
      webhooks: { changes: 40, retryChanges: 10, writers: 4 },
      rules: { users: [1_000, 10_000], departments: 100, patchRuns: 3, follow: { changes: 40, writers: 4 } },
    }
  : {
      ...{ importRuns: 11, overheadRuns: 40, overheadWarmup: 5, bulkUsers: 1_000, bulkRuns: 5 },
      report: { users: [10_000, 100_000], runs: { departments: 3, groups: 2 }, g1Runs: 11 },
      list: { users: [10_000, 100_000], departments: 1_000, runs: 5 },
      // The list dataset at its larger size only: what the console's goals name.
      console: { users: [100_000], departments: 1_000, runs: 5 },
      feed: { entries: [10_000, 100_000] },
      webhooks: { changes: 200, retryChanges: 40, writers: 4 },
      rules: { users: [10_000, 100_000], departments: 1_000, patchRuns: 5, follow: { changes: 200, writers: 4 } },
    };
SIZES.importRuns = integers('import-runs', 1)?.[0] ?? SIZES.importRuns;
SIZES.report.users = integers('report-users', 100) ?? SIZES.report.users;
const listUsers = integers('list-users', 100);
if (listUsers && listUsers.length >= 2) SIZES.list.users = listUsers;
SIZES.list.runs = integers('list-runs', 1)?.[0] ?? SIZES.list.runs;
SIZES.console.users = integers('console-users', 100) ?? SIZES.console.users;
SIZES.console.runs = integers('console-runs', 1)?.[0] ?? SIZES.console.runs;
// `--rule-users=none`: the rules section's follow delay alone (it does not depend on the dataset's size).
SIZES.rules.users = argument('rule-users') === 'none' ? [] : (integers('rule-users', 100) ?? SIZES.rules.users);

const print = (title: string, headers: string[], rows: Array<Array<string | number>>) =>
  process.stdout.write(`\n${title}\n${table(headers, rows)}\n`);
/** Prints `rows` in the columns of `spec`: `header=field`, or `field` as its own header, comma-separated. */
function printRows(title: string, rows: object[], spec: string) {
  const columns = spec.split(', ').map((column) => [column.split('=')[0], column.split('=').pop()!]);
  const cell = (value: unknown) =>
    typeof value === 'number' ? value : typeof value === 'boolean' ? (value ? 'yes' : 'NO') : String(value ?? '-');
  const headers = columns.map(([header]) => header);
  print(
    title,
    headers,
    rows.map((row) => columns.map(([, field]) => cell((row as Record<string, unknown>)[field]))),
  );
}
/** Each row's note on a line of its own under its table. */
const notes = (rows: Array<{ name: string; note?: string }>) => {
  for (const { name, note } of rows.filter((r) => r.note)) process.stdout.write(`  ${name}: ${note}\n`);
};

/** Starts this script again on the Lambda runtime's Node unless it runs on it already; answers the child's exit code. */
async function onLambdaNode(): Promise<number | undefined> {
  if (hostNode || process.env.BENCH_LAMBDA_NODE) return undefined;
  const { node, reason } = findLambdaNode();
  if (!node) throw new Error(`no Node.js of the Lambda runtime: ${reason}; or run on this machine's ${process.version} with --host-node`);
  if (node.version === process.versions.node) return undefined;
  progress(`starting again on Node ${node.version} (${node.source}), the Lambda runtime's; this machine's is ${process.version}`);
  // Ctrl-C reaches both processes; the child stops its services and exits, and this one follows it.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => {});
  const env = { ...process.env, BENCH_LAMBDA_NODE: node.source, BENCH_HOST_NODE: process.version };
  return (await runNode(['--import', 'tsx', 'bench/run.ts', ...process.argv.slice(2)], { node: node.path, env, show: 'all' })).code;
}

async function runtimeInfo() {
  const { FUNCTION_ARCHITECTURE, FUNCTION_RUNTIME } = await import('../infra/bundling');
  return {
    ...{ node: process.versions.node, v8: process.versions.v8, platform: platform(), arch: arch() },
    source: process.env.BENCH_LAMBDA_NODE ?? (hostNode ? "this machine's (--host-node)" : "this machine's"),
    host_node: (process.env.BENCH_HOST_NODE ?? process.version).replace(/^v/, ''),
    ...{ lambda_runtime: FUNCTION_RUNTIME.name, lambda_architecture: FUNCTION_ARCHITECTURE.name },
    /** The Lambda runtime's major version: the figures describe what deploys (on this machine's CPU). */
    matches_lambda_runtime: major(process.versions.node) === Number(/^nodejs(\d+)\.x$/.exec(FUNCTION_RUNTIME.name)?.[1]),
  };
}

/** results.json: one line per field, and per row of a section. */
const rowPerLine = (results: Record<string, unknown>) =>
  `{\n${Object.entries(results)
    .map(([key, value]) =>
      Array.isArray(value)
        ? `  "${key}": [\n${value.map((row) => `    ${JSON.stringify(row)}`).join(',\n')}\n  ]`
        : `  "${key}": ${JSON.stringify(value)}`,
    )
    .join(',\n')}\n}\n`;

async function measureSections(results: Record<string, unknown>) {
  if (wanted('cold')) {
    const { COLD_START_GOALS: goal, measureColdStart } = await import('./cold-start');
    const cold = (results.cold_start = await measureColdStart(projectRoot, { runs: SIZES.importRuns, only: coldFunctions }));
    const additions = (kb: Array<{ package: string; kb: number }>) =>
      kb.slice(0, 4).map((p) => `${p.package.replace('@aws-lambda-powertools/', 'pt/')} ${p.kb}`);
    printRows(
      `Cold start (${SIZES.importRuns} paired imports, function and floor back to back; goal: bytes ≤ ${goal.bytes}× the floor's, ` +
        `no AWS client ≤ the floor + ${goal.noClientBytes / 1024} KB; import ≤ ${goal.import}×, a miss measured again and decided by that)`,
      cold.map((c) => ({ ...c, additions: additions(c.over_floor_kb).join(', ') })),
      'function=name, bytes, import ms=import_ms, floor=baseline, floor bytes=baseline_bytes, floor ms=baseline_import_ms, ' +
        'bytes ×=bytes_ratio, bytes limit=bytes_limit, import ×=import_ratio, CPU ×=import_cpu_ratio, ' +
        'confirmed ×=confirmation_import_ratio, goal=meets_goal, largest additions (KB)=additions',
    );
    notes(cold.map((c) => ({ name: c.name, note: c.clients_note })));
  }
  if (wanted('console')) {
    const { CONSOLE_GOALS, measureConsoleSize } = await import('./console');
    const title = `Console size (its build's JavaScript and CSS gzipped at level 9; goal ≤ ${CONSOLE_GOALS.gzipKb} KB)`;
    printRows(
      title,
      [(results.console_size = await measureConsoleSize())],
      'JS KB=js_gzip_kb, CSS KB=css_gzip_kb, total KB=gzip_kb, goal=meets_goal',
    );
  }
  if (!['overhead', 'bulk', 'capacity', 'reports', 'list', 'members', 'console', 'feed', 'webhooks', 'rules'].some(wanted)) return;

  progress('starting DynamoDB Local, s3rver, the SES and the SQS stand-ins');
  const { startLocalServices } = await import('../infra/local/services');
  const services = await startLocalServices({ tableName: 'bench' });
  const { env } = services;
  // Before any lib/ module is imported: the logger reads the environment once (lib/config.ts at each call).
  Object.assign(process.env, env, { POWERTOOLS_LOG_LEVEL: 'SILENT', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' });
  delete process.env.DEPARTMENT_SEATS;
  try {
    const client = (await import('../test/support/measure/dataset')).rawClient();
    // First, on the empty table: its figures are those of test/integration/capacity.test.ts.
    if (wanted('capacity')) {
      const figures = (await import('../test/support/measure/capacity-figures')).capacityFigures();
      const rows = await (await import('../test/support/measure/capacity-scenario')).runCapacityScenario(client, env.TABLE_NAME);
      results.capacity = rows.map((row) => {
        const { min_rcu, min_wcu } = figures.get(row.operation)!;
        return { ...row, min_rcu, min_wcu, meets_goal: row.scans === 0 && row.rcu <= min_rcu && row.wcu <= min_wcu };
      });
      printRows(
        'Capacity (WCU: transactions charged by DynamoDB rules; goal: at most the minimum of docs/capacity.md, no scans)',
        results.capacity as object[],
        'operation, RCU=rcu, min RCU=min_rcu, WCU=wcu, min WCU=min_wcu, index WCU=index_wcu, Local WCU=wcu_reported_by_local, calls, goal=meets_goal',
      );
    }
    if (wanted('overhead')) {
      const { measureOverhead, pipelineMs, OVERHEAD_GOAL } = await import('./overhead');
      results.overhead = await measureOverhead(client, env.TABLE_NAME, { runs: SIZES.overheadRuns, warmup: SIZES.overheadWarmup });
      results.overhead_pipeline_ms = await pipelineMs();
      printRows(
        `Overhead (warm handler vs raw calls, median of ${SIZES.overheadRuns}; goal ≤ ${OVERHEAD_GOAL}×; a no-op operation() takes ${String(results.overhead_pipeline_ms)} ms)`,
        results.overhead as object[],
        'operation, handler ms=handler_ms, raw ms=raw_ms, ×=ratio, extra ms=extra_ms, handler CPU ms=handler_cpu_ms, raw CPU ms=raw_cpu_ms, goal=meets_goal',
      );
    }
    if (wanted('bulk')) {
      const { measureBulk, BULK_GOAL } = await import('./bulk');
      results.bulk = await measureBulk(client, env.TABLE_NAME, { users: SIZES.bulkUsers, runs: SIZES.bulkRuns });
      const title = `Bulk (E3 of users in other departments vs the raw transactions, median of ${SIZES.bulkRuns}; goal ≤ ${BULK_GOAL}×)`;
      printRows(title, [results.bulk as object], 'users, handler s=seconds, raw s=raw_seconds, ×=ratio, goal=meets_goal');
    }
    if (wanted('reports')) {
      const { measureReports, REPORT_GOALS } = await import('./reports');
      const { reports, g1 } = await measureReports(env, SIZES.report);
      [results.reports, results.reports_g1] = [reports, g1];
      const { users, runs } = SIZES.report;
      printRows(
        `Reports (${users.join(' and ')} users, median of ${runs.departments} / ${runs.groups}; goal at ${Math.max(...users)} users: ` +
          `≤ ${REPORT_GOALS.ratio}× the raw read, < ${REPORT_GOALS.rssMb} MB RSS growth)`,
        reports.map((r) => ({
          ...r,
          fixed: r.fixed_cost.ms,
          trips: `${r.fixed_cost.round_trips} (${r.fixed_cost.min_round_trips})`,
          goal: r.judged ? r.meets_goal : undefined,
        })),
        'report=type, users, rows, s=seconds, rows/s=rows_per_second, raw s=raw_read_seconds, ×=ratio, fixed ms=fixed, ' +
          'fixed RT (min)=trips, × w/o fixed=ratio_without_fixed_cost, RCU=rcu, raw RCU=raw_rcu, RSS +MB=peak_rss_growth_mb, goal',
      );
    }
    if (wanted('list')) {
      const { measureListScale, listScaleTable, LIST_GOALS } = await import('./list-scale');
      const { headers, lines } = listScaleTable((results.list_scale = await measureListScale(env, SIZES.list)), SIZES.list.users);
      const goal = `goal: RCU ≤ ${LIST_GOALS.ratio}× the smaller size's, ≤ ${LIST_GOALS.overMin}× min RCU, < ${LIST_GOALS.ms} ms`;
      print(`List scale (${SIZES.list.users.join(' and ')} users, a page of 100; ${goal})`, headers, lines);
    }
    if (wanted('members')) {
      results.members = await (await import('./members')).measureMembers(client, env.TABLE_NAME);
      const title = "Group members (G1: the first 1,000 users; a page of 100 of a group's users, first and deep by cursor)";
      printRows(title, results.members as object[], 'members, request, RCU=rcu, calls, bytes, ms');
    }
    if (wanted('console')) {
      const { CONSOLE_GOALS, measureConsole } = await import('./console');
      const screens = (results.console = await measureConsole(env, SIZES.console));
      printRows(
        `Console (${SIZES.console.users.join(' and ')} users; time to interactive in Chromium, median of ${SIZES.console.runs}, cold and warm; ` +
          `the warm load's API calls replayed through their handlers, metered; goal: warm ≤ ${CONSOLE_GOALS.interactiveMs} ms, ` +
          `RCU ≤ ${CONSOLE_GOALS.pages}× a page of listUsers)`,
        screens,
        'screen, users, shows=heading, cold ms=cold_ms, warm ms=warm_ms, cold sandboxes=cold_sandboxes, calls=api_calls, routes, ' +
          'RCU=rcu, page RCU=page_rcu, pages, goal=meets_goal',
      );
      notes(screens.map((row) => ({ name: row.screen, note: row.note })));
    }
    if (wanted('feed')) {
      const { FEED_GOALS, measureFeed } = await import('./feed');
      printRows(
        `Change feed pages (${SIZES.feed.entries.join(' and ')} trail entries, count 100, median of 3; goal: RCU over the page's ` +
          `minimum flat (≤ ${FEED_GOALS.flat}×) between the sizes; min RCU: the entries read strongly consistent, listAudit's eventually)`,
        (results.feed_pages = await measureFeed(env, SIZES.feed)),
        'request, entries, returned, RCU=rcu, min RCU=min_rcu, × min=over_min, × smaller=rcu_ratio, calls, ms, status, goal=meets_goal',
      );
    }
    if (wanted('webhooks')) {
      const { WEBHOOK_GOALS: goals, measureWebhooks } = await import('./webhooks');
      const { rows, segments } = await measureWebhooks(env, SIZES.webhooks);
      [results.webhooks, results.webhook_segments] = [rows, segments];
      printRows(
        `Webhook delivery, write to arrival, under npm start's stack (${SIZES.webhooks.writers} writers; a receiver verifying each ` +
          `delivery with standardwebhooks; goal: every change delivered and verified, p99 ≤ ${goals.deliveredMs / 1000} s, ` +
          `+ ${goals.retryMs / 1000} s when the first attempt fails)`,
        rows,
        'run, changes, writes/s=writes_per_second, delivered, exactly, dupl.=duplicates, missing, unverified, queued twice=queued_twice, ' +
          'p50 ms=p50_ms, p99 ms=p99_ms, max ms=max_ms, 1st attempt p50=first_attempt_p50_ms, retry gap p50=retry_gap_p50_ms, ' +
          'retry gap p99=retry_gap_p99_ms, goal',
      );
      notes(rows.map((row) => ({ name: row.run, note: row.note })));
      printRows(
        'Webhook delivery: where the time goes (docs/performance.md)',
        segments,
        'run, segment, p50 ms=p50_ms, p99 ms=p99_ms, max ms=max_ms',
      );
    }
    if (wanted('rules')) {
      const { RULE_GOALS: goals, measureRules } = await import('./rules');
      const rules = await measureRules(env, SIZES.rules);
      Object.assign(results, {
        rule_previews: rules.previews,
        rule_applies: rules.applies,
        rule_patches: rules.patches,
        rule_follow: [rules.follow],
      });
      printRows(
        `Rule preview (the group PATCH's dry_run=true, ${SIZES.rules.users.join(' and ')} users, median of 3; a page: listUsers' ` +
          `first page of 100 on the same table; goal: ≤ ${goals.previewPages}× a page, ≤ ${goals.flat}× the smaller size's RCU)`,
        rules.previews,
        'request, users, matching, joining, leaving, RCU=rcu, of which G1=group_rcu, page RCU=page_rcu, pages, × smaller=rcu_ratio, ' +
          'calls, ms, status, goal=meets_goal',
      );
      printRows(
        'Applying a rule matching 5,000 users (G3 with the rule, the RuleWorker polled until the group is current; min WCU: the joins)',
        rules.applies,
        'users, members, s=seconds, metered s=metered_seconds, WCU=wcu, min WCU=min_wcu, × min=over_min, ' +
          'user checks WCU=user_checks_wcu, other WCU=other_wcu, RCU=rcu, calls',
      );
      printRows(
        `A user PATCH changing its cell, median of ${SIZES.rules.patchRuns}, with no rule group and with the most allowed, none ` +
          `naming its department; beside it the RuleWorker following it; goal: WCU ≤ ${goals.patchRatio}× without`,
        rules.patches,
        'users, rule groups=rule_groups, PATCH WCU=patch_wcu, PATCH RCU=patch_rcu, worker RCU=worker_rcu, worker WCU=worker_wcu, ' +
          'worker calls=worker_calls, WCU ×=wcu_ratio, goal=meets_goal',
      );
      printRows(
        `Rule follow delay under npm start's stack (from a user change's answer until its rule groups' membership items show ` +
          `its joins and leaves; goal: every change, p99 < ${goals.followMs / 1000} s)`,
        [rules.follow],
        'changes, writers, rule groups=rule_groups, reflected, p50 ms=p50_ms, p99 ms=p99_ms, max ms=max_ms, ' +
          'committed p50=committed_p50_ms, committed p99=committed_p99_ms, by kind=by_kind, goal=meets_goal',
      );
      notes([{ name: 'follow', note: rules.follow.note }]);
    }
    client.destroy();
  } finally {
    await services.stop();
  }
}

type Row = Record<string, unknown> & { meets_goal?: boolean | null };
/** Each goal the results judge: `<section>: <label>`, met when every row of that label meets it (rows judging nothing left out). */
const GOALS: Array<[key: string, section: string, label: (row: Row) => string]> = [
  ['cold_start', 'cold_start', (r) => String(r.name)],
  ['capacity', 'capacity', (r) => String(r.operation)],
  ['overhead', 'overhead', (r) => String(r.operation)],
  ['reports', 'reports', (r) => (r.judged ? `${String(r.type)} (${String(r.rows)} rows)` : '')],
  ['list_scale', 'list_scale', (r) => String(r.request)],
  ['bulk', 'bulk', () => 'E3'],
  ['feed_pages', 'feed', (r) => String(r.request)],
  ['webhooks', 'webhooks', (r) => String(r.run)],
  ['rule_previews', 'rules', (r) => `preview ${String(r.request)}`],
  ['rule_patches', 'rules', (r) => `user PATCH with rule groups (${String(r.users)} users)`],
  ['rule_follow', 'rules', () => 'follow delay'],
  ['console', 'console', (r) => `${String(r.screen)} (${String(r.users)} users)`],
  ['console_size', 'console', () => 'size'],
];

async function main() {
  const code = await onLambdaNode();
  if (code !== undefined) process.exit(code);
  const started = Date.now();
  const runtime = await runtimeInfo();
  const results: Record<string, unknown> = {
    ...{ runtime, quick, started_at: new Date(started).toISOString() },
    machine: { cpus: cpus().length, load_average_at_start: round(loadavg()[0], 2) },
    sizes: SIZES,
  };
  process.stdout.write(
    `Runtime: Node ${runtime.node} (${runtime.platform}/${runtime.arch}, ${runtime.source}); the functions run ` +
      `${runtime.lambda_runtime} on ${runtime.lambda_architecture}` +
      `${runtime.matches_lambda_runtime ? '' : ' — NOT the Lambda runtime: these figures do not prove its goals'}\n`,
  );
  await measureSections(results);

  const rows = (key: string) => [results[key] ?? []].flat() as Row[];
  if (results.list_scale || results.reports) {
    const { scaleOfCost, scaleTable } = await import('./scale');
    const scale = scaleOfCost(rows('list_scale') as never, rows('reports') as never, rows('reports_g1') as never);
    if (scale.length > 0) {
      results.scale = scale;
      printRows(
        'Scale of cost (RCU from the smaller dataset to the larger, next to the data model; "as model": within 20%)',
        scaleTable(scale),
        'request, users, RCU=rcu_small, RCU large=rcu_large, RCU ×=rcu_ratio, ms=ms_small, ms large=ms_large, ms ×=ms_ratio, model, ' +
          'model ×=model_ratio, as model=as_model',
      );
    }
  }
  const verdicts = new Map<string, boolean>();
  for (const [key, section, label] of GOALS) {
    for (const row of rows(key).filter((r) => typeof r.meets_goal === 'boolean' && label(r))) {
      const name = `${section}: ${label(row)}`;
      verdicts.set(name, (verdicts.get(name) ?? true) && row.meets_goal === true);
    }
  }
  const missed = [...verdicts].filter(([, ok]) => !ok).map(([name]) => name);
  results.scans = [...rows('capacity'), ...rows('reports')].reduce((n, r) => n + Number(r.scans), 0);
  const scaleMisses = rows('scale')
    .filter((r) => r.as_model === false)
    .map((r) => String(r.request));
  // What this run can prove: the goals hold on the Lambda runtime, at the full run's sizes and repetitions.
  const proofGaps = [
    quick && '--quick: small sizes and few runs (a smoke test)',
    !runtime.matches_lambda_runtime && `Node ${runtime.node} is not the Lambda runtime's (${runtime.lambda_runtime})`,
    only && `only ${only.join(', ')}`,
    coldFunctions && `cold start of ${coldFunctions.join(', ')} only`,
    wanted('cold') && SIZES.importRuns < 11 && `${SIZES.importRuns} imports per function (the goal needs the median of at least 11)`,
  ].filter((gap): gap is string => typeof gap === 'string');
  const met = verdicts.size - missed.length;
  const scaleMet = rows('scale').length - scaleMisses.length;
  results.summary = {
    ...{ goals_met: met, goals_missed: missed.length, missed, scale_as_model: scaleMet, scale_not_as_model: scaleMisses },
    ...{ full_run: proofGaps.length === 0, not_a_full_run_because: proofGaps },
  };
  results.seconds = round((Date.now() - started) / 1000, 0);
  results.machine = { ...(results.machine as object), load_average_at_end: round(loadavg()[0], 2) };
  writeFileSync(join(projectRoot, 'bench', 'results.json'), rowPerLine(results));
  process.stdout.write(
    `\nScans: ${String(results.scans)}\n${met}/${verdicts.size} goals met in ${results.seconds} s on Node ` +
      `${runtime.node}${missed.length ? `; missed: ${missed.join(', ')}` : ''}\n` +
      (rows('scale').length ? `Scale of cost: ${scaleMet}/${rows('scale').length} as the data model says\n` : '') +
      (proofGaps.length ? `Not a full run (proves no goal): ${proofGaps.join('; ')}\n` : '') +
      'wrote bench/results.json\n',
  );
}

exitOnError(main());
