/**
 * The AWS call checker (infra/local/aws-calls.ts) between real SDK v3 clients
 * and the local stand-ins, for a function whose role is chosen here: allowed
 * calls go through and are recorded with their IAM action, resource and
 * context; refused ones come back to the SDK as AWS answers them, and are
 * reported.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AbortMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { SESClient, SendRawEmailCommand } from '@aws-sdk/client-ses';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { awsCallChecker, type AwsCallChecker, type DeniedCall } from '../../infra/local/aws-calls';
import { callReport, readCallRecord } from '../../infra/local/call-record';
import type { LocalFunction, PolicyStatement } from '../../infra/local/deployment';
import { LOCAL_CREDENTIALS } from '../../infra/local/services';
import { INDEXES } from '../../lib/db/table';

const services = inject('services');
const region = 'us-east-1';
const table = process.env.TABLE_NAME!;
const bucket = services.env.REPORTS_BUCKET;
const tableArn = `arn:aws:dynamodb:${region}:000000000000:table/${table}`;
const SENDER = 'reports@example.com';

const statements: PolicyStatement[] = [
  {
    Effect: 'Allow',
    Action: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem'],
    Resource: [tableArn, `${tableArn}/index/*`],
  },
  {
    Effect: 'Allow',
    Action: 'dynamodb:PutItem',
    Resource: tableArn,
    Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['SCIMPAGE#*'] } },
  },
  {
    Effect: 'Deny',
    Action: 'dynamodb:UpdateItem',
    Resource: tableArn,
    Condition: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': ['AUDIT#*'] } },
  },
  { Effect: 'Allow', Action: ['s3:GetObject', 's3:PutObject'], Resource: `arn:aws:s3:::${bucket}/reports/*` },
  {
    Effect: 'Allow',
    Action: 'ses:SendRawEmail',
    Resource: `arn:aws:ses:${region}:000000000000:identity/${SENDER}`,
    Condition: { StringEquals: { 'ses:FromAddress': SENDER }, 'ForAllValues:StringLike': { 'ses:Recipients': ['*@example.com'] } },
  },
];

const fn: LocalFunction = {
  handler: 'someFunction',
  logicalId: 'SomeFunction1234',
  roleLogicalId: 'SomeRole5678',
  environment: {},
  statements,
  managedPolicyArns: ['arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'],
  timeoutSeconds: 10,
  memoryMb: 512,
};

let logDirectory: string;
let checker: AwsCallChecker;
let reported: DeniedCall[];
let documents: DynamoDBDocumentClient;
let s3: S3Client;
let ses: SESClient;

beforeEach(async () => {
  logDirectory = mkdtempSync(join(tmpdir(), 'aws-calls-test-'));
  reported = [];
  checker = awsCallChecker({
    functions: [fn],
    targets: services.endpoints,
    log: logDirectory,
    onDenied: (denial) => reported.push(denial),
  });
  const endpoints = await checker.endpointsFor(fn);
  const common = { region, credentials: LOCAL_CREDENTIALS };
  documents = DynamoDBDocumentClient.from(new DynamoDBClient({ ...common, endpoint: endpoints.dynamodb }));
  s3 = new S3Client({ ...common, endpoint: endpoints.s3, forcePathStyle: true });
  ses = new SESClient({ ...common, endpoint: endpoints.ses });
});

afterEach(async () => {
  documents.destroy();
  s3.destroy();
  ses.destroy();
  await checker.close();
  rmSync(logDirectory, { recursive: true, force: true });
});

/** The record the checker wrote, once closed. */
async function recorded() {
  await checker.close();
  return readCallRecord(logDirectory).calls.map(({ action, resource, context, decision }) => ({ action, resource, context, decision }));
}

const leadingKeys = (...keys: string[]) => ({ 'dynamodb:LeadingKeys': keys });

describe('DynamoDB', () => {
  it('passes allowed reads on, recording the table or index and the partition read', async () => {
    await documents.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: 'USER#ada', sk: 'USER' },
        UpdateExpression: 'SET gsi1pk = :p, gsi1sk = :s',
        ExpressionAttributeValues: { ':p': 'USERS#IN', ':s': 'ada' },
      }),
    );
    const item = await documents.send(new GetCommand({ TableName: table, Key: { pk: 'USER#ada', sk: 'USER' } }));
    expect(item.Item).toMatchObject({ gsi1pk: 'USERS#IN' });
    const page = await documents.send(
      new QueryCommand({
        TableName: table,
        IndexName: INDEXES.byName.name,
        KeyConditionExpression: '#p = :p AND begins_with(gsi1sk, :s)',
        ExpressionAttributeNames: { '#p': 'gsi1pk' },
        ExpressionAttributeValues: { ':p': 'USERS#IN', ':s': 'a' },
      }),
    );
    expect(page.Items).toHaveLength(1);
    expect(checker.denied()).toEqual([]);
    expect(await recorded()).toEqual([
      { action: 'dynamodb:UpdateItem', resource: tableArn, context: leadingKeys('USER#ada'), decision: 'Allowed' },
      { action: 'dynamodb:GetItem', resource: tableArn, context: leadingKeys('USER#ada'), decision: 'Allowed' },
      { action: 'dynamodb:Query', resource: `${tableArn}/index/gsi1`, context: leadingKeys('USERS#IN'), decision: 'Allowed' },
    ]);
  });

  it('checks each item of a transaction with its own action and key', async () => {
    await documents.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: table, Item: { pk: 'SCIMPAGE#users', sk: '1', cursor: 'c' } } },
          {
            Update: {
              TableName: table,
              Key: { pk: 'USER#bob', sk: 'USER' },
              UpdateExpression: 'SET n = :n',
              ExpressionAttributeValues: { ':n': 1 },
            },
          },
          { ConditionCheck: { TableName: table, Key: { pk: 'DEPT#eng', sk: 'DEPT' }, ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      }),
    );
    expect(await recorded()).toEqual([
      { action: 'dynamodb:PutItem', resource: tableArn, context: leadingKeys('SCIMPAGE#users'), decision: 'Allowed' },
      { action: 'dynamodb:UpdateItem', resource: tableArn, context: leadingKeys('USER#bob'), decision: 'Allowed' },
      { action: 'dynamodb:ConditionCheckItem', resource: tableArn, context: leadingKeys('DEPT#eng'), decision: 'Allowed' },
    ]);
  });

  it('checks a batch as one call per table with the partition keys of all its items', async () => {
    await documents.send(
      new BatchGetCommand({
        RequestItems: {
          [table]: {
            Keys: [
              { pk: 'USER#ada', sk: 'USER' },
              { pk: 'DEPT#eng', sk: 'DEPT' },
              { pk: 'USER#ada', sk: 'DEPT' },
            ],
          },
        },
      }),
    );
    const write = documents.send(
      new BatchWriteCommand({ RequestItems: { [table]: [{ DeleteRequest: { Key: { pk: 'USER#ada', sk: 'USER' } } }] } }),
    );
    await expect(write).rejects.toMatchObject({ name: 'AccessDeniedException' });
    expect(await recorded()).toEqual([
      { action: 'dynamodb:BatchGetItem', resource: tableArn, context: leadingKeys('USER#ada', 'DEPT#eng'), decision: 'Allowed' },
      { action: 'dynamodb:BatchWriteItem', resource: tableArn, context: leadingKeys('USER#ada'), decision: 'ImplicitlyDenied' },
    ]);
  });

  it('answers a put the role does not allow with AccessDeniedException, writes nothing, and reports it', async () => {
    const put = documents.send(new PutCommand({ TableName: table, Item: { pk: 'USER#eve', sk: 'USER' } }));
    await expect(put).rejects.toMatchObject({ name: 'AccessDeniedException', $metadata: { httpStatusCode: 400 } });
    await expect(put).rejects.toThrow(/not authorized to perform: dynamodb:PutItem on resource: .*because no identity-based policy allows/);
    const stored = await documents.send(new GetCommand({ TableName: table, Key: { pk: 'USER#eve', sk: 'USER' } }));
    expect(stored.Item).toBeUndefined();
    const denial = { action: 'dynamodb:PutItem', resource: tableArn, context: leadingKeys('USER#eve'), decision: 'ImplicitlyDenied' };
    expect(reported).toEqual([expect.objectContaining({ ...denial, handler: 'someFunction', request: 'POST /' })]);
    expect(checker.denied()).toEqual(reported);
    expect(await recorded()).toContainEqual(denial);
  });

  it('refuses a whole transaction one item of which an explicit Deny covers', async () => {
    const transaction = documents.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: table, Item: { pk: 'SCIMPAGE#groups', sk: '1' } } },
          {
            Update: {
              TableName: table,
              Key: { pk: 'AUDIT#1', sk: 'AUDIT' },
              UpdateExpression: 'SET n = :n',
              ExpressionAttributeValues: { ':n': 1 },
            },
          },
        ],
      }),
    );
    await expect(transaction).rejects.toThrow(/dynamodb:UpdateItem .*with an explicit deny/);
    const memo = await documents.send(new GetCommand({ TableName: table, Key: { pk: 'SCIMPAGE#groups', sk: '1' } }));
    expect(memo.Item).toBeUndefined();
    expect(reported.map((denial) => [denial.action, denial.context, denial.decision])).toEqual([
      ['dynamodb:UpdateItem', leadingKeys('AUDIT#1'), 'ExplicitlyDenied'],
    ]);
  });

  it('lists what the role grants and no call used', async () => {
    await documents.send(new GetCommand({ TableName: table, Key: { pk: 'USER#ada', sk: 'USER' } }));
    await recorded();
    const [role] = callReport(readCallRecord(logDirectory)).roles;
    expect(role.used).toEqual(['dynamodb:GetItem']);
    expect(role.unjustified).toEqual(
      expect.arrayContaining(['dynamodb:BatchGetItem', 'dynamodb:PutItem', 's3:PutObject', 'ses:SendRawEmail']),
    );
    expect(role.unjustified).not.toContain('dynamodb:GetItem');
    expect(role.justified.map((entry) => entry.action)).toEqual(['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents']);
  });
});

describe('S3', () => {
  it('records puts, multipart uploads, gets, heads and presigned gets as s3:PutObject and s3:GetObject on the object', async () => {
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'reports/small.csv', Body: 'a,b\n' }));
    // lib-storage: create, two parts and complete, each authorized as s3:PutObject.
    await new Upload({
      client: s3,
      params: { Bucket: bucket, Key: 'reports/large.csv', Body: Buffer.alloc(6 * 1024 * 1024, 'x') },
      partSize: 5 * 1024 * 1024,
    }).done();
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'reports/small.csv' }));
    expect(await object.Body!.transformToString()).toBe('a,b\n');
    expect((await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'reports/large.csv' }))).ContentLength).toBe(6 * 1024 * 1024);
    const url = await getSignedUrl(
      s3,
      new GetObjectCommand({ Bucket: bucket, Key: 'reports/small.csv', ResponseContentDisposition: 'attachment' }),
      { expiresIn: 60 },
    );
    const download = await fetch(url);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('a,b\n');
    expect(checker.denied()).toEqual([]);
    const object_ = (key: string) => `arn:aws:s3:::${bucket}/reports/${key}`;
    // The record holds each distinct call once.
    expect(await recorded()).toEqual([
      { action: 's3:PutObject', resource: object_('small.csv'), context: {}, decision: 'Allowed' },
      { action: 's3:PutObject', resource: object_('large.csv'), context: {}, decision: 'Allowed' },
      { action: 's3:GetObject', resource: object_('small.csv'), context: {}, decision: 'Allowed' },
      { action: 's3:GetObject', resource: object_('large.csv'), context: {}, decision: 'Allowed' },
    ]);
  });

  it('checks the abort of a multipart upload as s3:AbortMultipartUpload', async () => {
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'reports/aborted.csv' }));
    const abort = s3.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: 'reports/aborted.csv', UploadId }));
    await expect(abort).rejects.toMatchObject({ name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
    expect(reported.map((denial) => [denial.action, denial.resource])).toEqual([
      ['s3:AbortMultipartUpload', `arn:aws:s3:::${bucket}/reports/aborted.csv`],
    ]);
  });

  it('answers a get outside the granted prefix, signed or presigned, with 403 AccessDenied', async () => {
    const get = s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'other/secret.csv' }));
    await expect(get).rejects.toMatchObject({ name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
    const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: 'other/secret.csv' }), { expiresIn: 60 });
    const download = await fetch(url);
    expect(download.status).toBe(403);
    expect(await download.text()).toMatch(/<Code>AccessDenied<\/Code>/);
    expect(reported.map((denial) => [denial.action, denial.resource])).toEqual([
      ['s3:GetObject', `arn:aws:s3:::${bucket}/other/secret.csv`],
      ['s3:GetObject', `arn:aws:s3:::${bucket}/other/secret.csv`],
    ]);
  });
});

describe('SES', () => {
  const raw = (to: string) =>
    Buffer.from(`From: Reports <${SENDER}>\r\nTo: ${to}\r\nSubject: Report\r\nContent-Type: text/plain\r\n\r\nHello\r\n`);

  it('records SendRawEmail on the sending identity with its sender and recipients', async () => {
    await ses.send(
      new SendRawEmailCommand({
        Source: SENDER,
        Destinations: ['ada@example.com', 'bob@example.com'],
        RawMessage: { Data: raw('ada@example.com, bob@example.com') },
      }),
    );
    // Without Destinations, the recipients are the message's own.
    await ses.send(new SendRawEmailCommand({ RawMessage: { Data: raw('Cy <cy@example.com>') } }));
    expect(checker.denied()).toEqual([]);
    const identity = `arn:aws:ses:${region}:000000000000:identity/${SENDER}`;
    expect(await recorded()).toEqual([
      {
        action: 'ses:SendRawEmail',
        resource: identity,
        context: { 'ses:FromAddress': SENDER, 'ses:Recipients': ['ada@example.com', 'bob@example.com'] },
        decision: 'Allowed',
      },
      {
        action: 'ses:SendRawEmail',
        resource: identity,
        context: { 'ses:FromAddress': SENDER, 'ses:Recipients': ['cy@example.com'] },
        decision: 'Allowed',
      },
    ]);
  });

  it('answers a send to a recipient the role does not allow with 403 AccessDenied', async () => {
    const send = ses.send(
      new SendRawEmailCommand({
        Source: SENDER,
        Destinations: ['ada@example.com', 'mallory@elsewhere.org'],
        RawMessage: { Data: raw('ada@example.com') },
      }),
    );
    await expect(send).rejects.toMatchObject({ name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
    expect(reported).toEqual([
      expect.objectContaining({
        action: 'ses:SendRawEmail',
        context: { 'ses:FromAddress': SENDER, 'ses:Recipients': ['ada@example.com', 'mallory@elsewhere.org'] },
      }),
    ]);
  });
});
