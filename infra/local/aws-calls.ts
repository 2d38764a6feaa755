/**
 * Every AWS call a local function makes, checked against its role as AWS
 * would check it.
 *
 * Each function gets one HTTP endpoint on 127.0.0.1 for all four services
 * (its DYNAMODB_ENDPOINT, S3_ENDPOINT, SES_ENDPOINT and SQS_ENDPOINT). For each request the
 * checker derives the IAM authorizations AWS makes for it (`describeRequest`),
 * evaluates each against the function's role in the synthesized template
 * (infra/local/iam.ts), records them, and then either forwards the request
 * unchanged to the local stand-in (its Host header too: the signature covers
 * it) and streams the answer back, or answers as AWS does when the role does
 * not allow it: DynamoDB a 400 AccessDeniedException, S3 and SES a 403
 * AccessDenied, SQS a 403 AccessDenied in its JSON protocol. A refused call is also reported, so the test that caused it
 * fails even if the function swallows the error.
 *
 * The service of a request is the one its SigV4 credential scope names
 * (`Credential=<key>/<date>/<region>/<service>/aws4_request`, in the
 * Authorization header or, for a presigned URL, X-Amz-Credential).
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, writeFileSync, type WriteStream } from 'node:fs';
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { indexList, PARTITION_KEY } from '../../lib/db/table';
import { LOCAL_ACCOUNT, type LocalFunction } from './deployment';
import { evaluateCall, roleStatements, type AwsCall, type Decision, type Evaluation } from './iam';

export type { AwsCall } from './iam';
export type AwsService = AwsCall['service'];
export type ServiceEndpoints = Record<AwsService, string>;

/** One call as the record holds it: which function made it, what IAM was asked and what it answered. */
export interface RecordedCall extends AwsCall {
  handler: string;
  logicalId: string;
  roleLogicalId: string;
  decision: Decision;
  /** Why the call could not be evaluated (it is then refused). */
  invalid?: string;
}

/** A refused call, with the request it was part of. */
export interface DeniedCall extends RecordedCall {
  request: string;
}

export interface AwsCallCheckerOptions {
  /** Every function of the deployment: the record names their grants, so the report covers functions no test ran. */
  functions: readonly LocalFunction[];
  /** The local stand-ins the requests go on to. */
  targets: ServiceEndpoints;
  /** A directory for the record (one file of calls and one of grants per checker); the suite's teardown reads it. */
  log?: string;
  /** Told of each refused call as it happens. */
  onDenied?: (denial: DeniedCall) => void;
}

export interface AwsCallChecker {
  /** The endpoints one function's SDK clients use: one port, all four services. */
  endpointsFor(fn: LocalFunction): Promise<ServiceEndpoints>;
  /** Every call refused so far. */
  denied(): DeniedCall[];
  close(): Promise<void>;
}

/** The names of the record's files in the `log` directory. */
export const CALLS_FILE = /^calls-.*\.jsonl$/;
export const GRANTS_FILE = /^grants-.*\.json$/;

/** A function as deployed: its logical id and the statements its role holds there. */
const deployedKey = (fn: LocalFunction) => `${fn.logicalId}\n${JSON.stringify(fn.statements)}`;

export function awsCallChecker({ functions, targets, log, onDenied }: AwsCallCheckerOptions): AwsCallChecker {
  const id = `${process.pid}-${randomUUID().slice(0, 8)}`;
  let record: WriteStream | undefined;
  if (log !== undefined) {
    mkdirSync(log, { recursive: true });
    const grants = functions.map(({ handler, logicalId, roleLogicalId, statements, managedPolicyArns }) => ({
      handler,
      logicalId,
      roleLogicalId,
      statements,
      managedPolicyArns,
    }));
    writeFileSync(join(log, `grants-${id}.json`), JSON.stringify(grants));
    record = createWriteStream(join(log, `calls-${id}.jsonl`), { flags: 'a' });
  }
  const denials: DeniedCall[] = [];
  const servers = new Map<string, Promise<{ server: Server; endpoint: string }>>();
  const upstreamAgent = new Agent({ keepAlive: true });
  const decisions = new Map<string, Promise<Evaluation>>();

  const decide = (fn: LocalFunction, call: AwsCall): Promise<{ evaluation: Evaluation; first: boolean }> => {
    const key = `${deployedKey(fn)}\n${call.action}\n${call.resource}\n${JSON.stringify(cacheContext(fn, call.context))}`;
    const cached = decisions.get(key);
    if (cached) return cached.then((evaluation) => ({ evaluation, first: false }));
    const evaluation = evaluateCall(roleStatements(fn), call, fn.roleLogicalId);
    decisions.set(key, evaluation);
    return evaluation.then((result) => ({ evaluation: result, first: true }));
  };

  const refuse = (fn: LocalFunction, request: string, call: RecordedCall) => {
    const denial = { ...call, request };
    denials.push(denial);
    onDenied?.(denial);
    record?.write(`${JSON.stringify(call)}\n`);
    return denial;
  };

  const handle = async (fn: LocalFunction, req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const requestLine = `${req.method} ${url.pathname}${url.search}`;
    const scope = credentialScope(req.headers, url.searchParams);
    const identity = { handler: fn.handler, logicalId: fn.logicalId, roleLogicalId: fn.roleLogicalId };
    if (!scope) {
      refuse(fn, requestLine, {
        ...identity,
        service: 's3',
        action: 'unsigned',
        resource: '*',
        context: {},
        decision: 'ImplicitlyDenied',
        invalid: 'an unsigned request',
      });
      return sendDenied(res, 's3', 'an unsigned request');
    }
    const service = scope.service;
    // S3 bodies can be large parts: S3 is decided on the request line and headers, then streamed.
    const body = service === 's3' ? undefined : await readBody(req);
    let calls: AwsCall[];
    try {
      calls = describeRequest({ service, region: scope.region, method: req.method ?? 'GET', url, headers: req.headers, body });
    } catch (error) {
      const reason = `the checker cannot tell which IAM actions this request needs: ${(error as Error).message}`;
      refuse(fn, requestLine, {
        ...identity,
        service,
        action: 'unknown',
        resource: '*',
        context: {},
        decision: 'ImplicitlyDenied',
        invalid: reason,
      });
      return sendDenied(res, service, reason);
    }
    const evaluated = await Promise.all(calls.map(async (call) => ({ call, ...(await decide(fn, call)) })));
    for (const { call, evaluation, first } of evaluated) {
      const recorded: RecordedCall = {
        ...identity,
        ...call,
        decision: evaluation.decision,
        ...(evaluation.invalid ? { invalid: evaluation.invalid } : {}),
      };
      if (evaluation.decision !== 'Allowed') {
        refuse(fn, requestLine, recorded);
        return sendDenied(res, service, denialMessage(fn, recorded));
      }
      if (first) record?.write(`${JSON.stringify(recorded)}\n`);
    }
    forward(req, res, body, targets[service], upstreamAgent);
  };

  const serve = (fn: LocalFunction) =>
    new Promise<{ server: Server; endpoint: string }>((resolve, reject) => {
      const server = createServer((req, res) => {
        handle(fn, req, res).catch((error: unknown) => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`aws-calls checker: ${(error as Error).stack ?? String(error)}`);
        });
      });
      server.keepAliveTimeout = 60_000;
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve({ server, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
    });

  return {
    async endpointsFor(fn) {
      // A redeploy (another table) resolves the same function to other statements: a proxy of its own.
      const key = deployedKey(fn);
      let started = servers.get(key);
      if (!started) {
        started = serve(fn);
        servers.set(key, started);
      }
      const { endpoint } = await started;
      return { dynamodb: endpoint, s3: endpoint, ses: endpoint, sqs: endpoint };
    },
    denied: () => [...denials],
    async close() {
      const started = await Promise.all(servers.values());
      servers.clear();
      await Promise.all(
        started.map(
          ({ server }) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
      upstreamAgent.destroy();
      await new Promise<void>((resolve) => (record ? record.end(resolve) : resolve()));
    },
  };
}

// ---------------------------------------------------------------------------
// What IAM checks for a request

export interface ServiceRequest {
  service: AwsService;
  region: string;
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  /** The body of a DynamoDB, SES or SQS request (S3 is described without its body). */
  body?: Buffer;
  account?: string;
}

/** The IAM authorizations AWS makes for one request: one per action and resource it touches. */
export function describeRequest(request: ServiceRequest): AwsCall[] {
  const account = request.account ?? LOCAL_ACCOUNT;
  if (request.service === 'dynamodb') {
    const target = String(request.headers['x-amz-target'] ?? '');
    const operation = target.slice(target.indexOf('.') + 1);
    if (!operation) throw new Error('a DynamoDB request without X-Amz-Target');
    return dynamoDbCalls(operation, JSON.parse(request.body?.toString('utf8') || '{}') as DynamoDbInput, request.region, account);
  }
  if (request.service === 's3') return s3Calls(request.method, request.url, request.headers);
  if (request.service === 'sqs') return sqsCalls(request.headers, request.body, request.region, account);
  return sesCalls(new URLSearchParams(request.body?.toString('utf8') ?? ''), request.region, account);
}

// --- DynamoDB ----------------------------------------------------------------

type AttributeValue = { S?: string; N?: string; B?: string };
type Key = Record<string, AttributeValue>;
interface DynamoDbInput {
  TableName?: string;
  IndexName?: string;
  Key?: Key;
  Item?: Key;
  KeyConditionExpression?: string;
  KeyConditions?: Record<string, { ComparisonOperator?: string; AttributeValueList?: AttributeValue[] }>;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, AttributeValue>;
  RequestItems?: Record<string, { Keys?: Key[] } | Array<{ PutRequest?: { Item: Key }; DeleteRequest?: { Key: Key } }>>;
  TransactItems?: Array<Record<string, { TableName: string; Key?: Key; Item?: Key }>>;
}

/** The IAM action of each element of a transaction: DynamoDB checks the single-item action, with that item's key. */
const TRANSACT_ACTIONS: Readonly<Record<string, string>> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
  Get: 'GetItem',
};

/** The operations whose IAM authorization names items: `dynamodb:LeadingKeys` is their partition keys. */
const ITEM_OPERATIONS = new Set(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem']);

function dynamoDbCalls(operation: string, input: DynamoDbInput, region: string, account: string): AwsCall[] {
  // A table is named by its name or, since 2024, its ARN.
  const tableArn = (table: string) => (table.startsWith('arn:') ? table : `arn:aws:dynamodb:${region}:${account}:table/${table}`);
  const call = (action: string, resource: string, leadingKeys?: string[]): AwsCall => ({
    service: 'dynamodb',
    action: `dynamodb:${action}`,
    resource,
    context: leadingKeys ? { 'dynamodb:LeadingKeys': [...new Set(leadingKeys)] } : {},
  });
  if (operation === 'TransactWriteItems' || operation === 'TransactGetItems') {
    return (input.TransactItems ?? []).map((element) => {
      const [[kind, item]] = Object.entries(element);
      const action = TRANSACT_ACTIONS[kind];
      if (!action) throw new Error(`a ${operation} element of kind ${kind}`);
      return call(action, tableArn(item.TableName), [partitionKeyOf(item.Item ?? item.Key)]);
    });
  }
  if (operation === 'BatchGetItem' || operation === 'BatchWriteItem') {
    // One authorization per table, with the partition keys of all its items.
    return Object.entries(input.RequestItems ?? {}).map(([table, requests]) => {
      const keys = Array.isArray(requests)
        ? requests.map((request) => partitionKeyOf(request.PutRequest?.Item ?? request.DeleteRequest?.Key))
        : (requests.Keys ?? []).map((key) => partitionKeyOf(key));
      return call(operation, tableArn(table), keys);
    });
  }
  if (!input.TableName) return [call(operation, '*')];
  const table = tableArn(input.TableName);
  if (ITEM_OPERATIONS.has(operation)) return [call(operation, table, [partitionKeyOf(input.Key ?? input.Item)])];
  if (operation === 'Query') {
    const resource = input.IndexName ? `${table}/index/${input.IndexName}` : table;
    return [call(operation, resource, [queriedPartition(input)])];
  }
  if (operation === 'Scan' && input.IndexName) return [call(operation, `${table}/index/${input.IndexName}`)];
  return [call(operation, table)];
}

function attributeString(value: AttributeValue | undefined): string | undefined {
  return value?.S ?? value?.N ?? value?.B;
}

function partitionKeyOf(key: Key | undefined, attribute = PARTITION_KEY): string {
  const value = attributeString(key?.[attribute]);
  if (value === undefined) throw new Error(`an item without its partition key ${attribute}: ${JSON.stringify(key)}`);
  return value;
}

/**
 * The partition a Query reads: the value of the equality on the partition key
 * of the table or index (its KeyConditionExpression, or legacy KeyConditions).
 * On an index, `dynamodb:LeadingKeys` is the index's partition key value.
 */
function queriedPartition(input: DynamoDbInput): string {
  const attribute = input.IndexName ? indexList.find((index) => index.name === input.IndexName)?.partitionKey : PARTITION_KEY;
  if (!attribute) throw new Error(`a Query of index ${input.IndexName}, which lib/db/table.ts does not define`);
  const legacy = input.KeyConditions?.[attribute];
  if (legacy?.ComparisonOperator === 'EQ') return attributeString(legacy.AttributeValueList?.[0]) ?? '';
  const names = input.ExpressionAttributeNames ?? {};
  const resolve = (token: string) => (token.startsWith('#') ? names[token] : token);
  for (const [, left, right] of (input.KeyConditionExpression ?? '').matchAll(/([#:]?[\w.]+)\s*=\s*([#:]?[\w.]+)/g)) {
    const [name, value] = left.startsWith(':') ? [right, left] : [left, right];
    if (resolve(name) === attribute && value.startsWith(':')) {
      const partition = attributeString(input.ExpressionAttributeValues?.[value]);
      if (partition !== undefined) return partition;
    }
  }
  throw new Error(`a Query without an equality on ${attribute}: ${input.KeyConditionExpression}`);
}

// --- S3 ------------------------------------------------------------------------

/**
 * The IAM action of an S3 request (path-style, as the local clients send
 * them). Every part of a multipart upload is authorized as s3:PutObject, a
 * HEAD of an object as s3:GetObject.
 */
function s3Calls(method: string, url: URL, headers: IncomingHttpHeaders): AwsCall[] {
  const [, bucket = '', ...keyParts] = url.pathname.split('/');
  const key = keyParts.map(decodeURIComponent).join('/');
  const query = url.searchParams;
  const has = (name: string) => query.has(name);
  const call = (action: string, resource: string, context: AwsCall['context'] = {}): AwsCall => ({
    service: 's3',
    action: `s3:${action}`,
    resource,
    context,
  });
  if (!bucket) {
    if (method === 'GET') return [call('ListAllMyBuckets', '*')];
    throw new Error(`S3 ${method} /`);
  }
  const bucketArn = `arn:aws:s3:::${decodeURIComponent(bucket)}`;
  if (!key) {
    const prefix = query.get('prefix');
    const listContext: AwsCall['context'] = prefix === null ? {} : { 's3:prefix': prefix };
    if ((method === 'GET' || method === 'HEAD') && has('uploads')) return [call('ListBucketMultipartUploads', bucketArn)];
    if (method === 'GET' && has('location')) return [call('GetBucketLocation', bucketArn)];
    if (method === 'GET' && has('versions')) return [call('ListBucketVersions', bucketArn, listContext)];
    if (method === 'GET' || method === 'HEAD') return [call('ListBucket', bucketArn, listContext)];
    if (method === 'PUT' && [...query.keys()].length === 0) return [call('CreateBucket', bucketArn)];
    if (method === 'DELETE' && [...query.keys()].length === 0) return [call('DeleteBucket', bucketArn)];
    throw new Error(`S3 ${method} of bucket ${bucket} with ${query.toString() || 'no query'}`);
  }
  const objectArn = `${bucketArn}/${key}`;
  const subresource = ['acl', 'tagging', 'retention', 'legal-hold', 'attributes', 'restore', 'torrent', 'select'].find(has);
  if (subresource) throw new Error(`S3 ${method} of object subresource ?${subresource}`);
  if (method === 'GET' && has('uploadId')) return [call('ListMultipartUploadParts', objectArn)];
  if (method === 'GET' || method === 'HEAD') return [call('GetObject', objectArn)];
  if (method === 'DELETE') return [call(has('uploadId') ? 'AbortMultipartUpload' : 'DeleteObject', objectArn)];
  if (method === 'PUT' || method === 'POST') {
    // A copy also reads its source.
    const source = headers['x-amz-copy-source'];
    const copied =
      typeof source === 'string' ? [call('GetObject', `arn:aws:s3:::${decodeURIComponent(source.replace(/^\//, '').split('?')[0])}`)] : [];
    return [call('PutObject', objectArn), ...copied];
  }
  throw new Error(`S3 ${method} of an object`);
}

// --- SES -----------------------------------------------------------------------

const ADDRESS = /[^\s<>,;:"()[\]]+@[^\s<>,;:"()[\]]+/g;
const addressesIn = (text: string | null | undefined) => [...(text ?? '').matchAll(ADDRESS)].map(([address]) => address);

/** The headers of an RFC 5322 message, folded lines unfolded, by lower-cased name. */
function messageHeaders(raw: string): Map<string, string> {
  const end = raw.search(/\r?\n\r?\n/);
  const head = (end === -1 ? raw : raw.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [headers.get(name), line.slice(colon + 1).trim()].filter(Boolean).join(', '));
  }
  return headers;
}

/** A list parameter of the query protocol: `Name.member.1`, `Name.member.2`… */
const members = (params: URLSearchParams, name: string) =>
  [...params.entries()].filter(([key]) => key.startsWith(`${name}.member.`)).map(([, value]) => value);

/**
 * SES (v1, query protocol): the send actions are authorized on the sending
 * identity, with `ses:FromAddress` and `ses:Recipients` (every To, Cc and Bcc
 * address; for a raw message, its Destinations or else its headers). The
 * identity is taken as the From address's own (the stack grants both it and
 * its domain, whichever SES picks).
 */
function sesCalls(params: URLSearchParams, region: string, account: string): AwsCall[] {
  const action = params.get('Action');
  if (!action) throw new Error('an SES request without Action');
  const identityArn = (identity: string) => `arn:aws:ses:${region}:${account}:identity/${identity}`;
  if (action === 'SendRawEmail' || action === 'SendEmail') {
    let from = addressesIn(params.get('Source'))[0];
    let recipients: string[];
    if (action === 'SendRawEmail') {
      const raw = Buffer.from(params.get('RawMessage.Data') ?? '', 'base64').toString('utf8');
      const headers = messageHeaders(raw);
      from ??= addressesIn(headers.get('from'))[0];
      recipients = members(params, 'Destinations');
      if (recipients.length === 0) recipients = ['to', 'cc', 'bcc'].flatMap((name) => addressesIn(headers.get(name)));
    } else {
      recipients = ['ToAddresses', 'CcAddresses', 'BccAddresses'].flatMap((list) => members(params, `Destination.${list}`));
    }
    if (!from) throw new Error(`an SES ${action} without a sender`);
    const identity = params.get('SourceArn') ?? params.get('FromArn') ?? identityArn(from);
    return [
      { service: 'ses', action: `ses:${action}`, resource: identity, context: { 'ses:FromAddress': from, 'ses:Recipients': recipients } },
    ];
  }
  return [{ service: 'ses', action: `ses:${action}`, resource: '*', context: {} }];
}

// --- SQS -----------------------------------------------------------------------

/**
 * The IAM action of each SQS operation that is not its own name: a batch is authorized as its single action, and
 * IAM has no action for ListDeadLetterSourceQueues or ListMessageMoveTasks of their own.
 */
const SQS_ACTIONS: Readonly<Record<string, string>> = {
  SendMessageBatch: 'SendMessage',
  DeleteMessageBatch: 'DeleteMessage',
  ChangeMessageVisibilityBatch: 'ChangeMessageVisibility',
};

/**
 * SQS, in the JSON protocol of @aws-sdk/client-sqs (`X-Amz-Target: AmazonSQS.<Operation>`) or the older query
 * protocol (`Action=<Operation>`): one authorization, on the queue the request names by URL (or by name, for
 * GetQueueUrl and CreateQueue); its ARN is `arn:aws:sqs:<region>:<account>:<name>`, the URL's path being
 * `/<account>/<name>`.
 */
function sqsCalls(headers: IncomingHttpHeaders, body: Buffer | undefined, region: string, account: string): AwsCall[] {
  const text = body?.toString('utf8') ?? '';
  const target = String(headers['x-amz-target'] ?? '');
  let operation: string;
  let input: Record<string, unknown>;
  if (target) {
    operation = target.slice(target.indexOf('.') + 1);
    input = JSON.parse(text || '{}') as Record<string, unknown>;
  } else {
    const params = new URLSearchParams(text);
    operation = params.get('Action') ?? '';
    input = Object.fromEntries(params);
  }
  if (!operation) throw new Error('an SQS request without X-Amz-Target or Action');
  const action = `sqs:${SQS_ACTIONS[operation] ?? operation}`;
  const queueUrl = typeof input.QueueUrl === 'string' ? input.QueueUrl : undefined;
  let resource: string;
  if (queueUrl !== undefined) {
    const [owner, name] = new URL(queueUrl).pathname.split('/').filter(Boolean);
    if (!owner || !name) throw new Error(`an SQS queue URL without account and name: ${queueUrl}`);
    resource = `arn:aws:sqs:${region}:${owner}:${name}`;
  } else if (typeof input.QueueName === 'string') {
    const owner = typeof input.QueueOwnerAWSAccountId === 'string' ? input.QueueOwnerAWSAccountId : account;
    resource = `arn:aws:sqs:${region}:${owner}:${input.QueueName}`;
  } else {
    resource = '*';
  }
  return [{ service: 'sqs', action, resource, context: {} }];
}

// ---------------------------------------------------------------------------
// The wire

function credentialScope(headers: IncomingHttpHeaders, query: URLSearchParams): { region: string; service: AwsService } | undefined {
  const credential = /Credential=([^,\s]+)/.exec(headers.authorization ?? '')?.[1] ?? query.get('X-Amz-Credential') ?? '';
  const [, , region, service] = credential.split('/');
  if (service === 'dynamodb' || service === 's3' || service === 'ses' || service === 'sqs') return { region, service };
  if (service === 'email') return { region, service: 'ses' };
  return undefined;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Sends the request on unchanged (but for `Expect`, which SigV4 never signs) and streams the answer back. */
function forward(req: IncomingMessage, res: ServerResponse, body: Buffer | undefined, target: string, agent: Agent) {
  const { hostname, port } = new URL(target);
  const { expect: _expect, ...headers } = req.headers;
  const upstream = httpRequest({ hostname, port, method: req.method, path: req.url, headers, agent }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`aws-calls checker: ${target}: ${error.message}`);
  });
  if (body) upstream.end(body);
  else req.pipe(upstream);
}

function denialMessage(fn: LocalFunction, call: RecordedCall): string {
  const principal = `arn:aws:sts::${LOCAL_ACCOUNT}:assumed-role/${fn.roleLogicalId}/${fn.handler}`;
  const why =
    call.invalid !== undefined
      ? `because the IAM simulator could not evaluate the request (${call.invalid})`
      : call.decision === 'ExplicitlyDenied'
        ? 'with an explicit deny in an identity-based policy'
        : `because no identity-based policy allows the ${call.action} action`;
  return `User: ${principal} is not authorized to perform: ${call.action} on resource: ${call.resource} ${why}`;
}

/** The answer AWS gives a request its caller may not make, in each service's protocol. */
function sendDenied(res: ServerResponse, service: AwsService, message: string) {
  const requestId = randomUUID();
  const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  if (service === 'dynamodb') {
    res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': requestId });
    res.end(JSON.stringify({ __type: 'com.amazon.coral.service#AccessDeniedException', Message: message }));
  } else if (service === 'sqs') {
    // What SQS answers in its JSON protocol; the query error header names the code its older clients knew.
    res.writeHead(403, {
      'content-type': 'application/x-amz-json-1.0',
      'x-amzn-requestid': requestId,
      'x-amzn-query-error': 'AccessDenied;Sender',
    });
    res.end(JSON.stringify({ __type: 'com.amazon.coral.service#AccessDeniedException', message }));
  } else if (service === 's3') {
    res.writeHead(403, { 'content-type': 'application/xml', 'x-amz-request-id': requestId });
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>${xml(message)}</Message><RequestId>${requestId}</RequestId></Error>`,
    );
  } else {
    res.writeHead(403, { 'content-type': 'text/xml', 'x-amzn-requestid': requestId });
    res.end(
      `<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>${xml(message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`,
    );
  }
}

// ---------------------------------------------------------------------------
// Decisions, cached

/**
 * The context of a call as far as the function's role can tell values apart,
 * for the decision cache. The stack's `dynamodb:LeadingKeys` conditions are
 * all `PREFIX#*` (the item kinds' key prefixes): against them two partition
 * keys with the same text up to their first `#` decide alike, so the decision
 * for `USER#ada` serves `USER#bob`. A role with any other pattern is cached
 * by exact keys.
 */
function cacheContext(fn: LocalFunction, context: AwsCall['context']): AwsCall['context'] {
  const keys = context['dynamodb:LeadingKeys'];
  if (!Array.isArray(keys) || !leadingKeyPatternsArePrefixes(fn)) return context;
  const prefix = (key: string) => (key.includes('#') ? key.slice(0, key.indexOf('#') + 1) : key);
  return { ...context, 'dynamodb:LeadingKeys': [...new Set(keys.map(prefix))].sort() };
}

const prefixRoles = new WeakMap<LocalFunction, boolean>();
function leadingKeyPatternsArePrefixes(fn: LocalFunction): boolean {
  let known = prefixRoles.get(fn);
  if (known === undefined) {
    const conditions = fn.statements.flatMap((statement) =>
      Object.entries(statement.Condition ?? {}).flatMap(([operator, keys]) => {
        const value = Object.entries(keys).find(([name]) => name.toLowerCase() === 'dynamodb:leadingkeys')?.[1];
        return value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((pattern) => ({ operator, pattern }));
      }),
    );
    known = conditions.every(({ operator, pattern }) => /StringLike$/.test(operator) && /^[^*?#$]*#\*$/.test(pattern));
    prefixRoles.set(fn, known);
  }
  return known;
}
