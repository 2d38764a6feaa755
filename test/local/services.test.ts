/**
 * The local AWS stand-ins start, hold the table and bucket the service needs,
 * and leave no process behind.
 */
import { CreateTableCommand, DescribeTableCommand, DescribeTimeToLiveCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTable,
  ensureBucket,
  freePort,
  LOCAL_CREDENTIALS,
  startLocalServices,
  tableDefinition,
  type LocalServices,
} from '../../infra/local/services';
import { INDEXES, keyAttributes, PARTITION_KEY, SORT_KEY, TTL_ATTRIBUTE } from '../../lib/db/table';

interface ChildProcessInfo {
  pid: number;
  command: string;
}

/** The processes whose parent is this test process (without the `ps` that lists them). */
function childProcesses(): ChildProcessInfo[] {
  const output = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return output
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
    .flatMap((match) => (match ? [{ pid: Number(match[1]), command: match[2].trim() }] : []))
    .filter((child) => child.command !== 'ps');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie still answers signal 0; it is dead for our purpose.
  const state = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
  return state !== '' && !state.startsWith('Z');
}

describe('local services', () => {
  let services: LocalServices;
  let pidsBefore: Set<number>;
  let dynamodb: DynamoDBClient;
  let s3: S3Client;

  beforeAll(async () => {
    pidsBefore = new Set(childProcesses().map((child) => child.pid));
    services = await startLocalServices();
    const region = services.env.AWS_REGION;
    dynamodb = new DynamoDBClient({ endpoint: services.endpoints.dynamodb, region, credentials: LOCAL_CREDENTIALS });
    s3 = new S3Client({ endpoint: services.endpoints.s3, region, credentials: LOCAL_CREDENTIALS, forcePathStyle: true });
  }, 30_000);

  afterAll(async () => {
    dynamodb?.destroy();
    s3?.destroy();
    await services?.stop();
  });

  it('hands out the environment a handler needs', () => {
    expect(services.env).toMatchObject({
      DYNAMODB_ENDPOINT: services.endpoints.dynamodb,
      S3_ENDPOINT: services.endpoints.s3,
      SES_ENDPOINT: services.endpoints.ses,
    });
    for (const name of ['TABLE_NAME', 'REPORTS_BUCKET', 'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) {
      expect(services.env[name], name).toBeTruthy();
    }
  });

  it('creates the table with its keys, indexes and TTL', async () => {
    const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: services.env.TABLE_NAME }));
    expect(Table?.KeySchema).toEqual([
      { AttributeName: PARTITION_KEY, KeyType: 'HASH' },
      { AttributeName: SORT_KEY, KeyType: 'RANGE' },
    ]);
    expect(Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
    const indexes = Table?.GlobalSecondaryIndexes ?? [];
    for (const index of Object.values(INDEXES)) {
      const found = indexes.find((candidate) => candidate.IndexName === index.name);
      expect(found, index.name).toBeDefined();
      const { partition, sort } = keyAttributes(index);
      expect(found?.KeySchema).toEqual([
        { AttributeName: partition.name, KeyType: 'HASH' },
        ...sort.map((attribute) => ({ AttributeName: attribute.name, KeyType: 'RANGE' })),
      ]);
      expect(found?.Projection?.ProjectionType).toBe('ALL');
    }
    const ttl = await dynamodb.send(new DescribeTimeToLiveCommand({ TableName: services.env.TABLE_NAME }));
    expect(ttl.TimeToLiveDescription).toMatchObject({ AttributeName: TTL_ATTRIBUTE, TimeToLiveStatus: 'ENABLED' });
  });

  it('creates further tables on demand, and tolerates an existing one', async () => {
    await createTable(services.endpoints.dynamodb, 'per-test-file', services.env.AWS_REGION);
    await createTable(services.endpoints.dynamodb, 'per-test-file', services.env.AWS_REGION);
    const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: 'per-test-file' }));
    expect(Table?.GlobalSecondaryIndexes).toHaveLength(Object.keys(INDEXES).length);
  });

  it('refuses a kept table of another data model, saying what to do', async () => {
    const today = tableDefinition('older-data-model');
    const indexes = today.GlobalSecondaryIndexes!.slice(0, -1);
    const keyNames = new Set([...today.KeySchema!, ...indexes.flatMap((index) => index.KeySchema!)].map((key) => key.AttributeName));
    const AttributeDefinitions = today.AttributeDefinitions!.filter((attribute) => keyNames.has(attribute.AttributeName));
    await dynamodb.send(new CreateTableCommand({ ...today, AttributeDefinitions, GlobalSecondaryIndexes: indexes }));
    const lacking = today.GlobalSecondaryIndexes!.at(-1)!.IndexName;
    await expect(createTable(services.endpoints.dynamodb, 'older-data-model', services.env.AWS_REGION)).rejects.toThrow(
      `lacks ${lacking}): delete the local data directory`,
    );
  });

  it('creates the reports bucket, and tolerates an existing one', async () => {
    await expect(s3.send(new HeadBucketCommand({ Bucket: services.env.REPORTS_BUCKET }))).resolves.toBeDefined();
    await ensureBucket(services.endpoints.s3, services.env.REPORTS_BUCKET, services.env.AWS_REGION);
  });

  it('starts SES, which answers its health check', async () => {
    const response = await fetch(`${services.endpoints.ses}/health-check`);
    expect(response.status).toBe(200);
    expect(services.sesInboxUrl.startsWith(services.endpoints.ses)).toBe(true);
  });

  it('stops every child it started, and stop() may be called again', async () => {
    const started = childProcesses().filter((child) => !pidsBefore.has(child.pid));
    // DynamoDB Local (java itself, not a shell around it), s3rver, aws-ses-v2-local, the watchdog.
    expect(started.map((child) => child.command).sort()).toEqual(['java', 'node', 'node', 'node']);
    await services.stop();
    await services.stop();
    expect(started.map((child) => child.pid).filter(isAlive)).toEqual([]);
  });

  it('freePort gives a usable port', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    expect(port).toBeLessThan(65536);
  });
});
