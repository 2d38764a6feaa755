/**
 * One report run in a fresh process, so its memory growth is its own (reports.ts starts it); prints one JSON line.
 * BENCH_REPORT_TYPE: departments | groups. BENCH_REPORT_MODE: `report` (createReport, then the worker's runReport),
 * `raw` (the same Queries and BatchGetItems with a plain document client: no CSV, no S3) or `g1` (G1 through its handler
 * on BENCH_G1_GROUP, BENCH_G1_RUNS times after a warm call). Clients are made and used once before timing. What the
 * fixed cost and the RSS growth are: docs/performance.md "Reports".
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { consumedUnits } from '../test/support/measure/item-units';
import { exitOnError, median, timed } from './support/util';

const type = process.env.BENCH_REPORT_TYPE as 'departments' | 'groups';
const mode = process.env.BENCH_REPORT_MODE as 'report' | 'raw' | 'g1';
const table = process.env.TABLE_NAME!;

let scans = 0;
/** Every call in the order it started: which client, which command, how long. */
let calls: Array<{ s3: boolean; command: string; ms: number }> = [];
let units = { rcu: 0, wcu: 0 };

type Middleware = (next: (args: any) => Promise<any>, context: { commandName?: string }) => unknown;
type Stackable = { middlewareStack: { add: (middleware: Middleware, options: object) => void } };

/** Times every call of the client and counts scans; on DynamoDB, asks for and adds up the capacity consumed. */
function instrument(client: unknown, s3 = false): void {
  (client as Stackable).middlewareStack.add(
    (next, context) => async (args: { input: Record<string, unknown> }) => {
      const command = (context.commandName ?? 'unknown').replace(/Command$/, '');
      if (command === 'Scan') scans++;
      const call = { s3, command, ms: 0 };
      calls.push(call);
      if (!s3) args.input.ReturnConsumedCapacity = 'TOTAL';
      const start = performance.now();
      try {
        const result = (await next(args)) as { output?: unknown };
        units[/Put|Update|Delete|Write/.test(command) ? 'wcu' : 'rcu'] += s3 ? 0 : consumedUnits(result.output);
        return result;
      } finally {
        call.ms = performance.now() - start;
      }
    },
    { step: 'initialize', name: 'benchClock' },
  );
}

/** The report's fixed cost: every call but the row reads and the parts of the upload. Minimum: 3 round trips, 4 multipart. */
function fixedCost() {
  const fixed = calls.filter((call) => !['Query', 'BatchGetItem', 'UploadPart'].includes(call.command));
  return {
    ms: fixed.reduce((sum, call) => sum + call.ms, 0),
    round_trips: fixed.length,
    min_round_trips: calls.some((call) => call.command === 'CreateMultipartUpload') ? 4 : 3,
    calls: fixed.map((call) => `${call.s3 ? 'S3 ' : ''}${call.command} ${Math.round(call.ms * 10) / 10} ms`),
  };
}

async function g1(): Promise<void> {
  const { db } = await import('../lib/db/client');
  const { prepared } = await import('../test/support/measure/handler-call');
  instrument(db());
  const call = await prepared('G1', { params: { group_id: process.env.BENCH_G1_GROUP! } });
  await call();
  const runs: Array<{ ms: number; rcu: number; calls: number }> = [];
  for (let i = 0; i < Number(process.env.BENCH_G1_RUNS ?? 5); i++) {
    units = { rcu: 0, wcu: 0 };
    calls = [];
    const { ms } = await timed(call);
    runs.push({ ms, rcu: units.rcu, calls: calls.length });
  }
  const middle = (key: 'ms' | 'rcu' | 'calls') => median(runs.map((r) => r[key]));
  process.stdout.write(`${JSON.stringify({ rcu: middle('rcu'), calls: middle('calls'), ms: middle('ms'), scans })}\n`);
}

/** The Queries and BatchGetItems of lib/reports/csv.ts (the raw floor's helpers), nothing else. */
async function rawRead(): Promise<() => Promise<number>> {
  const { rawClient } = await import('../test/support/measure/dataset');
  const { memberIds, readUsers } = await import('./support/raw');
  const { queryAll } = await import('./support/tables');
  const { departmentList } = await import('../lib/store/departments');
  const { groupList } = await import('../lib/store/groups');
  const client = rawClient();
  instrument(client);
  await client.send(new GetCommand({ TableName: table, Key: { pk: 'none', sk: 'none' } }));
  const list = type === 'departments' ? departmentList.byName() : groupList.byName();
  const query = { TableName: table, IndexName: list.index.name, KeyConditionExpression: '#ipk = :ipk', Limit: 500 };
  const keys = { ExpressionAttributeNames: { '#ipk': list.index.partitionKey }, ExpressionAttributeValues: { ':ipk': list.partition } };
  return async () => {
    const items = await queryAll(client, { ...query, ...keys });
    if (type === 'departments') return items.length;
    let rows = 0;
    for (const item of items) {
      const ids = await memberIds(client, table, { id: String(item.id), generation: String(item.generation) });
      rows += Math.max(1, (await readUsers(client, table, ids)).length);
    }
    return rows;
  };
}

/** The report through the worker: its run, and the check of its rows (not timed). */
async function report(): Promise<{ run: () => Promise<unknown>; check: () => Promise<number> }> {
  const { db } = await import('../lib/db/client');
  const { s3 } = await import('../lib/aws/s3');
  const { createReport, findReport } = await import('../lib/reports/jobs');
  const { runReport } = await import('../lib/reports/worker');
  const { HeadBucketCommand } = await import('@aws-sdk/client-s3');
  instrument(db());
  instrument(s3(), true);
  await Promise.all([
    db().send(new GetCommand({ TableName: table, Key: { pk: 'none', sk: 'none' } })),
    s3().send(new HeadBucketCommand({ Bucket: process.env.REPORTS_BUCKET })),
  ]);
  const job = await createReport({ actor: 'bench', operationId: 'bench', requestId: 'bench' }, type, null);
  return {
    run: () => runReport(job.id),
    check: async () => {
      const done = await findReport(job.id);
      if (done?.status !== 'complete') throw new Error(`report ${job.id} ended ${done?.status}`);
      return done.row_count ?? 0;
    },
  };
}

/** Resets the kernel's high-water mark of the resident set where allowed; answers whether it could. */
function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

const kernelPeak = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;

async function main() {
  if (mode === 'g1') return g1();
  const { run, check } = mode === 'raw' ? { run: await rawRead(), check: undefined } : await report();
  calls = [];
  units = { rcu: 0, wcu: 0 };
  const kernel = resetPeak();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const start = performance.now();
  const read = await run();
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss, kernel ? kernelPeak() : 0);
  const fixed = mode === 'report' ? { fixed_cost: fixedCost() } : {};
  const rows = check ? await check() : read;
  process.stdout.write(`${JSON.stringify({ rows, seconds, peak_rss_growth_mb: (peak - before) / 1048576, scans, ...units, ...fixed })}\n`);
}

// Done: exit without waiting for the clients' open sockets.
exitOnError(main().then(() => process.exit(0)));
