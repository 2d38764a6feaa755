/**
 * What the stack deploys, per function, read from the synthesized template:
 * the source it bundles, the environment variables the template gives it and
 * the policies of its role. The local runner starts each function with
 * exactly that environment, and the IAM check evaluates each AWS call a
 * function makes against exactly those policies; neither keeps a list of its
 * own that could drift from infra/.
 *
 * The stack is a root template and one nested template per tag of the route
 * table; this reads their flat view (infra/templates.ts), where a nested
 * template's references to the root's resources are followed to them. The
 * template refers to resources by CloudFormation intrinsics (`Ref`,
 * `Fn::GetAtt`, `Fn::Join`); `resolveDeployment` turns them into the local
 * stand-ins' names and ARNs in a fixed local account and region.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { stackPropsFromContext } from '../context';
import { DeptAdminStack, REPOSITORY_ROOT } from '../stack';
import { SOURCE_METADATA } from '../service-function';
import { type CfnResource, flattenTemplates, synthesizedTemplates } from '../templates';

type CfnValue = unknown;

/** An IAM policy statement as the template holds it, intrinsics resolved. */
export interface PolicyStatement {
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource?: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
  Sid?: string;
}

/** One function of the template, its intrinsics still unresolved. */
export interface TemplateFunction {
  /** The module under functions/ it bundles (the handler's name). */
  handler: string;
  logicalId: string;
  roleLogicalId: string;
  environment: Record<string, CfnValue>;
  /** Inline policies attached to its role (AWS::IAM::Policy), by the policy's logical id. */
  policies: Array<{ logicalId: string; statements: CfnValue[] }>;
  managedPolicyArns: CfnValue[];
  /** Properties.TracingConfig.Mode, when set. */
  tracing?: string;
  /** Properties.Timeout and MemorySize, with Lambda's defaults (3 s, 128 MB) when the template leaves them out. */
  timeoutSeconds: number;
  memoryMb: number;
  /** The SQS queues it is invoked from (its AWS::Lambda::EventSourceMapping resources on a queue). */
  queueSources: TemplateQueueSource[];
}

/** An event source mapping of a function on a queue, as the template holds it. */
export interface TemplateQueueSource {
  queueLogicalId: string;
  /** Lambda's default for SQS: 10. */
  batchSize: number;
  reportBatchItemFailures: boolean;
  maxConcurrency?: number;
}

/** An AWS::SQS::Queue of the template, with the attributes the local stand-in is created with. */
export interface TemplateQueue {
  logicalId: string;
  properties: Record<string, CfnValue>;
}

export interface Deployment {
  functions: TemplateFunction[];
  queues: TemplateQueue[];
  /** Resource type by logical id: what a `Ref` or `Fn::GetAtt` names. */
  resourceTypes: Record<string, string>;
}

/** The stack's settings, as `cdk synth -c key=value` gives them (infra/context.ts). */
export type StackContext = Record<string, string | number | string[]>;

/**
 * Synthesizes the stack as `cdk synth` does (cdk.json's context and the given
 * one) without bundling: the bundles are built by infra/build.ts with the
 * same options, and the template's code assets are not needed here.
 */
export function synthesizeDeployment(context: StackContext = {}, projectRoot = REPOSITORY_ROOT): Deployment {
  const cdkJson = JSON.parse(readFileSync(join(projectRoot, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> };
  const app = new App({ context: { ...cdkJson.context, ...context, 'aws:cdk:bundling-stacks': [] } });
  const stack = new DeptAdminStack(app, 'DeptAdminStack', { ...stackPropsFromContext(app.node), projectRoot });
  const assembly = app.synth();
  return describeTemplate(flattenTemplates(synthesizedTemplates(stack, assembly.directory)).Resources);
}

const LAMBDA_DEFAULT_TIMEOUT_SECONDS = 3;
const LAMBDA_DEFAULT_MEMORY_MB = 128;

export function describeTemplate(resources: Record<string, CfnResource>): Deployment {
  const resourceTypes = Object.fromEntries(Object.entries(resources).map(([id, resource]) => [id, resource.Type]));
  const functions: TemplateFunction[] = [];
  for (const [logicalId, resource] of Object.entries(resources)) {
    const handler = resource.Metadata?.[SOURCE_METADATA];
    if (resource.Type !== 'AWS::Lambda::Function' || typeof handler !== 'string') continue;
    const properties = resource.Properties ?? {};
    const roleLogicalId = getAttTarget(properties.Role);
    if (!roleLogicalId) throw new Error(`${logicalId} (${handler}): its Role is not a Fn::GetAtt of a role in the template`);
    const role = resources[roleLogicalId];
    const policies = Object.entries(resources)
      .filter(([, policy]) => policy.Type === 'AWS::IAM::Policy' && refsOf(policy.Properties?.Roles).includes(roleLogicalId))
      .map(([policyId, policy]) => ({
        logicalId: policyId,
        statements: asArray((policy.Properties?.PolicyDocument as { Statement?: CfnValue } | undefined)?.Statement),
      }));
    const queueSources = Object.values(resources)
      .filter(
        (mapping) =>
          mapping.Type === 'AWS::Lambda::EventSourceMapping' &&
          (mapping.Properties?.FunctionName as { Ref?: string } | undefined)?.Ref === logicalId &&
          resources[getAttTarget(mapping.Properties?.EventSourceArn) ?? '']?.Type === 'AWS::SQS::Queue',
      )
      .map((mapping) => ({
        queueLogicalId: getAttTarget(mapping.Properties!.EventSourceArn)!,
        batchSize: typeof mapping.Properties?.BatchSize === 'number' ? mapping.Properties.BatchSize : 10,
        reportBatchItemFailures: asArray(mapping.Properties?.FunctionResponseTypes).includes('ReportBatchItemFailures'),
        maxConcurrency: (mapping.Properties?.ScalingConfig as { MaximumConcurrency?: number } | undefined)?.MaximumConcurrency,
      }));
    const inlineRolePolicies = asArray(role?.Properties?.Policies).map((policy, index) => ({
      logicalId: `${roleLogicalId}.Policies[${index}]`,
      statements: asArray((policy as { PolicyDocument?: { Statement?: CfnValue } }).PolicyDocument?.Statement),
    }));
    functions.push({
      handler,
      logicalId,
      roleLogicalId,
      environment: (properties.Environment as { Variables?: Record<string, CfnValue> } | undefined)?.Variables ?? {},
      policies: [...policies, ...inlineRolePolicies],
      managedPolicyArns: asArray(role?.Properties?.ManagedPolicyArns),
      tracing: (properties.TracingConfig as { Mode?: string } | undefined)?.Mode,
      timeoutSeconds: typeof properties.Timeout === 'number' ? properties.Timeout : LAMBDA_DEFAULT_TIMEOUT_SECONDS,
      memoryMb: typeof properties.MemorySize === 'number' ? properties.MemorySize : LAMBDA_DEFAULT_MEMORY_MB,
      queueSources,
    });
  }
  const queues = Object.entries(resources)
    .filter(([, resource]) => resource.Type === 'AWS::SQS::Queue')
    .map(([logicalId, resource]) => ({ logicalId, properties: resource.Properties ?? {} }));
  return { functions, queues, resourceTypes };
}

// ---------------------------------------------------------------------------
// Resolution to the local stand-ins

/** The local account, region and resource names the template's intrinsics resolve to. */
export interface LocalResources {
  tableName: string;
  reportsBucket: string;
  /** The local gateway's URL: what the API's URL resolves to. */
  apiUrl?: string;
  /** The SQS stand-in's URL (infra/local/queues.ts): queue URLs are made from it. */
  sqsEndpoint?: string;
  /** Give every function LOCAL_ONLY_ENVIRONMENT (`npm start`); the tests turn it on where they need it. */
  localOnlySettings?: boolean;
  region?: string;
  account?: string;
}

export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_REGION = 'us-east-1';

/** A function as it runs locally: its environment and role's policies with every intrinsic resolved. */
export interface LocalFunction {
  handler: string;
  logicalId: string;
  roleLogicalId: string;
  environment: Record<string, string>;
  statements: PolicyStatement[];
  managedPolicyArns: string[];
  tracing?: string;
  timeoutSeconds: number;
  memoryMb: number;
  /** The queues Lambda would invoke it from: the local event source mapping's (infra/local/queues.ts). */
  queueSources?: LocalQueueSource[];
}

export interface LocalQueueSource {
  queueUrl: string;
  queueArn: string;
  batchSize: number;
  reportBatchItemFailures: boolean;
  maxConcurrency?: number;
}

/** A queue of the template as the stand-in holds it: its name, URL, ARN and CreateQueue attributes. */
export interface LocalQueue {
  logicalId: string;
  name: string;
  url: string;
  arn: string;
  attributes: Record<string, string>;
}

/**
 * What `npm start` sets that the stack never does: webhooks may use `http` and loopback endpoints (a receiver on
 * this machine), a setting AWS must not have (lib/config.ts `webhooksAllowLocal`). The tests deploy as AWS does and
 * turn it on where they need it (test/support/functions.ts `adjust`).
 */
export const LOCAL_ONLY_ENVIRONMENT: Readonly<Record<string, string>> = { WEBHOOKS_ALLOW_LOCAL: 'true' };

/**
 * The local name of a queue: its logical id and a short hash of the table, so that each table (each test file has
 * its own) has queues of its own, and no name passes SQS's 80 characters.
 */
export function localQueueName(logicalId: string, tableName: string): string {
  return `${logicalId}-${createHash('sha256').update(tableName).digest('hex').slice(0, 8)}`;
}

/**
 * Resource types the local stack has no stand-in for, whose settings a function is not given locally: the Cognito
 * user pool and its clients and domain (the local gateway checks its own tokens, infra/local/auth.ts), so the console
 * page is told of no hosted login there and takes the link's or a pasted token.
 */
const NOT_LOCAL = /^AWS::Cognito::/;

export function resolveDeployment(deployment: Deployment, local: LocalResources): LocalFunction[] {
  const resolve = resolver(deployment.resourceTypes, local);
  const namesAbsentResource = (value: CfnValue) =>
    [...JSON.stringify(value).matchAll(/"(?:Ref|Fn::GetAtt)":\[?"([^".]+)/g)].some(([, id]) =>
      NOT_LOCAL.test(deployment.resourceTypes[id] ?? ''),
    );
  return deployment.functions.map((fn) => ({
    handler: fn.handler,
    logicalId: fn.logicalId,
    roleLogicalId: fn.roleLogicalId,
    environment: {
      ...Object.fromEntries(
        Object.entries(fn.environment)
          .filter(([, value]) => !namesAbsentResource(value))
          .map(([name, value]) => [name, String(resolve(value))]),
      ),
      ...(local.localOnlySettings ? LOCAL_ONLY_ENVIRONMENT : {}),
    },
    statements: fn.policies.flatMap((policy) => policy.statements.map((statement) => resolve(statement) as PolicyStatement)),
    managedPolicyArns: fn.managedPolicyArns.map((arn) => String(resolve(arn))),
    tracing: fn.tracing,
    timeoutSeconds: fn.timeoutSeconds,
    memoryMb: fn.memoryMb,
    queueSources: fn.queueSources.map(({ queueLogicalId, ...source }) => ({
      ...source,
      queueUrl: String(resolve({ Ref: queueLogicalId })),
      queueArn: String(resolve({ 'Fn::GetAtt': [queueLogicalId, 'Arn'] })),
    })),
  }));
}

/** The template's queues as the SQS stand-in is to hold them: names, URLs, and attributes with intrinsics resolved. */
export function resolveQueues(deployment: Deployment, local: LocalResources): LocalQueue[] {
  const resolve = resolver(deployment.resourceTypes, local);
  return deployment.queues.map(({ logicalId, properties }) => {
    const attributes: Record<string, string> = {};
    for (const name of [
      'VisibilityTimeout',
      'MessageRetentionPeriod',
      'DelaySeconds',
      'ReceiveMessageWaitTimeSeconds',
      'MaximumMessageSize',
    ]) {
      if (properties[name] !== undefined) attributes[name] = String(properties[name]);
    }
    if (properties.RedrivePolicy !== undefined) attributes.RedrivePolicy = JSON.stringify(resolve(properties.RedrivePolicy));
    return {
      logicalId,
      name: String(resolve({ 'Fn::GetAtt': [logicalId, 'QueueName'] })),
      url: String(resolve({ Ref: logicalId })),
      arn: String(resolve({ 'Fn::GetAtt': [logicalId, 'Arn'] })),
      attributes,
    };
  });
}

/** ARNs of the resources that have a local stand-in; every other resource gets a made-up one of its type. */
function resolver(resourceTypes: Record<string, string>, local: LocalResources) {
  const region = local.region ?? LOCAL_REGION;
  const account = local.account ?? LOCAL_ACCOUNT;
  const pseudo: Record<string, string> = {
    'AWS::Region': region,
    'AWS::AccountId': account,
    'AWS::Partition': 'aws',
    'AWS::URLSuffix': 'amazonaws.com',
    'AWS::StackName': 'DeptAdminStack',
  };
  const typeOf = (id: string) => {
    const type = resourceTypes[id];
    if (!type) throw new Error(`the template refers to ${id}, which it does not hold`);
    return type;
  };
  const ref = (id: string): string => {
    if (id in pseudo) return pseudo[id];
    const type = typeOf(id);
    if (type === 'AWS::DynamoDB::Table') return local.tableName;
    if (type === 'AWS::S3::Bucket') return local.reportsBucket;
    if (type === 'AWS::ApiGatewayV2::Api') return 'local';
    // A queue's Ref is its URL.
    if (type === 'AWS::SQS::Queue') return `${local.sqsEndpoint ?? 'http://sqs.local'}/${account}/${localQueueName(id, local.tableName)}`;
    return `${id}-local`;
  };
  const getAtt = (id: string, attribute: string): string => {
    const type = typeOf(id);
    if (type === 'AWS::DynamoDB::Table' && attribute === 'Arn') return `arn:aws:dynamodb:${region}:${account}:table/${local.tableName}`;
    if (type === 'AWS::DynamoDB::Table' && attribute === 'StreamArn')
      return `arn:aws:dynamodb:${region}:${account}:table/${local.tableName}/stream/local`;
    if (type === 'AWS::S3::Bucket' && attribute === 'Arn') return `arn:aws:s3:::${local.reportsBucket}`;
    if (type === 'AWS::SQS::Queue' && attribute === 'Arn') return `arn:aws:sqs:${region}:${account}:${localQueueName(id, local.tableName)}`;
    if (type === 'AWS::SQS::Queue' && attribute === 'QueueName') return localQueueName(id, local.tableName);
    if (type === 'AWS::SQS::Queue' && attribute === 'QueueUrl') return ref(id);
    // Named by their Ref (`<id>-local`), as AWS forms these ARNs: what a call naming them is authorized on.
    if (type === 'AWS::Lambda::Function' && attribute === 'Arn') return `arn:aws:lambda:${region}:${account}:function:${ref(id)}`;
    if (type === 'AWS::Events::EventBus' && attribute === 'Arn') return `arn:aws:events:${region}:${account}:event-bus/${ref(id)}`;
    const service = type.split('::')[1].toLowerCase();
    return `arn:aws:${service}:${region}:${account}:${id}/${attribute}`;
  };
  const mentionsApi = (value: CfnValue) =>
    JSON.stringify(value)
      .match(/"Ref":"([^"]+)"/g)
      ?.some((match) => resourceTypes[match.slice(7, -1)] === 'AWS::ApiGatewayV2::Api') ?? false;

  const resolve = (value: CfnValue): CfnValue => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value === null || typeof value !== 'object') return value;
    const object = value as Record<string, CfnValue>;
    const keys = Object.keys(object);
    if (keys.length === 1 && (keys[0].startsWith('Fn::') || keys[0] === 'Ref')) {
      // The API's URL is the local gateway's, whatever the template builds it from.
      if (local.apiUrl !== undefined && mentionsApi(value)) return local.apiUrl;
      const [name] = keys;
      const argument = object[name];
      if (name === 'Ref') return ref(argument as string);
      if (name === 'Fn::GetAtt') {
        const [id, attribute] = Array.isArray(argument) ? (argument as string[]) : String(argument).split('.');
        return getAtt(id, attribute);
      }
      if (name === 'Fn::Join') {
        const [separator, parts] = argument as [string, CfnValue[]];
        return parts.map((part) => String(resolve(part))).join(separator);
      }
      if (name === 'Fn::Select') {
        const [index, list] = argument as [number, CfnValue];
        return (resolve(list) as CfnValue[])[Number(index)];
      }
      if (name === 'Fn::Split') {
        const [separator, text] = argument as [string, CfnValue];
        return String(resolve(text)).split(separator);
      }
      throw new Error(`the local runner does not resolve ${name}: ${JSON.stringify(value)}`);
    }
    return Object.fromEntries(keys.map((key) => [key, resolve(object[key])]));
  };
  return resolve;
}

function getAttTarget(value: CfnValue): string | undefined {
  const argument = (value as { 'Fn::GetAtt'?: CfnValue } | undefined)?.['Fn::GetAtt'];
  if (Array.isArray(argument)) return String(argument[0]);
  if (typeof argument === 'string') return argument.split('.')[0];
  return undefined;
}

function refsOf(value: CfnValue): string[] {
  return asArray(value).flatMap((item) => {
    const id = (item as { Ref?: unknown }).Ref;
    return typeof id === 'string' ? [id] : [];
  });
}

function asArray(value: CfnValue): CfnValue[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}
