/** X-Ray subsegments of the AWS SDK calls (lib/tracing.ts), against a fake DynamoDB endpoint and a UDP socket standing in for the daemon. */
import { createSocket } from 'node:dgram';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { daemonAddress, traced } from '../../lib/tracing';

const ROOT = '1-5759e988-bd862e3fe1be46a994272793';
const FUNCTION_SEGMENT = '53995c3f42cd8ad8';

/** The fake DynamoDB answers each request with the next status (200 when none is queued) and remembers its headers. */
const statuses: number[] = [];
const requests: IncomingHttpHeaders[] = [];
const dynamodb = createServer((request, response) => {
  requests.push(request.headers);
  request.resume().on('end', () => {
    const status = statuses.shift() ?? 200;
    const body =
      status === 200 ? {} : { __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', message: 'slow down' };
    response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'REQ1' }).end(JSON.stringify(body));
  });
});
const daemon = createSocket('udp4');
const datagrams: string[] = [];
daemon.on('message', (message) => datagrams.push(message.toString('utf8')));

const saved = { ...process.env };
let client: DynamoDBClient;

beforeAll(async () => {
  await new Promise<void>((resolve) => dynamodb.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
  process.env.AWS_XRAY_DAEMON_ADDRESS = `127.0.0.1:${daemon.address().port}`;
  process.env.AWS_LAMBDA_FUNCTION_NAME = 'tracing-test';
  client = traced(
    new DynamoDBClient({
      region: 'eu-west-1',
      endpoint: `http://127.0.0.1:${(dynamodb.address() as AddressInfo).port}`,
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
      maxAttempts: 1,
    }),
  );
});
afterEach(() => {
  datagrams.length = 0;
  requests.length = 0;
});
afterAll(async () => {
  process.env = saved;
  client.destroy();
  daemon.close();
  await new Promise((resolve) => dynamodb.close(resolve));
});

const getItem = () => client.send(new GetItemCommand({ TableName: 'dept-admin', Key: { pk: { S: 'x' }, sk: { S: 'x' } } }));

/** The subsegments the daemon got, once `count` have arrived: each datagram is the daemon's header line, then one document. */
async function subsegments(count: number): Promise<Array<Record<string, any>>> {
  await expect.poll(() => datagrams.length).toBe(count);
  return datagrams.map((datagram) => {
    const [header, document] = datagram.split('\n');
    expect(JSON.parse(header)).toEqual({ format: 'json', version: 1 });
    return JSON.parse(document);
  });
}

describe('X-Ray subsegments of SDK calls', () => {
  it('sends one per call in a sampled invocation, as the parent of the downstream call', async () => {
    process.env._X_AMZN_TRACE_ID = `Root=${ROOT};Parent=${FUNCTION_SEGMENT};Sampled=1;Lineage=a87bd80c:0`;
    await getItem();
    const [subsegment] = await subsegments(1);
    expect(subsegment).toMatchObject({
      name: 'DynamoDB',
      trace_id: ROOT,
      parent_id: FUNCTION_SEGMENT,
      type: 'subsegment',
      namespace: 'aws',
      aws: { operation: 'GetItem', region: 'eu-west-1', request_id: 'REQ1', retries: 0, table_name: 'dept-admin' },
      http: { response: { status: 200 } },
    });
    expect(subsegment.id).toMatch(/^[0-9a-f]{16}$/);
    expect(subsegment.end_time).toBeGreaterThanOrEqual(subsegment.start_time);
    expect(subsegment).not.toHaveProperty('error');
    // DynamoDB sees the subsegment as its caller, the rest of the header as it was.
    expect(requests[0]['x-amzn-trace-id']).toBe(`Root=${ROOT};Parent=${subsegment.id};Sampled=1;Lineage=a87bd80c:0`);
  });

  it('flags a throttled call and names its exception', async () => {
    process.env._X_AMZN_TRACE_ID = `Root=${ROOT};Parent=${FUNCTION_SEGMENT};Sampled=1`;
    statuses.push(400);
    await expect(getItem()).rejects.toThrow('slow down');
    const [subsegment] = await subsegments(1);
    expect(subsegment).toMatchObject({ throttle: true, error: true, http: { response: { status: 400 } } });
    expect(subsegment.cause.exceptions[0]).toMatchObject({ type: 'ProvisionedThroughputExceededException', message: 'slow down' });
  });

  it('sends nothing when the invocation is not sampled, or not traced at all', async () => {
    process.env._X_AMZN_TRACE_ID = `Root=${ROOT};Parent=${FUNCTION_SEGMENT};Sampled=0`;
    await getItem();
    delete process.env._X_AMZN_TRACE_ID;
    await getItem();
    await new Promise((resolve) => setTimeout(resolve, 50)); // what a datagram would need to arrive
    expect(datagrams).toEqual([]);
    expect(requests.map((headers) => headers['x-amzn-trace-id'])).toEqual([`Root=${ROOT};Parent=${FUNCTION_SEGMENT};Sampled=0`, undefined]);
  });

  it('reads the daemon address in both of its forms', () => {
    expect(daemonAddress('169.254.79.129:2000')).toEqual({ host: '169.254.79.129', port: 2000 });
    expect(daemonAddress('tcp:127.0.0.1:2000 udp:127.0.0.2:2001')).toEqual({ host: '127.0.0.2', port: 2001 });
    expect(daemonAddress(undefined)).toBeUndefined();
  });
});
