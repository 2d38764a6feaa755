/**
 * One report run in a fresh process, so its memory growth is its own
 * (bench/reports.ts starts it; not meant to be run by hand).
 *
 * BENCH_REPORT_TYPE: departments | groups
 * BENCH_REPORT_MODE: report (createReport, then the worker's runReport: rows
 *   read from the table, CSV, multipart upload to S3) | raw (the same Queries
 *   and BatchGetItems the report's row source makes, with a plain document
 *   client: no CSV, no S3) | g1 (G1 through its handler, BENCH_G1_GROUP,
 *   BENCH_G1_RUNS times after one warm call: RCU and median time)
 *
 * Every DynamoDB call asks for its consumed capacity (both modes alike), so
 * the run reports its read units. The report's fixed cost — what it does
 * besides reading rows and uploading their bytes: claiming the job, the
 * object's PutObject (or a multipart upload's create and complete), marking
 * the job complete — is reported from the calls themselves, in round trips
 * and milliseconds.
 *
 * Before timing, the DynamoDB client is made and used once (both modes), so
 * neither pays for it. Peak RSS growth: the largest resident set seen
 * (sampled every 5 ms, and the kernel's VmHWM after resetting it through
 * /proc/self/clear_refs where allowed) minus the resident set at the start.
 * Prints one JSON line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';

const type = process.env.BENCH_REPORT_TYPE as 'departments' | 'groups';
const mode = process.env.BENCH_REPORT_MODE as 'report' | 'raw' | 'g1';
const table = process.env.TABLE_NAME!;

let scans = 0;

/** Wall time during which at least one call of a client was in flight (overlapping calls count once). */
class BusyClock {
  private inFlight = 0;
  private since = 0;
  ms = 0;
  calls = 0;
  enter() {
    if (this.inFlight++ === 0) this.since = performance.now();
    this.calls++;
  }
  leave() {
    if (--this.inFlight === 0) this.ms += performance.now() - this.since;
  }
}
const dynamodbClock = new BusyClock();
/** Summed duration and count of calls, per command (overlapping calls each count). */
const perCommand: Record<string, { ms: number; calls: number }> = {};
const s3Clock = new BusyClock();
/** Every call in the order it started: which client, which command, how long. */
let callLog: Array<{ client: 'dynamodb' | 's3'; command: string; ms: number }> = [];
/** Read and write units DynamoDB reported (ReturnConsumedCapacity TOTAL on every call). */
let units = { rcu: 0, wcu: 0 };
const WRITES = /Put|Update|Delete|TransactWrite|BatchWrite/;

interface Stackable {
  middlewareStack: {
    add: (
      middleware: (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => (args: unknown) => Promise<unknown>,
      options: object,
    ) => void;
  };
}

type Consumed = { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number };

/** Times every call of the client (and counts scans); on DynamoDB, asks for and adds up the capacity consumed. */
function instrument(client: Stackable, clock: BusyClock, kind: 'dynamodb' | 's3'): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'ScanCommand') scans++;
      const name = (context.commandName ?? 'unknown').replace(/Command$/, '');
      const entry = { client: kind, command: name, ms: 0 };
      callLog.push(entry);
      if (kind === 'dynamodb') ((args as { input: Record<string, unknown> }).input ??= {}).ReturnConsumedCapacity = 'TOTAL';
      clock.enter();
      const start = performance.now();
      try {
        const result = (await next(args)) as { output?: { ConsumedCapacity?: Consumed | Consumed[] } };
        for (const consumed of [result.output?.ConsumedCapacity ?? []].flat()) {
          const total = consumed.CapacityUnits ?? 0;
          if (WRITES.test(name)) units.wcu += consumed.WriteCapacityUnits ?? total;
          else units.rcu += consumed.ReadCapacityUnits ?? total;
        }
        return result;
      } finally {
        clock.leave();
        entry.ms = performance.now() - start;
        perCommand[name] ??= { ms: 0, calls: 0 };
        perCommand[name].ms += entry.ms;
        perCommand[name].calls++;
      }
    },
    { step: 'initialize', name: 'benchClock' },
  );
}

/** The calls that read rows (the raw read makes the same), and those that upload the CSV's bytes: the rest is fixed cost. */
const ROW_READS = new Set(['Query', 'BatchGetItem']);
const VOLUME_UPLOADS = new Set(['UploadPart']);

/**
 * The report's fixed cost from its calls: claim, object write (PutObject, or
 * CreateMultipartUpload and CompleteMultipartUpload around the parts),
 * completion. Its minimum: 3 round trips for an object of one part (claim,
 * put, complete the job), 4 for a multipart one.
 */
function fixedCost() {
  const fixed = callLog.filter((call) => !ROW_READS.has(call.command) && !VOLUME_UPLOADS.has(call.command));
  const multipart = callLog.some((call) => call.command === 'CreateMultipartUpload');
  return {
    ms: fixed.reduce((sum, call) => sum + call.ms, 0),
    round_trips: fixed.length,
    min_round_trips: multipart ? 4 : 3,
    calls: fixed.map((call) => `${call.client === 's3' ? 'S3 ' : ''}${call.command} ${Math.round(call.ms * 10) / 10} ms`),
  };
}

/** G1 through its handler on one group: RCU and time of each run after a warm call. */
async function g1(): Promise<void> {
  const { db } = await import('../lib/db/client');
  const { prepared } = await import('./support/lambda');
  instrument(db() as unknown as Stackable, dynamodbClock, 'dynamodb');
  const call = await prepared('G1', { params: { group_id: process.env.BENCH_G1_GROUP! } });
  await call();
  const runs: Array<{ ms: number; rcu: number; calls: number }> = [];
  for (let i = 0; i < Number(process.env.BENCH_G1_RUNS ?? 5); i++) {
    units = { rcu: 0, wcu: 0 };
    callLog = [];
    const start = performance.now();
    const result = await call();
    const ms = performance.now() - start;
    if (result.statusCode !== 200) throw new Error(`G1 answered ${result.statusCode}`);
    runs.push({ ms, rcu: units.rcu, calls: callLog.length });
  }
  const mid = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  process.stdout.write(
    `${JSON.stringify({ mode: 'g1', rcu: mid(runs.map((r) => r.rcu)), calls: mid(runs.map((r) => r.calls)), ms: mid(runs.map((r) => r.ms)), scans })}\n`,
  );
}

function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

function peakFromKernel(): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The Queries and BatchGetItems of lib/reports/csv.ts, nothing else. */
async function rawRead(client: DynamoDBDocumentClient): Promise<number> {
  const partition = type === 'departments' ? 'DEPTS' : 'GROUPS';
  let rows = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new QueryCommand({
        TableName: table,
        IndexName: 'gsi1',
        KeyConditionExpression: '#ipk = :ipk',
        ExpressionAttributeNames: { '#ipk': 'gsi1pk' },
        ExpressionAttributeValues: { ':ipk': partition },
        ScanIndexForward: true,
        Limit: 500,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      if (type === 'departments') {
        rows++;
        continue;
      }
      // groups.ts memberIds: the member partition, consistent, user ids only.
      const ids: string[] = [];
      let memberKey: Record<string, unknown> | undefined;
      do {
        const members = await client.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': `MEMBERS#${String(item.id)}#${String(item.generation)}` },
            ConsistentRead: true,
            ProjectionExpression: 'user_id',
            ExclusiveStartKey: memberKey,
          }),
        );
        for (const member of members.Items ?? []) ids.push(String(member.user_id));
        memberKey = members.LastEvaluatedKey;
      } while (memberKey);
      // groups.ts readUsers: BatchGetItem, 100 keys a request, up to 16 at once, consistent.
      const batches: string[][] = [];
      for (let i = 0; i < ids.length; i += 100) batches.push(ids.slice(i, i + 100));
      let found = 0;
      let next = 0;
      const worker = async () => {
        while (next < batches.length) {
          const batch = batches[next++];
          const result = await client.send(
            new BatchGetCommand({
              RequestItems: { [table]: { Keys: batch.map((id) => ({ pk: `USER#${id}`, sk: 'USER' })), ConsistentRead: true } },
            }),
          );
          found += result.Responses?.[table]?.length ?? 0;
        }
      };
      await Promise.all(Array.from({ length: Math.min(16, batches.length) }, worker));
      rows += Math.max(1, found);
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return rows;
}

async function main() {
  if (mode === 'g1') return g1();
  let run: () => Promise<number>;
  let warm: () => Promise<unknown>;
  let check: ((rows: number) => Promise<number>) | undefined;
  if (mode === 'raw') {
    const client = DynamoDBDocumentClient.from(
      new DynamoDBClient({ region: process.env.AWS_REGION, endpoint: process.env.DYNAMODB_ENDPOINT }),
      {
        marshallOptions: { removeUndefinedValues: true },
      },
    );
    instrument(client as unknown as Stackable, dynamodbClock, 'dynamodb');
    warm = () => client.send(new GetCommand({ TableName: table, Key: { pk: 'none', sk: 'none' } }));
    run = () => rawRead(client);
  } else {
    const { db } = await import('../lib/db/client');
    const { s3 } = await import('../lib/aws/s3');
    const { createReport, findReport } = await import('../lib/reports/jobs');
    const { runReport } = await import('../lib/reports/worker');
    const { HeadBucketCommand } = await import('@aws-sdk/client-s3');
    instrument(db() as unknown as Stackable, dynamodbClock, 'dynamodb');
    instrument(s3() as unknown as Stackable, s3Clock, 's3');
    // Both clients made and connected before timing (the raw read's client is too).
    warm = () =>
      Promise.all([
        db().send(new GetCommand({ TableName: table, Key: { pk: 'none', sk: 'none' } })),
        s3().send(new HeadBucketCommand({ Bucket: process.env.REPORTS_BUCKET })),
      ]);
    const report = await createReport({ actor: 'bench', operationId: 'bench', requestId: 'bench' }, type, null);
    run = async () => {
      await runReport(report.id);
      return report.id.length;
    };
    check = async () => {
      const done = await findReport(report.id);
      if (done?.status !== 'complete') throw new Error(`report ${report.id} ended ${done?.status}`);
      return done.row_count ?? 0;
    };
  }
  await warm();
  Object.assign(dynamodbClock, { ms: 0, calls: 0 });
  Object.assign(s3Clock, { ms: 0, calls: 0 });
  for (const name of Object.keys(perCommand)) delete perCommand[name];
  callLog = [];
  units = { rcu: 0, wcu: 0 };

  const kernelPeak = resetPeak();
  const start0 = process.memoryUsage();
  const before = start0.rss;
  let peak = before;
  let peakHeap = start0.heapUsed;
  let peakBuffers = start0.arrayBuffers;
  const sample = () => {
    const now = process.memoryUsage();
    peak = Math.max(peak, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
    peakBuffers = Math.max(peakBuffers, now.arrayBuffers);
  };
  const sampler = setInterval(sample, 5);
  const start = performance.now();
  let rows = await run();
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sampler);
  sample();
  peak = Math.max(peak, (kernelPeak && peakFromKernel()) || 0);
  const memory = {
    peak_heap_used_growth_mb: (peakHeap - start0.heapUsed) / 1048576,
    peak_array_buffers_growth_mb: (peakBuffers - start0.arrayBuffers) / 1048576,
  };
  const commands = Object.fromEntries(
    Object.entries(perCommand).map(([name, c]) => [name, { ms: Math.round(c.ms * 10) / 10, calls: c.calls }]),
  );
  const timing = {
    dynamodb_ms: dynamodbClock.ms,
    dynamodb_calls: dynamodbClock.calls,
    s3_ms: s3Clock.ms,
    s3_calls: s3Clock.calls,
    commands,
    rcu: units.rcu,
    wcu: units.wcu,
    ...(mode === 'report' ? { fixed_cost: fixedCost() } : {}),
  };
  if (check) rows = await check(rows);
  process.stdout.write(
    `${JSON.stringify({ type, mode, rows, seconds, peak_rss_growth_mb: (peak - before) / 1048576, rss_before_mb: before / 1048576, scans, kernel_peak: kernelPeak, ...memory, ...timing })}\n`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
