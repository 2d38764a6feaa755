/**
 * Security checks on the synthesized stack, beyond stack.test.ts:
 *
 * - cdk-nag's AwsSolutions pack finds nothing that is neither fixed nor
 *   acknowledged (with a reason) in infra/nag.ts;
 * - least privilege across every role of the template, not just the route
 *   functions: no `*` action anywhere, no `*` resource on DynamoDB or S3,
 *   every DynamoDB or S3 resource is this stack's table (its indexes, its
 *   stream) or the reports/ prefix of its bucket, and only the report
 *   functions touch S3 or SES;
 * - operations: the background functions' failure alarms and the stage's
 *   access log.
 *
 * The stack is synthesized as in stack.test.ts (test/infra/synth.ts), and
 * its templates, the root's and the nested route stacks', read as one.
 * cdk-nag v3 is a policy-validation plugin; `validateScope` runs it on the
 * stack directly, nested stacks included, and reports what `cdk synth` would
 * refuse.
 */
import { rmSync } from 'node:fs';
import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_ROUTE_KEYS } from '../../infra/nag';
import type { DeptAdminStack } from '../../infra/stack';
import { backgroundFunctions } from '../../lib/background';
import { routes } from '../../lib/routes';
import { placeholderProject, synthesize } from './synth';

type Json = any; // CloudFormation fragments: free-form by nature.

const SYNTH_TIMEOUT_MS = 120_000;

function synthStack(projectRoot: string, context: Record<string, unknown> = {}): DeptAdminStack {
  return synthesize(projectRoot, context).stack;
}

/** Each finding as `<rule> at <construct path>`, so a failure names what to fix. */
function nagFindings(stack: DeptAdminStack): string[] {
  const report = new AwsSolutionsChecks().validateScope(stack);
  return report.violations.flatMap((violation) =>
    violation.violatingResources.map((resource) => `${violation.ruleName} at ${resource.constructPath}: ${violation.description}`),
  );
}

let projectRoot: string;
let stack: DeptAdminStack;
let resources: Record<string, { Type: string; Properties: Json }>;

beforeAll(() => {
  projectRoot = placeholderProject();
  const synthesized = synthesize(projectRoot);
  stack = synthesized.stack;
  resources = synthesized.template.toJSON().Resources;
}, SYNTH_TIMEOUT_MS);

afterAll(() => {
  if (projectRoot) rmSync(projectRoot, { recursive: true, force: true });
});

const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

describe('cdk-nag (AwsSolutions)', () => {
  it('finds nothing that is neither fixed nor acknowledged', () => {
    expect(nagFindings(stack)).toEqual([]);
  });

  it("finds nothing with an external issuer and the console's client there, optional settings and CORS either", () => {
    const external = synthStack(projectRoot, {
      jwtIssuer: 'https://login.example.com/',
      jwtAudience: 'api-one',
      consoleClientId: 'console-spa',
      consoleAuthorizeUrl: 'https://login.example.com/authorize',
      consoleTokenUrl: 'https://login.example.com/token',
      departmentSeats: '25',
      reportEmailDomains: 'example.com',
      corsAllowOrigins: ['https://admin.example.com'],
    });
    expect(nagFindings(external)).toEqual([]);
  });

  it('gives every acknowledgement a reason a reviewer can check, on the construct it concerns', () => {
    const acknowledged: Array<{ path: string; id: string; reason: string }> = [];
    for (const node of stack.node.findAll()) {
      for (const entry of node.node.metadata) {
        if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
        for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
          acknowledged.push({ path: node.node.path, id: id.replace(/^annotation::/i, ''), reason });
        }
      }
    }
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const { path, id, reason } of acknowledged) {
      expect(id, path).toMatch(/^AwsSolutions-/);
      expect(reason.length, `${id} at ${path}`).toBeGreaterThanOrEqual(100);
    }
    // Stack-wide acknowledgements (the root's, a route stack's) name one exact wildcard each, never a whole rule: in
    // the root the table's or bucket's ARN, in a route stack the parameter that carries it.
    const stacks = new Set([stack.node.path, ...[...stack.routeStacks.values()].map((routeStack) => routeStack.node.path)]);
    const stackWide = acknowledged.filter(({ path }) => stacks.has(path)).map(({ id }) => id);
    expect(stackWide.length).toBeGreaterThan(2);
    for (const id of stackWide) expect(id).toMatch(/^AwsSolutions-IAM5\[Resource::<(\w+\.Arn|referenceto\w+Arn)>\/(index|reports)\/\*\]$/);
    // Only the contract's public routes, and the $default route of the fallback, go without authorization.
    const openRoutes = acknowledged.filter(({ id }) => id === 'AwsSolutions-APIG4');
    expect(openRoutes).toHaveLength(PUBLIC_ROUTE_KEYS.size + 1);
    expect(openRoutes.filter(({ path }) => path.endsWith('/DefaultRoute/Resource'))).toHaveLength(1);
  });

  it('fixes what it can: a strong password policy, stage access logs, no stream access on "*"', () => {
    const [[, pool]] = ofType('AWS::Cognito::UserPool');
    expect(pool.Properties.Policies.PasswordPolicy).toMatchObject({
      MinimumLength: 14,
      RequireLowercase: true,
      RequireUppercase: true,
      RequireNumbers: true,
      RequireSymbols: true,
    });
    const [[, stage]] = ofType('AWS::ApiGatewayV2::Stage');
    const logGroupId = stage.Properties.AccessLogSettings.DestinationArn['Fn::GetAtt'][0];
    expect(resources[logGroupId].Type).toBe('AWS::Logs::LogGroup');
    expect(resources[logGroupId].Properties.RetentionInDays).toBeGreaterThan(0);
    const format = JSON.parse(stage.Properties.AccessLogSettings.Format);
    expect(format).toMatchObject({ requestId: '$context.requestId', status: '$context.status', routeKey: '$context.routeKey' });
    // Nothing that could carry a secret: no headers, no bodies.
    expect(stage.Properties.AccessLogSettings.Format).not.toMatch(/header|body|Authorization/i);
  });
});

// --- least privilege, every role --------------------------------------------

interface Grant {
  /** The role's logical id. */
  role: string;
  statement: Json;
}

/** Every Allow statement the template grants, with the role it is granted to (policies and inline role policies). */
function grants(): Grant[] {
  const found: Grant[] = [];
  for (const [, policy] of ofType('AWS::IAM::Policy')) {
    for (const role of policy.Properties.Roles ?? []) {
      for (const statement of policy.Properties.PolicyDocument.Statement) found.push({ role: role.Ref, statement });
    }
  }
  for (const [roleId, role] of ofType('AWS::IAM::Role')) {
    for (const inline of role.Properties.Policies ?? []) {
      for (const statement of inline.PolicyDocument.Statement) found.push({ role: roleId, statement });
    }
  }
  return found.filter(({ statement }) => statement.Effect === 'Allow');
}

/** The logical id of the role each function runs as, and the pipe's role. */
function rolesByUser(): Map<string, string> {
  const users = new Map<string, string>();
  for (const [functionId, func] of ofType('AWS::Lambda::Function')) users.set(func.Properties.Role['Fn::GetAtt'][0], functionId);
  for (const [pipeId, pipe] of ofType('AWS::Pipes::Pipe')) users.set(pipe.Properties.RoleArn['Fn::GetAtt'][0], pipeId);
  return users;
}

describe('least privilege, every role', () => {
  it('covers every role: each belongs to a function or the change-event pipe', () => {
    const users = rolesByUser();
    for (const [roleId] of ofType('AWS::IAM::Role')) expect(users.has(roleId), roleId).toBe(true);
    // Every function has a role of its own; the pipe has one too.
    expect(ofType('AWS::IAM::Role')).toHaveLength(ofType('AWS::Lambda::Function').length + ofType('AWS::Pipes::Pipe').length);
    expect(grants().length).toBeGreaterThan(backgroundFunctions.length);
  });

  it('grants no "*" action and no service-wide action anywhere', () => {
    for (const { role, statement } of grants()) {
      for (const action of asList<string>(statement.Action)) {
        expect(action, role).not.toBe('*');
        expect(action, role).not.toMatch(/:\*$/);
        expect(action, role).toMatch(/^[a-z0-9-]+:[A-Za-z]+$/);
      }
      expect(statement.NotAction, role).toBeUndefined();
      expect(statement.NotResource, role).toBeUndefined();
    }
  });

  it('grants DynamoDB only on this table, its indexes and its stream, and S3 only on the reports/ prefix of its bucket', () => {
    const [[tableId]] = ofType('AWS::DynamoDB::Table');
    const [[bucketId]] = ofType('AWS::S3::Bucket');
    const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
    const allowedTable = [tableArn, { 'Fn::Join': ['', [tableArn, '/index/*']] }, { 'Fn::GetAtt': [tableId, 'StreamArn'] }];
    const allowedBucket = [{ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/reports/*']] }];
    let checked = 0;
    for (const { role, statement } of grants()) {
      const actions = asList<string>(statement.Action);
      const services = new Set(actions.map((action) => action.split(':')[0]));
      if (!services.has('dynamodb') && !services.has('s3')) continue;
      // One service per statement, so a resource is never shared between a table action and a bucket action.
      expect(services.size, role).toBe(1);
      for (const resource of asList<Json>(statement.Resource)) {
        expect(resource, `${role} ${actions.join(',')}`).not.toBe('*');
        expect(services.has('dynamodb') ? allowedTable : allowedBucket, `${role} ${actions.join(',')}`).toContainEqual(resource);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(backgroundFunctions.length);
  });

  it("lets only the report functions touch S3 or SES, and no role but the stream reader's read the stream", () => {
    const users = rolesByUser();
    const functions = Object.fromEntries(ofType('AWS::Lambda::Function'));
    const reportHandlers = new Set(
      [
        ...routes.filter((route) => route.reportsBucket).map((route) => `${route.name}: ${route.method} ${route.path}`),
        ...backgroundFunctions.filter((job) => job.reportsBucket || job.sendsEmail).map((job) => job.summary),
      ].map(String),
    );
    const streamReaders = new Set(backgroundFunctions.filter((job) => 'tableStream' in job.trigger).map((job) => job.summary));
    for (const { role, statement } of grants()) {
      const user = users.get(role)!;
      const description = functions[user]?.Properties.Description ?? user;
      const actions = asList<string>(statement.Action);
      if (actions.some((action) => action.startsWith('s3:') || action.startsWith('ses:'))) {
        expect(reportHandlers.has(description), `${description} holds ${actions.join(',')}`).toBe(true);
      }
      if (actions.some((action) => /^dynamodb:(GetRecords|GetShardIterator|DescribeStream|ListStreams)$/.test(action))) {
        expect(streamReaders.has(description), description).toBe(true);
      }
    }
  });
});

// --- operations ---------------------------------------------------------------

describe('operations', () => {
  it.each(backgroundFunctions.map((job) => [job.name, job] as const))(
    '%s has an alarm on its own failures: crashes, timeouts and logged errors',
    (name, job) => {
      const [functionId] = ofType('AWS::Lambda::Function').find(([, func]) => func.Properties.Description === job.summary)!;
      const logGroupId = resources[functionId].Properties.LoggingConfig.LogGroup.Ref;
      const filters = ofType('AWS::Logs::MetricFilter').filter(([, filter]) => filter.Properties.LogGroupName.Ref === logGroupId);
      expect(filters).toHaveLength(1);
      const [, filter] = filters[0];
      expect(filter.Properties.FilterPattern).toBe('{ $.level = "ERROR" }');
      const [transformation] = filter.Properties.MetricTransformations;

      const [[topicId]] = ofType('AWS::SNS::Topic');
      const alarms = ofType('AWS::CloudWatch::Alarm').filter(([, alarm]) =>
        (alarm.Properties.Metrics ?? []).some((query: Json) => query.MetricStat?.Metric.MetricName === transformation.MetricName),
      );
      expect(alarms, `${name} failure alarm`).toHaveLength(1);
      const [, alarm] = alarms[0];
      expect(alarm.Properties).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
        AlarmActions: [{ Ref: topicId }],
      });
      const metrics = alarm.Properties.Metrics.filter((query: Json) => query.MetricStat).map((query: Json) => query.MetricStat);
      expect(metrics).toContainEqual(
        expect.objectContaining({
          Metric: { Namespace: 'AWS/Lambda', MetricName: 'Errors', Dimensions: [{ Name: 'FunctionName', Value: { Ref: functionId } }] },
          Stat: 'Sum',
        }),
      );
      expect(metrics).toContainEqual(
        expect.objectContaining({
          Metric: { Namespace: transformation.MetricNamespace, MetricName: transformation.MetricName },
          Stat: 'Sum',
        }),
      );
      const expression = alarm.Properties.Metrics.find((query: Json) => query.Expression);
      expect(expression).toMatchObject({ ReturnData: true });
      expect(expression.Expression).toMatch(/FILL\(\w+, 0\) \+ FILL\(\w+, 0\)/);
    },
  );
});
