/**
 * One report run in a fresh process, so its memory growth is its own
 * (bench/reports.ts starts it; not meant to be run by hand).
 *
 * BENCH_REPORT_TYPE: departments | groups
 * BENCH_REPORT_MODE: report (createReport, then the worker's runReport: rows
 *   read from the table, CSV, multipart upload to S3) | raw (the same Queries
 *   and BatchGetItems the report's row source makes, with a plain document
 *   client: no CSV, no S3)
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
const mode = process.env.BENCH_REPORT_MODE as 'report' | 'raw';
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

interface Stackable {
  middlewareStack: {
    add: (
      middleware: (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => (args: unknown) => Promise<unknown>,
      options: object,
    ) => void;
  };
}

/** Times every call of the client (and counts scans). */
function instrument(client: Stackable, clock: BusyClock): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'ScanCommand') scans++;
      clock.enter();
      const start = performance.now();
      try {
        return await next(args);
      } finally {
        clock.leave();
        const name = (context.commandName ?? 'unknown').replace(/Command$/, '');
        perCommand[name] ??= { ms: 0, calls: 0 };
        perCommand[name].ms += performance.now() - start;
        perCommand[name].calls++;
      }
    },
    { step: 'initialize', name: 'benchClock' },
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
    instrument(client as unknown as Stackable, dynamodbClock);
    warm = () => client.send(new GetCommand({ TableName: table, Key: { pk: 'none', sk: 'none' } }));
    run = () => rawRead(client);
  } else {
    const { db } = await import('../lib/db/client');
    const { s3 } = await import('../lib/aws/s3');
    const { createReport, findReport } = await import('../lib/reports/jobs');
    const { runReport } = await import('../lib/reports/worker');
    const { HeadBucketCommand } = await import('@aws-sdk/client-s3');
    instrument(db() as unknown as Stackable, dynamodbClock);
    instrument(s3() as unknown as Stackable, s3Clock);
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
