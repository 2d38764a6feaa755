/**
 * The synthesized CloudFormation templates of DeptAdminStack, read as one:
 * the root and its nested route stacks in their flat view (infra/templates.ts),
 * where a nested template's parameters are followed to the root's resources
 * they name. Synthesized as test/infra/synth.ts says: bundling skipped,
 * placeholder handlers, cdk.json's flags.
 *
 * Routes are followed to their functions through the template itself
 * (route → integration → function → role → policies), never by logical-id
 * naming, so the per-route assertions check the real wiring.
 */
import { rmSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexList, keyAttributes, PARTITION_KEY, SORT_KEY, TTL_ATTRIBUTE } from '../../lib/db/table';
import { FALLBACK_FUNCTION, type Route, routeKeys, routes, servedPaths } from '../../lib/routes';
import {
  allowedActions,
  AUDIT_KEY_PREFIX,
  IDEMPOTENCY_KEY_PREFIX,
  REPORT_KEY_PREFIX,
  SCIM_AUTHORIZER_STATEMENTS,
  SCIM_PAGE_KEY_PREFIX,
  SCIM_TOKEN_KEY_PREFIX,
  TABLE_ACTIONS,
  TABLE_WRITE_ONLY_ACTIONS,
  tableActionsFor,
  tableStatementsForJob,
  WEBHOOK_DELIVERY_KEY_PREFIX,
} from '../../infra/access';
import { requiredScope } from '../../lib/routes';
import { stackPropsFromContext } from '../../infra/context';
import { LOG_RETENTION } from '../../infra/service-function';
import { backgroundFunctions, isStreamReader, isStreamRouted, STREAM_ROUTER, WEBHOOK_DELIVERY } from '../../lib/background';
import { METRICS_NAMESPACE, SERVICE_NAME } from '../../lib/config';
import { METRICS } from '../../lib/metrics';
import { auditKey } from '../../lib/store/audit';
import { FEED_HEAD_KEY_PREFIX, FEED_KEY_PREFIX, feedHeadItem, feedItem } from '../../lib/store/feed';
import { reportKey } from '../../lib/store/reports';
import { scimTokenKey } from '../../lib/store/scim-tokens';
import { userKey } from '../../lib/store/users';
import { webhookKey } from '../../lib/store/webhooks';
import { DEFAULT_THROTTLE, DeptAdminStack } from '../../infra/stack';
import { describeTemplate, LOCAL_ACCOUNT, LOCAL_REGION, resolveDeployment, type LocalFunction } from '../../infra/local/deployment';
import { evaluateCall, roleStatements } from '../../infra/local/iam';
import { isWildcardOnlyAction } from '@cloud-copilot/iam-simulate';
import { describeRequest } from '../../infra/local/aws-calls';
import { routeStackId } from '../../infra/route-stack';
import type { SynthesizedTemplate } from '../../infra/templates';
import { placeholderProject, synthesize } from './synth';

type Json = any; // CloudFormation fragments: free-form by nature.
interface Resource {
  Type: string;
  Properties: Json;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}

const SYNTH_TIMEOUT_MS = 120_000;
const EXTERNAL_ISSUER = 'https://login.example.com/';

function synth(projectRoot: string, context: Record<string, unknown> = {}): Template {
  return synthesize(projectRoot, context).template;
}

// --- reading the template -------------------------------------------------

/** The function whose description is `summary` (a background entry's, or the fallback's). */
function backgroundFunctionId(template: Template, summary: string): string {
  const ids = Object.entries(resourcesOf(template, 'AWS::Lambda::Function'))
    .filter(([, func]) => func.Properties.Description === summary)
    .map(([id]) => id);
  expect(ids, summary).toHaveLength(1);
  return ids[0];
}

/** The fallback function: the one whose description names the `$default` route. */
function fallbackFunctionId(template: Template): string {
  return backgroundFunctionId(template, `${FALLBACK_FUNCTION.name}: ${FALLBACK_FUNCTION.routeKey}`);
}

/** The Cognito pool's pre-token-generation trigger: the function its LambdaConfig names, with the event version. */
function tokenTriggerOf(of: Template): { functionId: string; version: string } {
  const [, pool] = onlyResource(of, 'AWS::Cognito::UserPool');
  const { LambdaArn, LambdaVersion } = pool.Properties.LambdaConfig.PreTokenGenerationConfig;
  return { functionId: getAttTarget(LambdaArn), version: LambdaVersion };
}

function resourcesOf(template: Template, type: string): Record<string, Resource> {
  return template.findResources(type) as Record<string, Resource>;
}

/** The authorizer of one type: `JWT` (admin routes) or `REQUEST` (the SCIM token's Lambda). */
function authorizerOf(template: Template, type: 'JWT' | 'REQUEST'): [string, Resource] {
  const entries = Object.entries(resourcesOf(template, 'AWS::ApiGatewayV2::Authorizer')).filter(
    ([, resource]) => resource.Properties.AuthorizerType === type,
  );
  expect(entries, `exactly one ${type} authorizer`).toHaveLength(1);
  return entries[0];
}

/** The function behind the SCIM token's authorizer. */
function scimAuthorizerFunctionId(template: Template): string {
  const [, authorizer] = authorizerOf(template, 'REQUEST');
  const parts: Json[] = authorizer.Properties.AuthorizerUri['Fn::Join'][1];
  return getAttTarget(parts.find((part) => typeof part === 'object' && 'Fn::GetAtt' in part));
}

function onlyResource(template: Template, type: string): [string, Resource] {
  const entries = Object.entries(resourcesOf(template, type));
  expect(entries, `exactly one ${type}`).toHaveLength(1);
  return entries[0];
}

function refTarget(value: Json): string {
  expect(value).toEqual({ Ref: expect.any(String) });
  return value.Ref;
}

function getAttTarget(value: Json): string {
  expect(value).toEqual({ 'Fn::GetAtt': [expect.any(String), 'Arn'] });
  return value['Fn::GetAtt'][0];
}

/** `integrations/<id>` as CDK writes a route target. */
function integrationOfTarget(target: Json): string {
  expect(target['Fn::Join'][1][0]).toBe('integrations/');
  return refTarget(target['Fn::Join'][1][1]);
}

const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const sorted = (values: readonly string[]) => [...values].sort();
/** CloudFormation values in a fixed order: IAM policy minimization orders a statement's resources by their rendering. */
const sortedJson = (values: readonly Json[]) => sorted(values.map((value) => JSON.stringify(value))).map((text) => JSON.parse(text));

/**
 * Active tracing's grant, the same in every role (xray:PutTraceSegments and PutTelemetryRecords on '*'): asserted
 * once, in 'observability', and left out of the data permissions the other tests pin down.
 */
const isTracingGrant = (statement: Json) => asList<string>(statement.Action).every((action) => action.startsWith('xray:'));

/** Everything the template says about the functions and routes, keyed by route. */
interface RouteWiring {
  apiRoutes: Resource[];
  functionId: string;
  func: Resource;
  roleId: string;
  policyStatements: Json[];
}

function wiringOf(template: Template): Map<Route, RouteWiring> {
  const apiRoutes = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route'));
  const integrations = resourcesOf(template, 'AWS::ApiGatewayV2::Integration');
  const functions = resourcesOf(template, 'AWS::Lambda::Function');
  const policies = Object.values(resourcesOf(template, 'AWS::IAM::Policy'));

  const wiring = new Map<Route, RouteWiring>();
  for (const route of routes) {
    const keys = routeKeys(route);
    const matching = apiRoutes.filter((apiRoute) => keys.includes(apiRoute.Properties.RouteKey));
    const functionIds = new Set(
      matching.map((apiRoute) => getAttTarget(integrations[integrationOfTarget(apiRoute.Properties.Target)].Properties.IntegrationUri)),
    );
    expect([...functionIds], `all paths of ${route.name} reach one function`).toHaveLength(1);
    const functionId = [...functionIds][0];
    const func = functions[functionId];
    const roleId = getAttTarget(func.Properties.Role);
    const policyStatements = policies
      .filter((policy) => policy.Properties.Roles.some((role: Json) => refTarget(role) === roleId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
      .filter((statement: Json) => !isTracingGrant(statement));
    wiring.set(route, { apiRoutes: matching, functionId, func, roleId, policyStatements });
  }
  return wiring;
}

/** Every statement of the role of a function of the default template, the tracing grant included. */
function allStatementsOfFunction(functionId: string): Json[] {
  const roleId = getAttTarget(resourcesOf(template, 'AWS::Lambda::Function')[functionId].Properties.Role);
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((policy) => policy.Properties.Roles.some((role: Json) => refTarget(role) === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
}

/** The data permissions of a function of the default template: its statements but the tracing grant. */
const statementsOfFunction = (functionId: string): Json[] =>
  allStatementsOfFunction(functionId).filter((statement) => !isTracingGrant(statement));

// --- the default stack: Cognito, no optional settings ----------------------

let projectRoot: string;
let template: Template;
/** The default stack's templates one by one: the root first, then the nested route stacks. */
let templates: SynthesizedTemplate[];
let wiring: Map<Route, RouteWiring>;
let externalTemplate: Template;
/** An external issuer with the console's client there (context console*). */
let externalConsoleTemplate: Template;
let anyDomainTemplate: Template;
/** The functions of the default template, their role's statements resolved as the local stack resolves them. */
let deployedFunctions: LocalFunction[];
const DEPLOYED_TABLE = 'dept-admin';
const DEPLOYED_TABLE_ARN = `arn:aws:dynamodb:${LOCAL_REGION}:${LOCAL_ACCOUNT}:table/${DEPLOYED_TABLE}`;

beforeAll(() => {
  projectRoot = placeholderProject();
  ({ template, templates } = synthesize(projectRoot));
  wiring = wiringOf(template);
  deployedFunctions = resolveDeployment(describeTemplate(template.toJSON().Resources), {
    tableName: DEPLOYED_TABLE,
    reportsBucket: 'reports',
  });
  externalTemplate = synth(projectRoot, {
    jwtIssuer: EXTERNAL_ISSUER,
    jwtAudience: 'api-one, api-two',
    departmentSeats: '25',
    reportEmailDomains: 'example.com,example.org',
    corsAllowOrigins: ['https://admin.example.com'],
  });
  anyDomainTemplate = synth(projectRoot, { reportEmailDomains: '*' });
  externalConsoleTemplate = synth(projectRoot, {
    jwtIssuer: EXTERNAL_ISSUER,
    jwtAudience: 'api-one',
    ...EXTERNAL_CONSOLE,
    consoleScopes: 'openid api://dept-admin/admin.read',
    consoleLogoutUrl: 'https://login.example.com/logout',
  });
}, SYNTH_TIMEOUT_MS);

afterAll(() => {
  if (projectRoot) rmSync(projectRoot, { recursive: true, force: true });
});

describe('functions', () => {
  it('makes exactly one function per route and per background entry, the fallback, and no helper functions', () => {
    const routeFunctionIds = new Set([...wiring.values()].map((entry) => entry.functionId));
    expect(routeFunctionIds.size).toBe(routes.length);
    const backgroundIds = backgroundFunctions.map((job) => backgroundFunctionId(template, job.summary));
    // Explicit log groups mean no LogRetention helper; nothing else adds one.
    const authorizerId = scimAuthorizerFunctionId(template);
    // And the Cognito pool's trigger; with an external issuer there is no pool and no trigger.
    const triggerId = tokenTriggerOf(template).functionId;
    expect(sorted(Object.keys(resourcesOf(template, 'AWS::Lambda::Function')))).toEqual(
      sorted([...routeFunctionIds, ...backgroundIds, authorizerId, fallbackFunctionId(template), triggerId]),
    );
    const node22 = Object.values(resourcesOf(template, 'AWS::Lambda::Function')).filter((f) => f.Properties.Runtime === 'nodejs22.x');
    expect(node22).toHaveLength(routes.length + backgroundFunctions.length + 3);
    expect(Object.keys(resourcesOf(externalTemplate, 'AWS::Lambda::Function'))).toHaveLength(
      routes.length + backgroundFunctions.length + 2,
    );
  });

  /** Every statement of the role of a function, by the function's logical id. */
  const statementsOf = (functionId: string): Json[] => {
    const roleId = getAttTarget(resourcesOf(template, 'AWS::Lambda::Function')[functionId].Properties.Role);
    return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
      .filter((policy) => policy.Properties.Roles.some((role: Json) => refTarget(role) === roleId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
  };
  const actionsOf = (functionId: string): string[] => statementsOf(functionId).flatMap((statement: Json) => [statement.Action].flat());

  it.each(backgroundFunctions.map((job) => [job.name, job] as const))(
    '%s has its trigger with retries and a dead-letter queue, and table access without scans',
    (_, job) => {
      const functionId = backgroundFunctionId(template, job.summary);
      const queues = resourcesOf(template, 'AWS::SQS::Queue');
      if ('everyMinutes' in job.trigger) {
        const minutes = job.trigger.everyMinutes;
        const rules = Object.values(resourcesOf(template, 'AWS::Events::Rule')).filter((rule) =>
          rule.Properties.Targets.some((target: Json) => getAttTarget(target.Arn) === functionId),
        );
        expect(rules).toHaveLength(1);
        expect(rules[0].Properties.ScheduleExpression).toBe(`rate(${minutes} minute${minutes === 1 ? '' : 's'})`);
        const [target] = rules[0].Properties.Targets;
        expect(target.RetryPolicy.MaximumRetryAttempts).toBe(2);
        expect(queues[getAttTarget(target.DeadLetterConfig.Arn)]).toBeDefined();
      } else if ('queue' in job.trigger) {
        // Its queue's redrive is the dead-letter queue; 'webhook delivery' below asserts the rest.
        const [mapping] = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).filter(
          (candidate) => refTarget(candidate.Properties.FunctionName) === functionId,
        );
        const queue = queues[getAttTarget(mapping.Properties.EventSourceArn)];
        expect(queues[getAttTarget(queue.Properties.RedrivePolicy.deadLetterTargetArn)]).toBeDefined();
      } else if ('tableStream' in job.trigger) {
        const mappings = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).filter(
          (mapping) => refTarget(mapping.Properties.FunctionName) === functionId,
        );
        expect(mappings).toHaveLength(1);
        const mapping = mappings[0].Properties;
        expect(mapping).toMatchObject({
          MaximumRetryAttempts: 10,
          BisectBatchOnFunctionError: true,
          StartingPosition: 'LATEST',
          ParallelizationFactor: 10,
          FunctionResponseTypes: ['ReportBatchItemFailures'],
        });
        expect(queues[getAttTarget(mapping.DestinationConfig.OnFailure.Destination)]).toBeDefined();
        const patterns = mapping.FilterCriteria.Filters.map((filter: Json) => JSON.parse(filter.Pattern));
        expect(patterns[0]).toEqual({ eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: ['audit', 'feed'] } } } });
        // Then the items of each function it hands records to.
        const routed = backgroundFunctions.filter(isStreamRouted);
        expect(patterns.slice(1)).toEqual(
          routed.map((worker) => ({
            eventName: ['INSERT', 'MODIFY'],
            dynamodb: {
              NewImage: Object.fromEntries(Object.entries(worker.trigger.tableItems).map(([name, value]) => [name, { S: [value] }])),
            },
          })),
        );
      } else {
        // Handed records by the StreamRouter: Lambda retries an event twice, then keeps it in the dead-letter queue.
        const configs = Object.values(resourcesOf(template, 'AWS::Lambda::EventInvokeConfig')).filter(
          (config) => refTarget(config.Properties.FunctionName) === functionId,
        );
        expect(configs).toHaveLength(1);
        expect(configs[0].Properties).toMatchObject({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 6 * 3600 });
        expect(queues[getAttTarget(configs[0].Properties.DestinationConfig.OnFailure.Destination)]).toBeDefined();
        const mappings = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).filter(
          (mapping) => refTarget(mapping.Properties.FunctionName) === functionId,
        );
        expect(mappings, 'no stream reader of its own').toEqual([]);
      }
      // Stream readers also hold the stream actions (DescribeStream, GetRecords, GetShardIterator).
      const allowed = statementsOf(functionId)
        .filter((statement: Json) => statement.Effect === 'Allow')
        .flatMap((statement: Json) => asList<string>(statement.Action));
      const tableActions = allowed.filter((action) => action.startsWith('dynamodb:') && !/Stream|GetRecords|GetShardIterator/.test(action));
      expect(sorted(tableActions)).toEqual(sorted(allowedActions(tableStatementsForJob(job))));
      expect(tableActions.filter((action) => !TABLE_ACTIONS.write.includes(action))).toEqual([]);
    },
  );

  /** The statements of the report worker's role that send e-mail, in a template. */
  const sendStatements = (of: Template): Json[] => {
    const worker = backgroundFunctions.find((job) => job.sendsEmail)!;
    const functionId = backgroundFunctionId(of, worker.summary);
    const roleId = getAttTarget(resourcesOf(of, 'AWS::Lambda::Function')[functionId].Properties.Role);
    return Object.values(resourcesOf(of, 'AWS::IAM::Policy'))
      .filter((policy) => policy.Properties.Roles.some((role: Json) => refTarget(role) === roleId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
      .filter((statement: Json) => [statement.Action].flat().some((action: string) => action.startsWith('ses:')));
  };

  it('lets only the report worker write reports or send e-mail, and only as the configured sender', () => {
    const worker = backgroundFunctions.find((job) => job.sendsEmail)!;
    for (const of of [template, anyDomainTemplate]) {
      const workerId = backgroundFunctionId(of, worker.summary);
      for (const [functionId, func] of Object.entries(resourcesOf(of, 'AWS::Lambda::Function'))) {
        if (functionId === workerId) continue;
        const roleId = getAttTarget(func.Properties.Role);
        const actions = Object.values(resourcesOf(of, 'AWS::IAM::Policy'))
          .filter((policy) => policy.Properties.Roles.some((role: Json) => refTarget(role) === roleId))
          .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
          .flatMap((statement: Json) => [statement.Action].flat());
        expect(
          actions.filter((action) => action.startsWith('ses:')),
          functionId,
        ).toEqual([]);
        expect(
          actions.filter((action) => action.startsWith('s3:') && action !== 's3:GetObject'),
          functionId,
        ).toEqual([]);
      }
    }
    const [send] = sendStatements(anyDomainTemplate);
    // `*`: any recipient, from the configured sender only.
    expect(send.Condition).toEqual({ StringEquals: { 'ses:FromAddress': expect.stringContaining('@') } });
    expect(JSON.stringify(send.Resource)).toContain(':identity/');
    const workerId = backgroundFunctionId(template, worker.summary);
    const writes = statementsOf(workerId).find((statement: Json) => [statement.Action].flat().includes('s3:PutObject'));
    expect(JSON.stringify(writes.Resource)).toContain('/reports/*');
    // It reads no report: its e-mail links to the API, which signs each download (lib/reports/email-link.ts).
    expect(sorted(actionsOf(workerId).filter((action) => action.startsWith('s3:')))).toEqual(['s3:AbortMultipartUpload', 's3:PutObject']);
  });

  it('sends report e-mail to no one without reportEmailDomains: the setting empty, and no SES permission', () => {
    expect(sendStatements(template)).toEqual([]);
    for (const func of Object.values(resourcesOf(template, 'AWS::Lambda::Function'))) {
      expect(func.Properties.Environment.Variables.REPORT_EMAIL_DOMAINS).toBe('');
    }
    for (const func of Object.values(resourcesOf(anyDomainTemplate, 'AWS::Lambda::Function'))) {
      expect(func.Properties.Environment.Variables.REPORT_EMAIL_DOMAINS).toBe('*');
    }
  });

  it('lets the worker send only to the listed domains (ses:Recipients), as the configured sender', () => {
    const statements = sendStatements(externalTemplate);
    expect(statements).toHaveLength(1);
    expect([statements[0].Action].flat()).toEqual(['ses:SendRawEmail']);
    expect(statements[0].Condition).toEqual({
      StringEquals: { 'ses:FromAddress': expect.stringContaining('@') },
      'ForAllValues:StringLike': { 'ses:Recipients': ['*@example.com', '*@example.org'] },
    });
  });

  it('refuses a REPORT_EMAIL_DOMAINS that mixes * with domains, or is no domain', () => {
    expect(() => synth(projectRoot, { reportEmailDomains: '*,example.com' })).toThrow(/either \* or a list of domains/);
    expect(() => synth(projectRoot, { reportEmailDomains: '*.example.com' })).toThrow(/must list domains/);
  });

  it('lets exactly the routes that presign downloads read reports', () => {
    for (const [route, { functionId }] of wiring) {
      const reads = actionsOf(functionId).includes('s3:GetObject');
      expect(reads, route.name).toBe(route.reportsBucket === 'presign');
    }
  });

  it.each(routes.map((route) => [route.name, route] as const))('%s runs on arm64, node 22, 512 MB, its timeout', (_, route) => {
    const { Properties: props } = wiring.get(route)!.func;
    expect(route.timeoutSeconds ?? 10).toBeLessThan(29); // API Gateway gives up at 29 s
    expect(props).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      MemorySize: 512,
      Timeout: route.timeoutSeconds ?? 10,
      Handler: 'index.handler',
    });
  });

  it('gives every function the service environment and nothing optional by default', () => {
    const [tableId] = onlyResource(template, 'AWS::DynamoDB::Table');
    const [bucketId] = onlyResource(template, 'AWS::S3::Bucket');
    for (const [route, { func }] of wiring) {
      // The console page's sign-in settings: asserted in 'console sign-in'; the webhook queue's URL: in 'webhook delivery'.
      const all: Record<string, Json> = func.Properties.Environment.Variables;
      const variables = Object.fromEntries(
        Object.entries(all).filter(([name]) => !name.startsWith('CONSOLE_') && name !== WEBHOOK_DELIVERY.trigger.queue.urlVariable),
      );
      expect('CONSOLE_CLIENT_ID' in all, route.name).toBe(route.consoleSignIn === true);
      expect(variables).toEqual({
        TABLE_NAME: { Ref: tableId },
        REPORTS_BUCKET: { Ref: bucketId },
        REPORT_EMAIL_FROM: expect.stringContaining('@'),
        REPORT_EMAIL_DOMAINS: '',
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'dept-admin',
      });
    }
  });

  it('passes the optional settings from context to every function', () => {
    for (const func of Object.values(resourcesOf(externalTemplate, 'AWS::Lambda::Function'))) {
      expect(func.Properties.Environment.Variables).toMatchObject({
        DEPARTMENT_SEATS: '25',
        REPORT_EMAIL_DOMAINS: 'example.com,example.org',
      });
    }
  });

  it('logs the route functions to one shared log group and each background function to its own, all with a retention', () => {
    const logGroups = resourcesOf(template, 'AWS::Logs::LogGroup');
    // One group for every route function: a route adds no log group to watch (infra/stack.ts).
    const used = [...wiring.values()].map(({ func }) => refTarget(func.Properties.LoggingConfig.LogGroup));
    expect(new Set(used).size).toBe(1);
    const backgroundLogGroups = backgroundFunctions.map((job) =>
      refTarget(
        resourcesOf(template, 'AWS::Lambda::Function')[backgroundFunctionId(template, job.summary)].Properties.LoggingConfig.LogGroup,
      ),
    );
    expect(new Set([...backgroundLogGroups, ...used]).size).toBe(backgroundFunctions.length + 1);
    for (const id of [...backgroundLogGroups, ...used]) expect(logGroups[id].Properties.RetentionInDays).toBe(LOG_RETENTION);
  });

  it('grants one invoke permission per function, not per route key', () => {
    const functionIds = [...new Set([...wiring.values()].map(({ functionId }) => functionId)), fallbackFunctionId(template)];
    // The route functions' and the fallback's (the SCIM authorizer has its own, for the authorizer).
    const permissions = Object.values(resourcesOf(template, 'AWS::Lambda::Permission')).filter(
      (p) => p.Properties.Principal === 'apigateway.amazonaws.com' && functionIds.includes(getAttTarget(p.Properties.FunctionName)),
    );
    expect(permissions).toHaveLength(functionIds.length);
    const [apiId] = onlyResource(template, 'AWS::ApiGatewayV2::Api');
    for (const permission of permissions) {
      const [, parts] = permission.Properties.SourceArn['Fn::Join'];
      expect(parts).toContainEqual({ Ref: apiId });
      expect(parts[parts.length - 1]).toBe('/*/*/*');
    }
  });

  it('lets API Gateway invoke every route function', () => {
    const permissions = Object.values(resourcesOf(template, 'AWS::Lambda::Permission'));
    for (const { functionId } of wiring.values()) {
      const granted = permissions.filter(
        (p) => p.Properties.Principal === 'apigateway.amazonaws.com' && getAttTarget(p.Properties.FunctionName) === functionId,
      );
      expect(granted.length).toBeGreaterThan(0);
    }
  });
});

describe('composition: the routes of each tag in a nested stack, the rest in the root', () => {
  const resourcesAt = (path: string) => templates.find((entry) => entry.path === path)!.template.Resources;

  it('makes one nested stack per tag of the route table, and no other', () => {
    expect(templates[0].path).toBe('DeptAdminStack');
    const nested = templates.slice(1).map(({ path, parent }) => {
      expect(parent!.path, path).toBe('DeptAdminStack');
      return path;
    });
    expect(nested.sort()).toEqual([...new Set(routes.map((route) => `DeptAdminStack/${routeStackId(route.tag)}`))].sort());
  });

  it("puts each route's function, role, invoke permission, integration and API routes in the nested stack of its tag", () => {
    for (const [route, { functionId, roleId }] of wiring) {
      const own = Object.entries(resourcesAt(`DeptAdminStack/${routeStackId(route.tag)}`));
      const ids = new Set(own.map(([id]) => id));
      expect(ids.has(functionId) && ids.has(roleId), route.name).toBe(true);
      const integrations = own.filter(
        ([, r]) => r.Type === 'AWS::ApiGatewayV2::Integration' && getAttTarget(r.Properties!.IntegrationUri) === functionId,
      );
      expect(integrations, route.name).toHaveLength(1);
      const permissions = own.filter(
        ([, r]) => r.Type === 'AWS::Lambda::Permission' && getAttTarget(r.Properties!.FunctionName) === functionId,
      );
      expect(permissions, route.name).toHaveLength(1);
      const keys = own.filter(([, r]) => r.Type === 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties!.RouteKey as string);
      for (const key of routeKeys(route)) expect(keys, route.name).toContain(key);
    }
  });

  it('holds nothing but routes and their functions in a nested stack: the shared resources and every output are in the root', () => {
    const perRoute = [
      'AWS::Lambda::Function',
      'AWS::IAM::Role',
      'AWS::IAM::Policy',
      'AWS::Lambda::Permission',
      'AWS::ApiGatewayV2::Integration',
      'AWS::ApiGatewayV2::Route',
    ];
    for (const { path, template: nested } of templates.slice(1)) {
      for (const [id, resource] of Object.entries(nested.Resources)) expect(perRoute, `${path}: ${id}`).toContain(resource.Type);
      expect(nested.Outputs ?? {}, path).toEqual({});
    }
    const root = Object.values(templates[0].template.Resources).map((resource) => resource.Type);
    for (const type of [
      'AWS::DynamoDB::Table',
      'AWS::S3::Bucket',
      'AWS::ApiGatewayV2::Api',
      'AWS::ApiGatewayV2::Stage',
      'AWS::ApiGatewayV2::Authorizer',
      'AWS::Cognito::UserPool',
      'AWS::Events::EventBus',
      'AWS::CloudWatch::Dashboard',
    ])
      expect(root, type).toContain(type);
    // The outputs the README and docs/deployment.md name.
    expect(Object.keys(templates[0].template.Outputs ?? {}).sort()).toEqual(
      [
        'ApiUrl',
        'ConsoleUrl',
        'TableName',
        'ReportsBucketName',
        'AlarmTopicArn',
        'DashboardName',
        'ChangeEventBusName',
        'JwtIssuer',
        'UserPoolId',
        'UserPoolClientId',
        'TokenUrl',
        'ConsoleGroups',
      ].sort(),
    );
  });

  it('gives every function a role of its own', () => {
    const functions = Object.values(resourcesOf(template, 'AWS::Lambda::Function'));
    const roles = new Set(functions.map((func) => getAttTarget(func.Properties.Role)));
    expect(roles.size).toBe(functions.length);
  });
});

describe('routes', () => {
  it('has one API route per served path and method (HEAD too for a GET), the $default route, and no others', () => {
    const expected = [...routes.flatMap(routeKeys), '$default'];
    const actual = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey);
    expect(sorted(actual)).toEqual(sorted(expected));
  });

  it.each(routes.filter((route) => route.method === 'GET').map((route) => [route.name, route] as const))(
    '%s answers HEAD on each of its paths with its GET function',
    (_, route) => {
      const { apiRoutes } = wiring.get(route)!;
      for (const path of servedPaths(route)) {
        const byMethod = (method: string) => apiRoutes.find((apiRoute) => apiRoute.Properties.RouteKey === `${method} ${path}`)!;
        const [get, head] = [byMethod('GET'), byMethod('HEAD')];
        expect(head, `HEAD ${path}`).toBeDefined();
        expect(head.Properties.Target).toEqual(get.Properties.Target);
        expect(head.Properties.AuthorizationScopes).toEqual(get.Properties.AuthorizationScopes);
      }
    },
  );

  it('sends every request no route key matches to the fallback function, with no authorizer', () => {
    const [, defaultRoute] = Object.entries(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).find(
      ([, apiRoute]) => apiRoute.Properties.RouteKey === '$default',
    )!;
    expect(defaultRoute.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
    expect(defaultRoute.Properties.AuthorizerId).toBeUndefined();
    const integration = resourcesOf(template, 'AWS::ApiGatewayV2::Integration')[integrationOfTarget(defaultRoute.Properties.Target)];
    expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
    expect(getAttTarget(integration.Properties.IntegrationUri)).toBe(fallbackFunctionId(template));
  });

  it('lets the fallback function do nothing but write its logs (and its traces)', () => {
    const fallbackId = fallbackFunctionId(template);
    expect(statementsOfFunction(fallbackId)).toEqual([]);
    const permissions = Object.values(resourcesOf(template, 'AWS::Lambda::Permission')).filter(
      (p) => getAttTarget(p.Properties.FunctionName) === fallbackId,
    );
    expect(permissions.map((p) => p.Properties.Principal)).toEqual(['apigateway.amazonaws.com']);
  });

  it.each(routes.map((route) => [route.name, route] as const))('%s demands the scope of its access level', (_, route) => {
    const [jwtAuthorizerId] = authorizerOf(template, 'JWT');
    const [scimAuthorizerId] = authorizerOf(template, 'REQUEST');
    const scope = requiredScope(route.access);
    for (const { Properties: props } of wiring.get(route)!.apiRoutes) {
      if (route.access === 'public') {
        expect(props.AuthorizationType).toBe('NONE');
        expect(props.AuthorizerId).toBeUndefined();
        expect(props.AuthorizationScopes).toBeUndefined();
      } else if (route.access === 'scim') {
        // SCIM routes take a SCIM token, checked by its own authorizer; no JWT scope opens them.
        expect(props.AuthorizationType).toBe('CUSTOM');
        expect(props.AuthorizerId).toEqual({ Ref: scimAuthorizerId });
        expect(props.AuthorizationScopes).toBeUndefined();
      } else {
        expect(scope).toBe(route.access === 'read' ? 'admin/read' : 'admin/write');
        expect(props.AuthorizationType).toBe('JWT');
        expect(props.AuthorizerId).toEqual({ Ref: jwtAuthorizerId });
        expect(props.AuthorizationScopes).toEqual([scope]);
      }
    }
  });

  it('checks SCIM tokens with a Lambda authorizer on the Authorization header, cached 5 minutes', () => {
    const [, authorizer] = authorizerOf(template, 'REQUEST');
    expect(authorizer.Properties).toMatchObject({
      AuthorizerPayloadFormatVersion: '2.0',
      EnableSimpleResponses: true,
      IdentitySource: ['$request.header.Authorization'],
      AuthorizerResultTtlInSeconds: 300,
    });
  });
});

describe('IAM', () => {
  it('keeps the write-only actions out of the read list', () => {
    expect(TABLE_ACTIONS.read.filter((action) => TABLE_WRITE_ONLY_ACTIONS.includes(action))).toEqual([]);
    expect(TABLE_ACTIONS.public).toEqual([]);
  });

  it.each(routes.map((route) => [route.name, route] as const))('%s holds exactly the actions of its access level', (_, route) => {
    const { policyStatements } = wiring.get(route)!;
    const actions = policyStatements
      .filter((statement) => statement.Effect === 'Allow')
      .flatMap((statement) => asList<string>(statement.Action));
    const bucketActions = route.reportsBucket === 'presign' ? ['s3:GetObject'] : [];
    const queueActions = route.webhookQueue === 'send' ? ['sqs:SendMessage'] : [];
    expect(sorted(actions)).toEqual(sorted([...tableActionsFor(route), ...bucketActions, ...queueActions]));
    if (route.access === 'read' || route.access === 'public') {
      expect(actions.filter((action) => TABLE_WRITE_ONLY_ACTIONS.includes(action))).toEqual([]);
    }
  });

  it('gives SCIM discovery no table access, SCIM lists reads and their page memo, SCIM changes writes', () => {
    const scim = routes.filter((route) => route.access === 'scim');
    expect(scim.filter((route) => tableActionsFor(route).length === 0).map((route) => route.name)).toEqual([
      'scimServiceProviderConfig',
      'scimResourceTypes',
      'scimResourceType',
      'scimSchemas',
      'scimSchema',
    ]);
    for (const route of scim.filter((route) => route.method === 'GET' && tableActionsFor(route).length > 0)) {
      expect(sorted(tableActionsFor(route)), route.name).toEqual(sorted([...TABLE_ACTIONS.read, 'dynamodb:PutItem']));
    }
  });

  it('lets the SCIM authorizer read and mark SCIM token items only, and nothing else', () => {
    const [tableId] = onlyResource(template, 'AWS::DynamoDB::Table');
    const statements = statementsOfFunction(scimAuthorizerFunctionId(template)).filter((statement) =>
      asList<string>(statement.Action).some((action) => action.startsWith('dynamodb:')),
    );
    expect(statements).toHaveLength(1);
    expect(sorted(asList<string>(statements[0].Action))).toEqual(sorted(allowedActions(SCIM_AUTHORIZER_STATEMENTS)));
    expect(asList(statements[0].Resource)).toEqual([{ 'Fn::GetAtt': [tableId, 'Arn'] }]);
    expect(statements[0].Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${SCIM_TOKEN_KEY_PREFIX}*`] } });
  });

  it.each(routes.filter((route) => tableActionsFor(route).length > 0).map((route) => [route.name, route] as const))(
    '%s may touch only the table and its indexes (and report objects, to presign them; the webhook queue, to send)',
    (_, route) => {
      const [tableId] = onlyResource(template, 'AWS::DynamoDB::Table');
      const [bucketId] = onlyResource(template, 'AWS::S3::Bucket');
      const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
      for (const statement of wiring.get(route)!.policyStatements) {
        if (asList(statement.Action)[0].startsWith('sqs:')) {
          // Which routes, which actions and which queue: 'webhook delivery'.
          expect(route.webhookQueue, route.name).toBe('send');
        } else if (asList(statement.Action)[0].startsWith('s3:')) {
          expect(statement.Effect).toBe('Allow');
          expect(asList(statement.Resource)).toEqual([{ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/reports/*']] }]);
        } else if (statement.Condition) {
          // Item-scoped (allowed or denied by partition key): the base table only.
          expect(asList(statement.Resource)).toEqual([tableArn]);
        } else {
          expect(statement.Effect).toBe('Allow');
          expect(sortedJson(asList(statement.Resource))).toEqual(sortedJson([tableArn, { 'Fn::Join': ['', [tableArn, '/index/*']] }]));
        }
      }
    },
  );

  it('lets the e-mailed report link, the one public route with data, read report items and report objects only', () => {
    const readers = routes.filter((route) => route.access === 'public' && tableActionsFor(route).length > 0);
    expect(readers.map((route) => route.name)).toEqual(['downloadEmailedReport']);
    const [route] = readers;
    const tableStatements = wiring
      .get(route)!
      .policyStatements.filter((statement) => asList<string>(statement.Action)[0].startsWith('dynamodb:'));
    for (const statement of tableStatements) {
      expect(statement.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${REPORT_KEY_PREFIX}*`] } });
    }
    const actions = wiring.get(route)!.policyStatements.flatMap((statement) => asList<string>(statement.Action));
    expect(sorted(actions)).toEqual(['dynamodb:GetItem', 's3:GetObject']);
    for (const { Properties: props } of wiring.get(route)!.apiRoutes) expect(props.AuthorizationType).toBe('NONE');
  });

  it('lets the routes that sign report downloads read report items and nothing else on the table', async () => {
    const signers = routes.filter((route) => route.reportsBucket === 'presign');
    expect(signers.length).toBeGreaterThan(1);
    for (const route of signers) {
      const fn = deployedFunctions.find((candidate) => candidate.logicalId === wiring.get(route)!.functionId)!;
      const decide = async (action: string, resource: string, pk: string) =>
        (await evaluateCall(roleStatements(fn), { service: 'dynamodb', action, resource, context: { 'dynamodb:LeadingKeys': [pk] } }))
          .decision;
      expect(await decide('dynamodb:GetItem', DEPLOYED_TABLE_ARN, reportKey('r').pk), route.name).toBe('Allowed');
      expect(await decide('dynamodb:GetItem', DEPLOYED_TABLE_ARN, userKey('u').pk), route.name).toBe('ImplicitlyDenied');
      expect(await decide('dynamodb:Query', `${DEPLOYED_TABLE_ARN}/index/gsi1`, 'USERS#IN'), route.name).toBe('ImplicitlyDenied');
    }
  });

  it('tells the report worker where the API is, for the link of its e-mail', () => {
    const worker = backgroundFunctions.find((job) => job.sendsEmail)!;
    const func = resourcesOf(template, 'AWS::Lambda::Function')[backgroundFunctionId(template, worker.summary)];
    expect(JSON.stringify(func.Properties.Environment.Variables.API_BASE_URL)).toContain('execute-api');
  });

  it('grants only actions IAM knows, none of them wildcard-only on a named resource (such a grant grants nothing)', async () => {
    for (const [policyId, policy] of Object.entries(resourcesOf(template, 'AWS::IAM::Policy'))) {
      for (const statement of policy.Properties.PolicyDocument.Statement) {
        if (asList(statement.Resource).includes('*')) continue;
        for (const action of asList<string>(statement.Action)) {
          const [service, name] = action.split(':');
          expect(await isWildcardOnlyAction(service, name), `${policyId}: ${action}`).toBe(false);
        }
      }
    }
  });

  it('lets a stream-fed function send its failed batches or events to its dead-letter queue, and nothing else on SQS', () => {
    for (const job of backgroundFunctions.filter((entry) => isStreamRouted(entry) || isStreamReader(entry))) {
      const sqsStatements = statementsOfFunction(backgroundFunctionId(template, job.summary)).filter((statement) =>
        asList<string>(statement.Action).some((action) => action.startsWith('sqs:')),
      );
      expect(sqsStatements, job.name).toEqual([expect.objectContaining({ Effect: 'Allow', Action: 'sqs:SendMessage' })]);
    }
  });

  it('attaches no managed policy beyond basic Lambda logging', () => {
    const roles = resourcesOf(template, 'AWS::IAM::Role');
    for (const { roleId } of wiring.values()) {
      const managed = roles[roleId].Properties.ManagedPolicyArns ?? [];
      expect(JSON.stringify(managed)).toMatch(/AWSLambdaBasicExecutionRole/);
      expect(managed).toHaveLength(1);
    }
  });
});

// --- which items each function may change ---------------------------------------

/**
 * Whether the role of a function lets it do an item write `action` on the
 * table item whose partition key is `pk`, as IAM decides it: the function's
 * statements in the template, intrinsics resolved, evaluated by the IAM
 * simulator (infra/local/iam.ts) with the key as `dynamodb:LeadingKeys`.
 */
async function mayWriteItem(functionId: string, action: string, pk: string): Promise<boolean> {
  const fn = deployedFunctions.find((candidate) => candidate.logicalId === functionId);
  if (!fn) throw new Error(`${functionId} is not a function of the deployment`);
  const { decision, invalid } = await evaluateCall(roleStatements(fn), {
    service: 'dynamodb',
    action,
    resource: DEPLOYED_TABLE_ARN,
    context: { 'dynamodb:LeadingKeys': [pk] },
  });
  if (invalid) throw new Error(`the simulator cannot evaluate ${action} on ${pk}: ${invalid}`);
  return decision === 'Allowed';
}

const ITEM_WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

describe('item writes', () => {
  /** Every function of the stack, by a readable name: route functions by operation, the others by role. */
  const functionsByName = (): Map<string, string> => {
    const named = new Map<string, string>();
    for (const [route, { functionId }] of wiring) named.set(route.name, functionId);
    for (const job of backgroundFunctions) named.set(job.name, backgroundFunctionId(template, job.summary));
    named.set('scimAuthorizer', scimAuthorizerFunctionId(template));
    named.set('fallback', fallbackFunctionId(template));
    named.set('accessTokenScopes', tokenTriggerOf(template).functionId);
    expect(named.size).toBe(Object.keys(resourcesOf(template, 'AWS::Lambda::Function')).length);
    return named;
  };
  const writesData = (route: Route) => route.access === 'write' || (route.access === 'scim' && route.method !== 'GET');

  it("keeps the audit trail growing only: writers put entries, only the feed's sequencers update one (its pending mark), none deletes one", async () => {
    const entry = auditKey('2026-01-01T00:00:00.000Z', 'entry').pk;
    // The RuleWorker audits the joins and leaves of rule groups (actor rule:<group id>); the delivery function puts the
    // audit entry of a webhook it disables.
    const writers = new Set([...routes.filter(writesData).map((route) => route.name), 'Maintenance', 'RuleWorker', WEBHOOK_DELIVERY.name]);
    const sequencers = new Set(['Maintenance', STREAM_ROUTER.name]);
    for (const [name, functionId] of functionsByName()) {
      expect(await mayWriteItem(functionId, 'dynamodb:PutItem', entry), `${name} PutItem audit`).toBe(writers.has(name));
      expect(await mayWriteItem(functionId, 'dynamodb:UpdateItem', entry), `${name} UpdateItem audit`).toBe(sequencers.has(name));
      for (const action of ['dynamodb:DeleteItem', 'dynamodb:BatchWriteItem']) {
        expect(await mayWriteItem(functionId, action, entry), `${name} ${action} audit`).toBe(false);
      }
    }
  });

  it('keeps the change feed growing only: only its sequencers append to it and move its heads', async () => {
    const feed = feedItem(0, 1, '2026-01-01T00:00:00.000Z', {
      id: 'e',
      at: '2026-01-01T00:00:00.000Z',
      actor: 'a',
      operation: 'o',
      resource_type: 'user',
      resource_id: 'u',
      changes: {},
    }).pk as string;
    const head = feedHeadItem(0, { next: 1, last: '' }).pk as string;
    const sequencers = new Set(['Maintenance', STREAM_ROUTER.name]);
    for (const [name, functionId] of functionsByName()) {
      expect(await mayWriteItem(functionId, 'dynamodb:PutItem', feed), `${name} PutItem feed`).toBe(sequencers.has(name));
      expect(await mayWriteItem(functionId, 'dynamodb:UpdateItem', head), `${name} UpdateItem head`).toBe(sequencers.has(name));
      for (const action of ['dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem']) {
        expect(await mayWriteItem(functionId, action, feed), `${name} ${action} feed`).toBe(false);
      }
    }
  });

  it('lets only createScimToken put a SCIM token, deleteScimToken delete one and the authorizer mark one used', async () => {
    const token = scimTokenKey('token').pk;
    const only: Record<string, string | undefined> = {
      'dynamodb:PutItem': 'createScimToken',
      'dynamodb:DeleteItem': 'deleteScimToken',
      'dynamodb:UpdateItem': 'scimAuthorizer',
      'dynamodb:BatchWriteItem': undefined,
    };
    for (const [name, functionId] of functionsByName()) {
      for (const action of ITEM_WRITES)
        expect(await mayWriteItem(functionId, action, token), `${name} ${action} token`).toBe(only[action] === name);
    }
  });

  it('denies those changes by partition-key prefix, the prefixes of the store, to every function that may write other items', () => {
    for (const [name, functionId] of functionsByName()) {
      const statements = statementsOfFunction(functionId);
      const writesAnything = statements.some(
        (statement) =>
          statement.Effect === 'Allow' &&
          !statement.Condition &&
          asList<string>(statement.Action).some((action) => ITEM_WRITES.includes(action)),
      );
      if (!writesAnything) continue;
      const denies = statements.filter((statement) => statement.Effect === 'Deny');
      const prefixes = denies.map((statement) => statement.Condition?.['ForAnyValue:StringLike']?.['dynamodb:LeadingKeys']);
      const feed = name === 'Maintenance' ? [`${FEED_KEY_PREFIX}*`] : [`${FEED_KEY_PREFIX}*`, `${FEED_HEAD_KEY_PREFIX}*`];
      expect(sorted(prefixes.flat()), name).toEqual(sorted([`${AUDIT_KEY_PREFIX}*`, `${SCIM_TOKEN_KEY_PREFIX}*`, ...feed]));
    }
  });

  it('lets SCIM lists write only their page memo, and no other item', async () => {
    const lists = routes.filter((route) => route.access === 'scim' && route.method === 'GET' && tableActionsFor(route).length > 0);
    expect(lists.map((route) => route.name).sort()).toEqual(['scimGetGroup', 'scimGetUser', 'scimListGroups', 'scimListUsers']);
    for (const route of lists) {
      const { functionId, policyStatements } = wiring.get(route)!;
      const puts = policyStatements.filter((statement) => asList<string>(statement.Action).includes('dynamodb:PutItem'));
      expect(puts, route.name).toEqual([
        expect.objectContaining({
          Effect: 'Allow',
          Action: 'dynamodb:PutItem',
          Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${SCIM_PAGE_KEY_PREFIX}*`] } },
        }),
      ]);
      expect(await mayWriteItem(functionId, 'dynamodb:PutItem', `${SCIM_PAGE_KEY_PREFIX}users`), route.name).toBe(true);
      for (const pk of [userKey('u').pk, auditKey('2026-01-01T00:00:00.000Z', 'a').pk, scimTokenKey('t').pk, reportKey('r').pk]) {
        for (const action of ITEM_WRITES) expect(await mayWriteItem(functionId, action, pk), `${route.name} ${action} ${pk}`).toBe(false);
      }
      for (const action of ITEM_WRITES.filter((write) => write !== 'dynamodb:PutItem')) {
        expect(await mayWriteItem(functionId, action, `${SCIM_PAGE_KEY_PREFIX}users`), `${route.name} ${action} memo`).toBe(false);
      }
    }
  });

  it('refuses scimListUsers a put of a user, alone or in a transaction, and allows it its page memo', async () => {
    const { functionId } = wiring.get(routes.find((route) => route.name === 'scimListUsers')!)!;
    const fn = deployedFunctions.find((candidate) => candidate.logicalId === functionId)!;
    const put = (key: string) =>
      evaluateCall(roleStatements(fn), {
        service: 'dynamodb',
        action: 'dynamodb:PutItem',
        resource: DEPLOYED_TABLE_ARN,
        context: { 'dynamodb:LeadingKeys': [key] },
      });
    expect(await put(userKey('ada').pk)).toEqual({ decision: 'ImplicitlyDenied' });
    expect(await put(`${SCIM_PAGE_KEY_PREFIX}users`)).toEqual({ decision: 'Allowed' });
    // In a transaction DynamoDB checks each item's own action and key: the memo passes, the user does not.
    const transaction = describeRequest({
      service: 'dynamodb',
      region: LOCAL_REGION,
      method: 'POST',
      url: new URL('http://dynamodb/'),
      headers: { 'x-amz-target': 'DynamoDB_20120810.TransactWriteItems' },
      body: Buffer.from(
        JSON.stringify({
          TransactItems: [
            { Put: { TableName: DEPLOYED_TABLE, Item: { pk: { S: `${SCIM_PAGE_KEY_PREFIX}users` }, sk: { S: '1' } } } },
            { Put: { TableName: DEPLOYED_TABLE, Item: { pk: { S: userKey('ada').pk }, sk: { S: 'USER' } } } },
          ],
        }),
      ),
    });
    const decisions = await Promise.all(transaction.map(async (call) => (await evaluateCall(roleStatements(fn), call)).decision));
    expect(decisions).toEqual(['Allowed', 'ImplicitlyDenied']);
  });

  it('lets the SCIM token routes write their token, its audit entry and their idempotency record, and no other item', async () => {
    const names = functionsByName();
    const idempotency = `${IDEMPOTENCY_KEY_PREFIX}hash`;
    const writes: Record<string, Array<[string, string]>> = {
      createScimToken: [
        ['dynamodb:PutItem', scimTokenKey('t').pk],
        ['dynamodb:PutItem', auditKey('2026-01-01T00:00:00.000Z', 'a').pk],
      ],
      deleteScimToken: [
        ['dynamodb:DeleteItem', scimTokenKey('t').pk],
        ['dynamodb:PutItem', auditKey('2026-01-01T00:00:00.000Z', 'a').pk],
      ],
    };
    for (const [name, allowed] of Object.entries(writes)) {
      const functionId = names.get(name)!;
      for (const [action, pk] of allowed) expect(await mayWriteItem(functionId, action, pk), `${name} ${action} ${pk}`).toBe(true);
      for (const action of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']) {
        expect(await mayWriteItem(functionId, action, idempotency), `${name} ${action} idempotency`).toBe(true);
      }
      for (const pk of [userKey('u').pk, reportKey('r').pk, `${SCIM_PAGE_KEY_PREFIX}users`]) {
        for (const action of ITEM_WRITES) expect(await mayWriteItem(functionId, action, pk), `${name} ${action} ${pk}`).toBe(false);
      }
    }
  });

  it("lets a webhook's PATCH, whose role is its own, change its webhook and failure state, put its audit entry and keep its idempotency record, and no other item", async () => {
    const fn = functionsByName().get('updateWebhook')!;
    const webhook = webhookKey('w').pk;
    const health = `${WEBHOOK_DELIVERY_KEY_PREFIX}w`;
    const audit = auditKey('2026-01-01T00:00:00.000Z', 'a').pk;
    const idempotency = `${IDEMPOTENCY_KEY_PREFIX}hash`;
    const allowed: Array<[string, string]> = [
      ['dynamodb:GetItem', webhook],
      ['dynamodb:GetItem', health],
      ['dynamodb:UpdateItem', webhook],
      ['dynamodb:DeleteItem', health],
      ['dynamodb:PutItem', audit],
      ['dynamodb:PutItem', idempotency],
      ['dynamodb:UpdateItem', idempotency],
      ['dynamodb:DeleteItem', idempotency],
    ];
    for (const [action, pk] of allowed) expect(await mayWriteItem(fn, action, pk), `${action} ${pk}`).toBe(true);
    const refused: Array<[string, string]> = [
      ['dynamodb:DeleteItem', webhook],
      ['dynamodb:PutItem', webhook],
      ['dynamodb:UpdateItem', audit],
      ['dynamodb:GetItem', userKey('u').pk],
      ['dynamodb:Query', webhook],
      ...ITEM_WRITES.map((action): [string, string] => [action, userKey('u').pk]),
      ...ITEM_WRITES.map((action): [string, string] => [action, scimTokenKey('t').pk]),
    ];
    for (const [action, pk] of refused) expect(await mayWriteItem(fn, action, pk), `${action} ${pk}`).toBe(false);
  });

  it('lets the report worker update report jobs only, and maintenance write what it repairs', async () => {
    const names = functionsByName();
    const worker = names.get('ReportWorker')!;
    expect(await mayWriteItem(worker, 'dynamodb:UpdateItem', reportKey('r').pk)).toBe(true);
    expect(REPORT_KEY_PREFIX).toBe(reportKey('r').pk.slice(0, REPORT_KEY_PREFIX.length));
    for (const action of ITEM_WRITES) {
      expect(await mayWriteItem(worker, action, userKey('u').pk), `ReportWorker ${action} user`).toBe(false);
      if (action !== 'dynamodb:UpdateItem')
        expect(await mayWriteItem(worker, action, reportKey('r').pk), `ReportWorker ${action} report`).toBe(false);
    }
    const maintenance = names.get('Maintenance')!;
    for (const action of ITEM_WRITES)
      expect(await mayWriteItem(maintenance, action, userKey('u').pk), `Maintenance ${action} user`).toBe(true);
  });

  it('still lets a write route change its own items (createUser: users, and their audit entry)', async () => {
    const functionId = wiring.get(routes.find((route) => route.name === 'createUser')!)!.functionId;
    for (const action of ITEM_WRITES) expect(await mayWriteItem(functionId, action, userKey('u').pk), action).toBe(true);
    expect(await mayWriteItem(functionId, 'dynamodb:PutItem', auditKey('2026-01-01T00:00:00.000Z', 'a').pk)).toBe(true);
    expect(await mayWriteItem(functionId, 'dynamodb:UpdateItem', auditKey('2026-01-01T00:00:00.000Z', 'a').pk)).toBe(false);
    expect(await mayWriteItem(functionId, 'dynamodb:PutItem', scimTokenKey('t').pk)).toBe(false);
  });
});

describe('table', () => {
  it('matches lib/db/table.ts and is protected', () => {
    const [, table] = onlyResource(template, 'AWS::DynamoDB::Table');
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      KeySchema: [
        { AttributeName: PARTITION_KEY, KeyType: 'HASH' },
        { AttributeName: SORT_KEY, KeyType: 'RANGE' },
      ],
    });
  });

  it('has exactly the indexes of lib/db/table.ts, each projecting all attributes', () => {
    const [, table] = onlyResource(template, 'AWS::DynamoDB::Table');
    const byName = (a: { IndexName: string }, b: { IndexName: string }) => a.IndexName.localeCompare(b.IndexName);
    const expected = indexList
      .map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: keyAttributes(index).partition.name, KeyType: 'HASH' },
          ...keyAttributes(index).sort.map((attribute) => ({ AttributeName: attribute.name, KeyType: 'RANGE' })),
        ],
        Projection: { ProjectionType: 'ALL' },
      }))
      .sort(byName);
    expect([...table.Properties.GlobalSecondaryIndexes].sort(byName)).toEqual(expected);
    // Every key attribute once, with its type: strings, and the counts the user_count sorts order by.
    const types = new Map<string, string>([
      [PARTITION_KEY, 'S'],
      [SORT_KEY, 'S'],
    ]);
    for (const index of indexList) {
      const { partition, sort } = keyAttributes(index);
      for (const attribute of [partition, ...sort]) types.set(attribute.name, attribute.type);
    }
    expect(Object.fromEntries(table.Properties.AttributeDefinitions.map((d: Json) => [d.AttributeName, d.AttributeType]))).toEqual(
      Object.fromEntries(types),
    );
  });
});

describe('reports bucket', () => {
  it('is private, encrypted, unversioned, short-lived and retained', () => {
    const [, bucket] = onlyResource(template, 'AWS::S3::Bucket');
    expect(bucket.DeletionPolicy).toBe('Retain');
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.BucketEncryption).toEqual({
      ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
    });
    expect(bucket.Properties.VersioningConfiguration).toBeUndefined();
    expect(bucket.Properties.LifecycleConfiguration.Rules).toContainEqual(
      // A day more than the 7 days an e-mailed link works, counted from its sending.
      expect.objectContaining({ Status: 'Enabled', ExpirationInDays: 8 }),
    );
  });

  it('denies requests without TLS', () => {
    const [bucketId] = onlyResource(template, 'AWS::S3::Bucket');
    const [, policy] = onlyResource(template, 'AWS::S3::BucketPolicy');
    expect(policy.Properties.Bucket).toEqual({ Ref: bucketId });
    expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Action: 's3:*',
        Principal: { AWS: '*' },
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
  });
});

describe('API', () => {
  it('throttles the $default stage', () => {
    const [, stage] = onlyResource(template, 'AWS::ApiGatewayV2::Stage');
    expect(stage.Properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: {
        ThrottlingRateLimit: DEFAULT_THROTTLE.rateLimit,
        ThrottlingBurstLimit: DEFAULT_THROTTLE.burstLimit,
      },
    });
  });

  it('logs the id of the SCIM token (what the SCIM authorizer hands on) with each request', () => {
    const [, stage] = onlyResource(template, 'AWS::ApiGatewayV2::Stage');
    expect(JSON.parse(stage.Properties.AccessLogSettings.Format)).toMatchObject({ scimTokenId: '$context.authorizer.tokenId' });
  });

  it('throttles each costly route (E9, G8, G3, the SCIM lists) below the stage, on every key it is served under', () => {
    const [stageId, stage] = onlyResource(template, 'AWS::ApiGatewayV2::Stage');
    const throttled = routes.filter((route) => route.throttle);
    expect(throttled.map((route) => route.name).sort()).toEqual(
      ['createDepartmentsReport', 'createGroup', 'createGroupsReport', 'scimListGroups', 'scimListUsers'].sort(),
    );
    const expected = Object.fromEntries(
      throttled.flatMap((route) =>
        routeKeys(route).map((key) => [key, { ThrottlingRateLimit: route.throttle!.rate, ThrottlingBurstLimit: route.throttle!.burst }]),
      ),
    );
    expect(stage.Properties.RouteSettings).toEqual(expected);
    for (const route of throttled) {
      expect(route.throttle!.rate).toBeLessThan(DEFAULT_THROTTLE.rateLimit);
      expect(route.throttle!.burst).toBeLessThan(DEFAULT_THROTTLE.burstLimit);
    }
    // Route settings name route keys that must exist before the stage is updated: the stage waits for the nested
    // stacks that hold them.
    const holders = templates.filter(({ template: of }) =>
      Object.values(of.Resources).some((r) => r.Type === 'AWS::ApiGatewayV2::Route' && (r.Properties?.RouteKey as string) in expected),
    );
    expect(holders.map(({ path }) => path).sort()).toEqual(
      [...new Set(throttled.map((route) => `DeptAdminStack/${routeStackId(route.tag)}`))].sort(),
    );
    const dependsOn = (templates[0].template.Resources[stageId].DependsOn ?? []) as string[];
    for (const { parent } of holders) expect(dependsOn).toContain(parent!.logicalId);
  });

  it('keeps CORS closed unless origins are given', () => {
    const [, api] = onlyResource(template, 'AWS::ApiGatewayV2::Api');
    expect(api.Properties.CorsConfiguration).toBeUndefined();
    const [, openApi] = onlyResource(externalTemplate, 'AWS::ApiGatewayV2::Api');
    expect(openApi.Properties.CorsConfiguration).toMatchObject({
      AllowOrigins: ['https://admin.example.com'],
      AllowHeaders: expect.arrayContaining(['authorization', 'idempotency-key', 'if-match']),
      ExposeHeaders: expect.arrayContaining(['etag']),
    });
  });
});

/**
 * A template value as text: `Fn::Join` joined, `{Ref: X}` as `<X>`, `{Fn::GetAtt: [X, A]}` as `<X.A>`, so a
 * URL the template builds reads as one string (`https://<Api>.execute-api.<AWS::Region>.<AWS::URLSuffix>/console`).
 */
function asText(value: Json): string {
  if (typeof value === 'string') return value;
  if (value?.Ref) return `<${value.Ref}>`;
  if (value?.['Fn::GetAtt']) return `<${value['Fn::GetAtt'].join('.')}>`;
  if (value?.['Fn::Join']) return value['Fn::Join'][1].map(asText).join(value['Fn::Join'][0]);
  throw new Error(`not a text: ${JSON.stringify(value)}`);
}

/** Each client of the pool by what it is for: the machine client (client credentials) and the console's (code). */
function clientsOf(of: Template): { machine: [string, Resource]; console: [string, Resource] } {
  const clients = Object.entries(resourcesOf(of, 'AWS::Cognito::UserPoolClient'));
  expect(clients).toHaveLength(2);
  const withFlow = (flow: string) => clients.find(([, client]) => client.Properties.AllowedOAuthFlows.includes(flow))!;
  return { machine: withFlow('client_credentials'), console: withFlow('code') };
}

/** The scopes a client may ask for, `<Ref resource server>/<name>` read as the server's identifier `admin/<name>`. */
function allowedScopes(of: Template, client: Resource): string[] {
  const [serverId, server] = onlyResource(of, 'AWS::Cognito::UserPoolResourceServer');
  return client.Properties.AllowedOAuthScopes.map((scope: Json) =>
    asText(scope).replace(`<${serverId}>`, server.Properties.Identifier),
  ).sort();
}

/** The console page's function (the route that signs people in) in a template. */
function consoleFunctionOf(of: Template): Resource {
  const consoleRoute = routes.find((route) => route.consoleSignIn)!;
  return resourcesOf(of, 'AWS::Lambda::Function')[wiringOf(of).get(consoleRoute)!.functionId];
}

const EXTERNAL_CONSOLE = {
  consoleClientId: 'console-spa',
  consoleAuthorizeUrl: 'https://login.example.com/oauth2/v1/authorize',
  consoleTokenUrl: 'https://login.example.com/oauth2/v1/token',
};

describe('auth', () => {
  it('by default issues tokens from a Cognito pool with scopes admin/read and admin/write', () => {
    const [poolId] = onlyResource(template, 'AWS::Cognito::UserPool');
    const [, server] = onlyResource(template, 'AWS::Cognito::UserPoolResourceServer');
    expect(server.Properties.Identifier).toBe('admin');
    expect(server.Properties.Scopes.map((s: Json) => s.ScopeName).sort()).toEqual(['read', 'write']);

    const [, machine] = clientsOf(template).machine;
    expect(machine.Properties).toMatchObject({ GenerateSecret: true, AllowedOAuthFlows: ['client_credentials'] });
    expect(allowedScopes(template, machine)).toEqual(['admin/read', 'admin/write']);

    const [, domain] = onlyResource(template, 'AWS::Cognito::UserPoolDomain');
    expect(domain.Properties.UserPoolId).toEqual({ Ref: poolId });
    expect(domain.Properties.Domain['Fn::Join'][1][0]).toMatch(/^dept-admin-[0-9a-f]{8}-$/);

    const [, authorizer] = authorizerOf(template, 'JWT');
    expect(asText(authorizer.Properties.JwtConfiguration.Issuer)).toBe(`https://cognito-idp.<AWS::Region>.<AWS::URLSuffix>/<${poolId}>`);

    const outputs = Object.keys(template.toJSON().Outputs);
    expect(outputs).toEqual(
      expect.arrayContaining(['ApiUrl', 'TableName', 'ReportsBucketName', 'UserPoolId', 'UserPoolClientId', 'TokenUrl']),
    );
  });

  it('accepts the access tokens of both clients: the machine client and the console (client_id, no aud)', () => {
    const { machine, console } = clientsOf(template);
    const [, authorizer] = authorizerOf(template, 'JWT');
    expect(authorizer.Properties.JwtConfiguration.Audience).toEqual([{ Ref: machine[0] }, { Ref: console[0] }]);
  });

  it('with an external issuer in context, creates no Cognito resources and trusts that issuer', () => {
    for (const type of [
      'AWS::Cognito::UserPool',
      'AWS::Cognito::UserPoolClient',
      'AWS::Cognito::UserPoolDomain',
      'AWS::Cognito::UserPoolGroup',
    ]) {
      externalTemplate.resourceCountIs(type, 0);
      externalConsoleTemplate.resourceCountIs(type, 0);
    }
    const [, authorizer] = authorizerOf(externalTemplate, 'JWT');
    expect(authorizer.Properties.JwtConfiguration).toEqual({ Issuer: EXTERNAL_ISSUER, Audience: ['api-one', 'api-two'] });
    const outputs = Object.keys(externalTemplate.toJSON().Outputs);
    expect(outputs).not.toContain('TokenUrl');
    expect(outputs).not.toContain('UserPoolId');
    expect(outputs).not.toContain('ConsoleGroups');
  });

  it('refuses an issuer without an audience', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], jwtIssuer: EXTERNAL_ISSUER } });
    expect(() => new DeptAdminStack(app, 'Broken', { ...stackPropsFromContext(app.node), projectRoot })).toThrow(/jwtAudience/);
  });

  it('refuses a seat limit that is not a non-negative integer', () => {
    const app = new App({ context: { departmentSeats: 'many' } });
    expect(() => stackPropsFromContext(app.node)).toThrow(/departmentSeats/);
  });
});

describe('console sign-in (Cognito)', () => {
  it("signs people in through a public client: authorization code only, no secret, back to the console's URL", () => {
    const [, client] = clientsOf(template).console;
    const [apiId] = onlyResource(template, 'AWS::ApiGatewayV2::Api');
    const consoleUrl = `https://<${apiId}>.execute-api.<AWS::Region>.<AWS::URLSuffix>/console`;
    expect(client.Properties.GenerateSecret ?? false).toBe(false);
    expect(client.Properties).toMatchObject({
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      SupportedIdentityProviders: ['COGNITO'],
      PreventUserExistenceErrors: 'ENABLED',
      // The hosted login only: no sign-in through the user-pool API with this client id.
      ExplicitAuthFlows: ['ALLOW_REFRESH_TOKEN_AUTH'],
      AccessTokenValidity: 60,
      IdTokenValidity: 60,
      RefreshTokenValidity: 60,
      TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'minutes' },
    });
    expect(client.Properties.CallbackURLs.map(asText)).toEqual([consoleUrl]);
    expect(client.Properties.LogoutURLs.map(asText)).toEqual([consoleUrl]);
    expect(allowedScopes(template, client)).toEqual(['admin/read', 'admin/write', 'openid']);
    // The console's address, as the stack prints it: the API's URL and the console route's path.
    const outputs = template.toJSON().Outputs;
    expect(asText(outputs.ConsoleUrl.Value)).toBe(consoleUrl);
    expect(`${asText(outputs.ApiUrl.Value)}console`).toBe(consoleUrl);
  });

  it('has the groups admins and readers, and says how to add a person to one', () => {
    const [poolId] = onlyResource(template, 'AWS::Cognito::UserPool');
    const groups = Object.values(resourcesOf(template, 'AWS::Cognito::UserPoolGroup')).map((group) => group.Properties);
    expect(groups.map((group) => group.GroupName).sort()).toEqual(['admins', 'readers']);
    for (const group of groups) {
      expect(group.UserPoolId).toEqual({ Ref: poolId });
      expect(group.Description).toMatch(/admin\/read/);
    }
    const output = template.toJSON().Outputs.ConsoleGroups;
    expect(output.Value).toBe('admins,readers');
    expect(output.Description).toContain('admin-add-user-to-group');
  });

  it('maps groups to scopes in the access token by a V2_0 pre-token-generation trigger, on the Essentials plan', () => {
    const [poolId, pool] = onlyResource(template, 'AWS::Cognito::UserPool');
    // Access-token customization needs Essentials or Plus; V2_0 is the event that carries it for people.
    expect(pool.Properties.UserPoolTier).toBe('ESSENTIALS');
    const { functionId, version } = tokenTriggerOf(template);
    expect(version).toBe('V2_0');
    const trigger = template.toJSON().Resources[functionId];
    expect(trigger.Metadata['DeptAdmin:Source']).toBe('accessTokenScopes');
    expect(trigger.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], TracingConfig: { Mode: 'Active' } });
    // Only Cognito, from this pool, may invoke it.
    const permissions = Object.values(resourcesOf(template, 'AWS::Lambda::Permission')).filter(
      (permission) => getAttTarget(permission.Properties.FunctionName) === functionId,
    );
    expect(permissions.map((permission) => permission.Properties)).toEqual([
      {
        Action: 'lambda:InvokeFunction',
        FunctionName: { 'Fn::GetAtt': [functionId, 'Arn'] },
        Principal: 'cognito-idp.amazonaws.com',
        SourceArn: { 'Fn::GetAtt': [poolId, 'Arn'] },
      },
    ]);
    // It touches no data: its role grants nothing but its logs and traces.
    expect(statementsOfFunction(functionId)).toEqual([]);
  });

  it("gives the console page's function, and no other, the hosted login's settings", () => {
    const [poolId] = onlyResource(template, 'AWS::Cognito::UserPool');
    const [domainId] = onlyResource(template, 'AWS::Cognito::UserPoolDomain');
    const [consoleClientId] = clientsOf(template).console;
    const [, authorizer] = authorizerOf(template, 'JWT');
    const hostedLogin = `https://<${domainId}>.auth.<AWS::Region>.amazoncognito.com`;
    const variables = consoleFunctionOf(template).Properties.Environment.Variables;
    expect({
      CONSOLE_AUTHORIZE_URL: asText(variables.CONSOLE_AUTHORIZE_URL),
      CONSOLE_TOKEN_URL: asText(variables.CONSOLE_TOKEN_URL),
      CONSOLE_CLIENT_ID: variables.CONSOLE_CLIENT_ID,
      CONSOLE_SCOPES: variables.CONSOLE_SCOPES,
      CONSOLE_LOGOUT_URL: asText(variables.CONSOLE_LOGOUT_URL),
      CONSOLE_ISSUER: asText(variables.CONSOLE_ISSUER),
    }).toEqual({
      CONSOLE_AUTHORIZE_URL: `${hostedLogin}/oauth2/authorize`,
      CONSOLE_TOKEN_URL: `${hostedLogin}/oauth2/token`,
      CONSOLE_CLIENT_ID: { Ref: consoleClientId },
      CONSOLE_SCOPES: 'openid admin/read admin/write',
      CONSOLE_LOGOUT_URL: `${hostedLogin}/logout`,
      CONSOLE_ISSUER: `https://cognito-idp.<AWS::Region>.<AWS::URLSuffix>/<${poolId}>`,
    });
    expect(asText(variables.CONSOLE_ISSUER)).toBe(asText(authorizer.Properties.JwtConfiguration.Issuer));
    expect(asText(variables.CONSOLE_TOKEN_URL)).toBe(asText(template.toJSON().Outputs.TokenUrl.Value));

    const consoleFunction = consoleFunctionOf(template);
    for (const of of [template, externalTemplate, externalConsoleTemplate]) {
      for (const func of Object.values(resourcesOf(of, 'AWS::Lambda::Function'))) {
        if (func === consoleFunction || func === consoleFunctionOf(externalConsoleTemplate)) continue;
        expect(
          Object.keys(func.Properties.Environment.Variables).filter((name) => name.startsWith('CONSOLE_')),
          func.Properties.Description,
        ).toEqual([]);
      }
    }
  });

  it('gives the console no hosted login on the local stack, which has no Cognito (the link or a pasted token)', () => {
    const consoleRoute = routes.find((route) => route.consoleSignIn)!;
    const local = deployedFunctions.find((fn) => fn.handler === consoleRoute.name)!;
    expect(
      Object.keys(local.environment).filter((name) => /^CONSOLE_(AUTHORIZE_URL|TOKEN_URL|CLIENT_ID|LOGOUT_URL|ISSUER)$/.test(name)),
    ).toEqual([]);
    expect(local.environment.TABLE_NAME).toBe(DEPLOYED_TABLE);
  });
});

describe('console sign-in (external issuer)', () => {
  it("with the console's client in context: that issuer's login, its client in the audience, no Cognito", () => {
    const [, authorizer] = authorizerOf(externalConsoleTemplate, 'JWT');
    expect(authorizer.Properties.JwtConfiguration).toEqual({ Issuer: EXTERNAL_ISSUER, Audience: ['api-one', 'console-spa'] });
    expect(consoleFunctionOf(externalConsoleTemplate).Properties.Environment.Variables).toMatchObject({
      CONSOLE_AUTHORIZE_URL: EXTERNAL_CONSOLE.consoleAuthorizeUrl,
      CONSOLE_TOKEN_URL: EXTERNAL_CONSOLE.consoleTokenUrl,
      CONSOLE_CLIENT_ID: 'console-spa',
      CONSOLE_SCOPES: 'openid api://dept-admin/admin.read',
      CONSOLE_LOGOUT_URL: 'https://login.example.com/logout',
      CONSOLE_ISSUER: EXTERNAL_ISSUER,
    });
    expect(Object.keys(externalConsoleTemplate.toJSON().Outputs)).toContain('ConsoleUrl');
  });

  it('without console keys: the console takes a pasted token (no sign-in settings at all)', () => {
    const variables = consoleFunctionOf(externalTemplate).Properties.Environment.Variables;
    expect(Object.keys(variables).filter((name) => name.startsWith('CONSOLE_'))).toEqual([]);
    expect(externalTemplate.toJSON().Outputs.ConsoleUrl.Description).toMatch(/pasted token/);
  });

  it(
    'asks for openid and both admin scopes when no consoleScopes is given',
    () => {
      const stack = synth(projectRoot, { jwtIssuer: EXTERNAL_ISSUER, jwtAudience: 'api-one', ...EXTERNAL_CONSOLE });
      expect(consoleFunctionOf(stack).Properties.Environment.Variables.CONSOLE_SCOPES).toBe('openid admin/read admin/write');
    },
    SYNTH_TIMEOUT_MS,
  );

  it('refuses console keys given by halves, without an external issuer, or with a URL that is not https', () => {
    const external = { jwtIssuer: EXTERNAL_ISSUER, jwtAudience: 'api-one' };
    const { consoleTokenUrl: _token, ...withoutToken } = EXTERNAL_CONSOLE;
    expect(() => synth(projectRoot, { ...external, ...withoutToken })).toThrow(/consoleTokenUrl missing/);
    expect(() => synth(projectRoot, { ...external, consoleScopes: 'openid' })).toThrow(
      /consoleClientId, consoleAuthorizeUrl, consoleTokenUrl missing/,
    );
    expect(() => synth(projectRoot, EXTERNAL_CONSOLE)).toThrow(/give jwtIssuer and jwtAudience too/);
    expect(() => synth(projectRoot, { ...external, ...EXTERNAL_CONSOLE, consoleTokenUrl: 'http://login.example.com/token' })).toThrow(
      /https/,
    );
  });

  it('reads consoleScopes separated by spaces or commas', () => {
    const app = new App({ context: { consoleScopes: 'openid  admin/read,admin/write' } });
    expect(stackPropsFromContext(app.node).consoleScopes).toEqual(['openid', 'admin/read', 'admin/write']);
  });
});

describe('alarms', () => {
  it('alarms on API 5xx, Lambda errors and Lambda throttles, notifying one topic', () => {
    const [topicId] = onlyResource(template, 'AWS::SNS::Topic');
    const alarms = Object.values(resourcesOf(template, 'AWS::CloudWatch::Alarm')).map((a) => a.Properties);
    const [apiId] = onlyResource(template, 'AWS::ApiGatewayV2::Api');
    expect(alarms).toContainEqual(
      expect.objectContaining({ Namespace: 'AWS/ApiGateway', MetricName: '5xx', Dimensions: [{ Name: 'ApiId', Value: { Ref: apiId } }] }),
    );
    for (const metricName of ['Errors', 'Throttles']) {
      const alarm = alarms.find((a) => a.Namespace === 'AWS/Lambda' && a.MetricName === metricName);
      expect(alarm, `${metricName} alarm`).toBeDefined();
      // Account-wide: no FunctionName dimension.
      expect(alarm.Dimensions).toBeUndefined();
    }
    const deadLetterAlarms = alarms.filter((a) => a.Namespace === 'AWS/SQS');
    // + the dead letters of the rule that feeds the webhook queue.
    expect(deadLetterAlarms).toHaveLength(backgroundFunctions.length + 1);
    for (const alarm of deadLetterAlarms) {
      expect(alarm).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Statistic: 'Maximum', Threshold: 1 });
    }
    // The change feed (lib/changes/feed.ts): entries the stream left to the sweep, and the StreamRouter's lag.
    expect(alarms).toContainEqual(
      expect.objectContaining({ Namespace: METRICS_NAMESPACE, MetricName: 'FeedStragglers', Statistic: 'Sum', Threshold: 1 }),
    );
    const routerId = backgroundFunctionId(template, STREAM_ROUTER.summary);
    expect(alarms).toContainEqual(
      expect.objectContaining({
        Namespace: 'AWS/Lambda',
        MetricName: 'IteratorAge',
        Statistic: 'Maximum',
        Threshold: 30_000,
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: routerId } }],
      }),
    );
    // + one failure alarm per background function (metric math; test/infra/nag.test.ts checks them), + the feed's two.
    expect(alarms).toHaveLength(3 + 2 * backgroundFunctions.length + 1 + 2);
    for (const alarm of alarms) {
      expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
      if (alarm.Namespace !== 'AWS/SQS' && !alarm.Metrics && alarm.MetricName !== 'IteratorAge') expect(alarm.Statistic).toBe('Sum');
    }
  });
});

describe('change events', () => {
  it("reads the table's stream with one event source mapping, the StreamRouter's, and no pipe", () => {
    const [tableId] = onlyResource(template, 'AWS::DynamoDB::Table');
    const onStream = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).filter(
      (mapping) => JSON.stringify(mapping.Properties.EventSourceArn) === JSON.stringify({ 'Fn::GetAtt': [tableId, 'StreamArn'] }),
    );
    expect(onStream).toHaveLength(1);
    expect(refTarget(onStream[0].Properties.FunctionName)).toBe(backgroundFunctionId(template, STREAM_ROUTER.summary));
    expect(Object.keys(resourcesOf(template, 'AWS::Pipes::Pipe'))).toEqual([]);
    // Every other reader of the table's stream would be a grant of its read actions on it: the router's alone.
    const readers = Object.entries(resourcesOf(template, 'AWS::IAM::Policy')).filter(([, policy]) =>
      policy.Properties.PolicyDocument.Statement.some((statement: Json) =>
        asList<string>(statement.Action).includes('dynamodb:GetRecords'),
      ),
    );
    expect(readers).toHaveLength(1);
  });

  it('lets the StreamRouter publish to the bus and invoke the two workers it hands records to, and no more', () => {
    const [busId] = onlyResource(template, 'AWS::Events::EventBus');
    const routerId = backgroundFunctionId(template, STREAM_ROUTER.summary);
    const statements = statementsOfFunction(routerId);
    const beyondTable = statements.filter((statement) =>
      asList<string>(statement.Action).some((action) => !action.startsWith('dynamodb:') && !action.startsWith('xray:')),
    );
    const workerIds = backgroundFunctions.filter(isStreamRouted).map((job) => backgroundFunctionId(template, job.summary));
    expect(workerIds).toHaveLength(2);
    expect(beyondTable).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Effect: 'Allow', Action: 'events:PutEvents', Resource: { 'Fn::GetAtt': [busId, 'Arn'] } }),
        expect.objectContaining({
          Effect: 'Allow',
          Action: 'lambda:InvokeFunction',
          Resource: workerIds.map((id) => ({ 'Fn::GetAtt': [id, 'Arn'] })),
        }),
      ]),
    );
    // Those two, and the dead-letter queue of its mapping.
    expect(beyondTable.flatMap((statement) => asList<string>(statement.Action)).sort()).toEqual(
      ['events:PutEvents', 'lambda:InvokeFunction', 'sqs:SendMessage'].sort(),
    );
    const variables = resourcesOf(template, 'AWS::Lambda::Function')[routerId].Properties.Environment.Variables;
    expect(variables[STREAM_ROUTER.trigger.tableStream.busVariable]).toEqual({ Ref: busId });
    for (const job of backgroundFunctions.filter(isStreamRouted)) {
      expect(variables[job.trigger.functionVariable]).toEqual({ Ref: backgroundFunctionId(template, job.summary) });
    }
  });
});

describe('webhook delivery', () => {
  const { trigger } = WEBHOOK_DELIVERY;
  /** The delivery function, its mapping, its queue and dead-letter queue, and the rule that feeds the queue. */
  const wiring = () => {
    const functionId = backgroundFunctionId(template, WEBHOOK_DELIVERY.summary);
    const func = resourcesOf(template, 'AWS::Lambda::Function')[functionId];
    const mappings = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).filter(
      (mapping) => refTarget(mapping.Properties.FunctionName) === functionId,
    );
    expect(mappings).toHaveLength(1);
    const mapping = mappings[0].Properties;
    const queues = resourcesOf(template, 'AWS::SQS::Queue');
    const queueId = getAttTarget(mapping.EventSourceArn);
    const deadLetterId = getAttTarget(queues[queueId].Properties.RedrivePolicy.deadLetterTargetArn);
    const rules = Object.entries(resourcesOf(template, 'AWS::Events::Rule')).filter(([, rule]) =>
      rule.Properties.Targets.some((target: Json) => JSON.stringify(target.Arn) === JSON.stringify({ 'Fn::GetAtt': [queueId, 'Arn'] })),
    );
    expect(rules, 'one rule puts messages on the queue').toHaveLength(1);
    const [ruleId, rule] = rules[0];
    return { functionId, func, mapping, queues, queueId, queue: queues[queueId].Properties, deadLetterId, ruleId, rule: rule.Properties };
  };
  const queueArn = (queueId: string) => ({ 'Fn::GetAtt': [queueId, 'Arn'] });

  it('has an encrypted queue whose visibility is at least 6 × the function timeout, and a dead-letter queue after maxReceiveCount receives', () => {
    const { func, queue, queues, deadLetterId } = wiring();
    expect(func.Properties.Timeout).toBe(WEBHOOK_DELIVERY.timeoutSeconds);
    // Each attempt waits up to 10 s for its answer (the contract), a batch's attempts one after another.
    expect(func.Properties.Timeout).toBeGreaterThanOrEqual(10 * trigger.queue.batchSize);
    expect(queue.VisibilityTimeout).toBe(trigger.queue.visibilityTimeoutSeconds);
    expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * func.Properties.Timeout);
    expect(queue.SqsManagedSseEnabled).toBe(true);
    expect(queue.RedrivePolicy.maxReceiveCount).toBe(trigger.queue.maxReceiveCount);
    const deadLetters = queues[deadLetterId].Properties;
    expect(deadLetters.SqsManagedSseEnabled).toBe(true);
    // A moved message keeps its first enqueue time: the dead-letter queue must keep it longer than the queue did.
    expect(deadLetters.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    expect(queue.MessageRetentionPeriod).toBeLessThan(deadLetters.MessageRetentionPeriod);
  });

  it('invokes the function from the queue in batches, reporting each failed message, at bounded concurrency', () => {
    const { func, mapping, queueId } = wiring();
    expect(mapping).toMatchObject({
      BatchSize: trigger.queue.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: trigger.queue.maxConcurrency },
    });
    expect(func.Properties.Environment.Variables[trigger.queue.urlVariable]).toEqual({ Ref: queueId });
  });

  it('puts each change event of the bus on the queue as {"kind":"change","change":<audit entry>}, failures in a dead-letter queue', () => {
    const { rule, queueId, queues } = wiring();
    const [busId] = onlyResource(template, 'AWS::Events::EventBus');
    expect(rule.EventBusName).toEqual({ Ref: busId });
    expect(rule.EventPattern).toEqual({ source: ['dept-admin'], 'detail-type': ['Change recorded'] });
    const [target] = rule.Targets;
    expect(target.Arn).toEqual(queueArn(queueId));
    expect(queues[getAttTarget(target.DeadLetterConfig.Arn)].Properties.SqsManagedSseEnabled).toBe(true);
    expect(target.RetryPolicy).toEqual({ MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 24 * 3600 });
    // EventBridge fills each <name> of the template with the JSON at its path: the body is exactly this shape.
    const { InputPathsMap, InputTemplate } = target.InputTransformer;
    const [[name, path]] = Object.entries(InputPathsMap);
    expect(path).toBe('$.detail');
    const entry = {
      id: 'a1',
      at: '2026-11-28T02:00:00.000Z',
      actor: 'token',
      operation: 'createUser',
      resource_type: 'user',
      resource_id: 'ada',
      changes: {},
    };
    expect(JSON.parse(InputTemplate.replace(`<${name}>`, JSON.stringify(entry)))).toEqual({ kind: 'change', change: entry });
  });

  it("lets only that rule send to the queue (the queue's policy), and only over TLS", () => {
    const { queueId, ruleId } = wiring();
    const policies = Object.values(resourcesOf(template, 'AWS::SQS::QueuePolicy')).filter((policy) =>
      policy.Properties.Queues.some((queue: Json) => refTarget(queue) === queueId),
    );
    expect(policies).toHaveLength(1);
    const statements: Json[] = policies[0].Properties.PolicyDocument.Statement;
    const allows = statements.filter((statement) => statement.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    expect(allows[0]).toMatchObject({
      Principal: { Service: 'events.amazonaws.com' },
      Resource: queueArn(queueId),
      Condition: { ArnEquals: { 'aws:SourceArn': queueArn(ruleId) } },
    });
    expect(asList<string>(allows[0].Action)).toContain('sqs:SendMessage');
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });

  it('lets the function send only to its own queue, and use it only as the event source mapping does', () => {
    const { functionId, queueId } = wiring();
    const sqs = statementsOfFunction(functionId).filter((statement) =>
      asList<string>(statement.Action).some((action) => action.startsWith('sqs:')),
    );
    for (const statement of sqs) expect(statement.Resource, JSON.stringify(statement)).toEqual(queueArn(queueId));
    const actions = sorted(sqs.flatMap((statement) => asList<string>(statement.Action)));
    expect(actions).toEqual(
      sorted([
        'sqs:SendMessage',
        'sqs:ReceiveMessage',
        'sqs:DeleteMessage',
        'sqs:ChangeMessageVisibility',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
      ]),
    );
    // Nothing beyond the table, its queue (and its logs and traces, asserted elsewhere).
    const services = new Set(
      statementsOfFunction(functionId).flatMap((statement) => asList<string>(statement.Action).map((action) => action.split(':')[0])),
    );
    expect([...services].sort()).toEqual(['dynamodb', 'sqs']);
  });

  it('lets the function write only delivery records and failure state, and put audit entries; never the webhooks themselves', async () => {
    const { functionId } = wiring();
    const writes = statementsOfFunction(functionId).filter((statement) =>
      asList<string>(statement.Action).some((action) => [...ITEM_WRITES, 'dynamodb:ConditionCheckItem'].includes(action)),
    );
    expect(writes.length).toBeGreaterThan(0);
    for (const statement of writes) {
      const prefixes = statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
      expect(prefixes, JSON.stringify(statement)).toBeDefined();
      for (const prefix of asList<string>(prefixes)) expect([`${WEBHOOK_DELIVERY_KEY_PREFIX}*`, `${AUDIT_KEY_PREFIX}*`]).toContain(prefix);
    }
    for (const action of ['dynamodb:PutItem', 'dynamodb:UpdateItem'])
      expect(await mayWriteItem(functionId, action, `${WEBHOOK_DELIVERY_KEY_PREFIX}w1`), action).toBe(true);
    expect(await mayWriteItem(functionId, 'dynamodb:PutItem', auditKey('2026-01-01T00:00:00.000Z', 'a').pk)).toBe(true);
    for (const action of ITEM_WRITES.filter((write) => write !== 'dynamodb:PutItem'))
      expect(await mayWriteItem(functionId, action, auditKey('2026-01-01T00:00:00.000Z', 'a').pk), `${action} audit`).toBe(false);
    for (const pk of [webhookKey('w1').pk, userKey('u').pk, reportKey('r').pk, scimTokenKey('t').pk, `${IDEMPOTENCY_KEY_PREFIX}k`]) {
      for (const action of ITEM_WRITES) expect(await mayWriteItem(functionId, action, pk), `${action} ${pk}`).toBe(false);
    }
  });

  it('lets exactly the routes with webhookQueue: send put messages on the queue, with its URL, and nothing else new', () => {
    const { queueId } = wiring();
    for (const [route, { policyStatements, func }] of wiringOf(template)) {
      const sqs = policyStatements.filter((statement) => asList<string>(statement.Action).some((action) => action.startsWith('sqs:')));
      const variable = func.Properties.Environment.Variables[trigger.queue.urlVariable];
      if (route.webhookQueue === 'send') {
        expect(sqs, route.name).toEqual([{ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: queueArn(queueId) }]);
        expect(variable, route.name).toEqual({ Ref: queueId });
        const others = policyStatements
          .filter((statement) => !sqs.includes(statement))
          .flatMap((statement) => asList<string>(statement.Action));
        expect(sorted([...new Set(others)]), route.name).toEqual(sorted([...new Set(tableActionsFor(route))]));
      } else {
        expect(sqs, route.name).toEqual([]);
        expect(variable, route.name).toBeUndefined();
      }
    }
  });

  it('allows http and loopback webhooks under npm start only: WEBHOOKS_ALLOW_LOCAL is in no function of the template', () => {
    for (const [id, func] of Object.entries(resourcesOf(template, 'AWS::Lambda::Function')))
      expect(func.Properties.Environment?.Variables?.WEBHOOKS_ALLOW_LOCAL, id).toBeUndefined();
    const { functionId } = wiring();
    expect(deployedFunctions.find((fn) => fn.logicalId === functionId)!.environment.WEBHOOKS_ALLOW_LOCAL).toBeUndefined();
    const onStart = resolveDeployment(describeTemplate(template.toJSON().Resources), {
      tableName: DEPLOYED_TABLE,
      reportsBucket: 'reports',
      localOnlySettings: true,
    });
    expect(onStart.find((fn) => fn.logicalId === functionId)!.environment.WEBHOOKS_ALLOW_LOCAL).toBe('true');
  });

  it("resolves locally to a queue of the table's own, polled by the local event source mapping", () => {
    const { functionId, queueId } = wiring();
    const [source] = deployedFunctions.find((fn) => fn.logicalId === functionId)!.queueSources!;
    expect(source).toMatchObject({ batchSize: trigger.queue.batchSize, reportBatchItemFailures: true });
    expect(source.queueArn).toMatch(new RegExp(`^arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${queueId}-[0-9a-f]{8}$`));
  });

  it("plots the queue's oldest message's age and its dead letters on the dashboard", () => {
    const [, dashboard] = onlyResource(template, 'AWS::CloudWatch::Dashboard');
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    const { queueId, deadLetterId } = wiring();
    expect(body).toMatch(/ApproximateAgeOfOldestMessage/);
    for (const id of [queueId, deadLetterId]) expect(body).toContain(JSON.stringify({ 'Fn::GetAtt': [id, 'QueueName'] }));
  });
});

describe('observability', () => {
  it('traces every function actively, with the X-Ray permissions to write its traces', () => {
    const functions = Object.entries(resourcesOf(template, 'AWS::Lambda::Function'));
    expect(functions.length).toBeGreaterThan(routes.length);
    for (const [id, func] of functions) {
      expect(func.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
      expect(allStatementsOfFunction(id), id).toContainEqual({
        Effect: 'Allow',
        Action: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'],
        Resource: '*',
      });
    }
  });

  it("grants nothing but X-Ray's resource-less actions on Resource '*' (what the nag acknowledgement of IAM5 cannot tell apart)", () => {
    const onEverything = Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
      .filter((statement: Json) => asList(statement.Resource).includes('*'));
    expect(onEverything.length).toBeGreaterThan(0);
    for (const statement of onEverything)
      expect(sorted(asList(statement.Action))).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
  });

  /** The dashboard's widgets, its body read back as JSON (each CloudFormation reference left as a placeholder string). */
  function dashboardWidgets(): Json[] {
    const [, dashboard] = onlyResource(template, 'AWS::CloudWatch::Dashboard');
    const body = dashboard.Properties.DashboardBody;
    const text =
      typeof body === 'string' ? body : body['Fn::Join'][1].map((part: Json) => (typeof part === 'string' ? part : 'REF')).join('');
    return JSON.parse(text).widgets;
  }

  it('has a dashboard with the API’s traffic, errors and latency, and the table’s capacity and throttles', () => {
    const metrics = dashboardWidgets().flatMap((widget: Json) => widget.properties.metrics ?? []);
    const plotted = (namespace: string, name: string, stat?: string) =>
      metrics.some((row: Json[]) => row[0] === namespace && row[1] === name && (stat === undefined || row.at(-1).stat === stat));
    for (const [name, stat] of [['Count'], ['4xx'], ['5xx'], ['Latency', 'p50'], ['Latency', 'p99']]) {
      expect(plotted('AWS/ApiGateway', name, stat), `${name} ${stat ?? ''}`).toBe(true);
    }
    for (const name of ['ConsumedReadCapacityUnits', 'ConsumedWriteCapacityUnits', 'ReadThrottleEvents', 'WriteThrottleEvents']) {
      expect(plotted('AWS/DynamoDB', name), name).toBe(true);
    }
    const alarmWidget = dashboardWidgets().find((widget: Json) => widget.properties.alarms);
    expect(alarmWidget.properties.alarms).toHaveLength(Object.keys(resourcesOf(template, 'AWS::CloudWatch::Alarm')).length);
  });

  it('plots every business metric of lib/metrics.ts by its namespace, name and dimensions', () => {
    const metrics = dashboardWidgets().flatMap((widget: Json) => widget.properties.metrics ?? []);
    for (const { name, dimensions } of Object.values(METRICS)) {
      const found = metrics.some((row: Json[]) =>
        dimensions.length === 0
          ? row[0] === METRICS_NAMESPACE && row[1] === name && row[2] === 'service' && row[3] === SERVICE_NAME
          : typeof row[0] === 'object' &&
            row[0].expression.includes(`{${[METRICS_NAMESPACE, 'service', ...dimensions].join(',')}} MetricName="${name}"`),
      );
      expect(found, name).toBe(true);
    }
  });
});
