/**
 * The cdk-nag (AwsSolutions pack) findings this stack accepts, each with the
 * reason, in this one place. Everything else the pack reports is fixed in the
 * construct it concerns (password policy, stage access logs, stream access
 * scoped to the table's stream), and test/infra/nag.test.ts fails on any
 * finding that is neither fixed nor listed here.
 *
 * Each acknowledgement is as narrow as cdk-nag allows: on the construct it
 * concerns, and for IAM5 with the exact finding (the one resource pattern),
 * so a new wildcard elsewhere is still reported.
 */
import { type CfnElement, Names, type Stack, Validations } from 'aws-cdk-lib';
import { CfnRoute } from 'aws-cdk-lib/aws-apigatewayv2';
import { UserPool } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IConstruct } from 'constructs';
import { FALLBACK_FUNCTION, type Route, routeKeys, routes } from '../lib/routes';
import { tableStatementsFor } from './access';
import { FUNCTION_RUNTIME } from './bundling';

const BASIC_EXECUTION_ROLE = 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]';

/** The route keys (`GET /v2/health`, `HEAD /v2/health`, ...) the contract serves without a token. */
export const PUBLIC_ROUTE_KEYS: ReadonlySet<string> = new Set(routes.filter((route) => route.access === 'public').flatMap(routeKeys));

function acknowledge(scope: IConstruct, id: string, reason: string): void {
  Validations.of(scope).acknowledge({ id, reason });
}

/** What the acknowledgements concern: the stack and the constructs it made (infra/stack.ts). */
export interface NagSubject extends Stack {
  readonly table: ITable;
  readonly reportsBucket: IBucket;
  readonly routeFunctions: ReadonlyMap<string, NodejsFunction>;
  readonly fallbackFunction: NodejsFunction;
  readonly backgroundJobs: ReadonlyMap<string, { function: NodejsFunction; deadLetterQueue: IQueue; changeRuleDeadLetterQueue?: IQueue }>;
  readonly scimAuthorizerFunction: NodejsFunction;
  readonly accessTokenScopesFunction?: NodejsFunction;
  readonly api: IConstruct;
  /** The nested stacks of the routes (infra/route-stack.ts), which name the table and bucket by parameters. */
  readonly routeStacks: ReadonlyMap<string, Stack & { readonly routes: readonly Route[] }>;
}

export function acknowledgeNagFindings(stack: NagSubject): void {
  const logicalId = (construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as CfnElement);

  const functions: NodejsFunction[] = [
    ...stack.routeFunctions.values(),
    stack.fallbackFunction,
    ...[...stack.backgroundJobs.values()].map((job) => job.function),
    stack.scimAuthorizerFunction,
    ...(stack.accessTokenScopesFunction ? [stack.accessTokenScopesFunction] : []),
  ];
  // Each function's role is its own, a child of the function: the acknowledgement on the function covers it.
  for (const subject of functions) {
    acknowledge(
      subject,
      BASIC_EXECUTION_ROLE,
      'AWSLambdaBasicExecutionRole grants only logs:CreateLogGroup, logs:CreateLogStream and logs:PutLogEvents: writing ' +
        "the function's own logs, nothing to read and no data. Every data permission is an inline statement scoped to the " +
        "table, its stream or the reports bucket's reports/ prefix (asserted per function in test/infra).",
    );
  }
  for (const subject of functions) {
    acknowledge(
      subject,
      'AwsSolutions-IAM5[Resource::*]',
      'Active tracing (infra/service-function.ts) grants xray:PutTraceSegments and xray:PutTelemetryRecords, which take no ' +
        'resource (X-Ray has no resource-level permissions for them): they write trace data and read nothing. ' +
        "test/infra/stack.test.ts fails on any other action on Resource '*', which this acknowledgement would not catch.",
    );
  }
  for (const fn of functions) {
    if (fn.runtime === FUNCTION_RUNTIME) {
      acknowledge(
        fn,
        'AwsSolutions-L1',
        `Every function runs ${FUNCTION_RUNTIME.name}, a Node.js LTS runtime Lambda supports and patches; the bundle targets ` +
          'it (infra/bundling.ts) and the tests run the handlers on it. Moving to a newer runtime is a deliberate upgrade ' +
          'made with its own test run, not something synth should pick up silently.',
      );
    }
  }

  // The root names the table and bucket by logical id; a nested stack by the parameter CDK makes for the reference
  // (`referenceto<the resource's unique id>Arn`), the same in each.
  const arnIn = (scope: Stack, resource: IConstruct) =>
    scope === stack ? `${logicalId(resource)}.Arn` : `referenceto${Names.nodeUniqueId((resource.node.defaultChild as CfnElement).node)}Arn`;
  // Each where it occurs: the root (background functions), and the route stacks whose routes read indexes
  // (a table statement not narrowed to items) or sign report downloads.
  const routeStacks = [...stack.routeStacks.values()];
  const readsIndexes = routeStacks.filter((scope) =>
    scope.routes.some((route) => tableStatementsFor(route).some((statement) => statement.items === undefined)),
  );
  const signsReports = routeStacks.filter((scope) => scope.routes.some((route) => route.reportsBucket === 'presign'));
  for (const scope of [stack, ...readsIndexes]) {
    acknowledge(
      scope,
      `AwsSolutions-IAM5[Resource::<${arnIn(scope, stack.table)}>/index/*]`,
      "The wildcard is the index part of this one table's ARN: it covers only the table's own global secondary indexes " +
        '(lib/db/table.ts), which the list queries read, and no other table. The actions with it are listed one by one ' +
        '(infra/access.ts): no dynamodb:*, no Scan.',
    );
  }
  for (const scope of [stack, ...signsReports]) {
    acknowledge(
      scope,
      `AwsSolutions-IAM5[Resource::<${arnIn(scope, stack.reportsBucket)}>/reports/*]`,
      'Report objects get their key when a report is created (reports/<type>/<id>.csv), so no fixed ARN can name them; the ' +
        "wildcard stays within the reports/ prefix of the service's own bucket. Only the report worker may write there " +
        '(PutObject, AbortMultipartUpload) and only the report routes may read (GetObject, to sign download links).',
    );
  }

  acknowledge(
    stack.reportsBucket,
    'AwsSolutions-S1',
    'The bucket holds only generated CSV reports that expire after 7 days. Every request to it is made by the report ' +
      'worker or through a link signed for one report by a route whose call is in the API access log with the caller; ' +
      'access logs would need a second bucket of their own, with the same finding, to record nothing new.',
  );

  const deadLetterQueues = [
    ...[...stack.backgroundJobs.values()].flatMap((job) => [
      job.deadLetterQueue,
      ...(job.changeRuleDeadLetterQueue ? [job.changeRuleDeadLetterQueue] : []),
    ]),
  ];
  for (const queue of deadLetterQueues) {
    acknowledge(
      queue,
      'AwsSolutions-SQS3',
      'This queue is itself a dead-letter queue (of a background function, or of the rule that feeds ' +
        'the webhook queue); its depth raises an alarm, and a dead-letter queue of a dead-letter queue would hide nothing more.',
    );
  }

  // The fallback's route is the API's own; the others are in the route stacks.
  for (const route of stack.node.findAll().filter((node): node is CfnRoute => node instanceof CfnRoute)) {
    if (route.routeKey === FALLBACK_FUNCTION.routeKey) {
      acknowledge(
        route,
        'AwsSolutions-APIG4',
        'The $default route only catches requests no route key matches, for the fallback function to answer 404 or 405 ' +
          '(an unknown path is 404, a known one with another method 405 with Allow) from the route table, which the ' +
          'public OpenAPI document already shows. Its function reads no data and has no permission beyond its own logs.',
      );
      continue;
    }
    if (!PUBLIC_ROUTE_KEYS.has(route.routeKey)) continue;
    acknowledge(
      route,
      'AwsSolutions-APIG4',
      `${route.routeKey} is public by contract (health check, OpenAPI document, docs page): it serves no data of ` +
        'the organization and changes nothing. Every other route demands the JWT authorizer with its scope (test/infra).',
    );
  }

  for (const pool of stack.node.findAll().filter((node): node is UserPool => node instanceof UserPool)) {
    acknowledge(
      pool,
      'AwsSolutions-COG2',
      'MFA is not required: the machine client uses the client-credentials grant (no password, no MFA step; its secret is ' +
        'the credential), and the people who sign in to the console are only those an operator creates (no self sign-up, ' +
        'no self-service recovery), with 14-character passwords of every character class. Turning on required MFA is a ' +
        'pool setting CloudFormation cannot always change in place, and the hosted login then makes each person enrol TOTP.',
    );
    acknowledge(
      pool,
      'AwsSolutions-COG8',
      'The Plus feature plan adds threat protection for sign-ins (compromised credentials, adaptive authentication) at a ' +
        'higher price per active user and without a free tier. The people of this pool are a few administrators an operator ' +
        'creates by hand; Essentials (what the access-token trigger needs) is kept, and sign-ins are in CloudTrail.',
    );
  }
}
