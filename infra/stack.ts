/**
 * The whole service on AWS: table, reports bucket, token issuer, HTTP API,
 * one Lambda function per entry of the route table (lib/routes.ts), the
 * fallback function of the `$default` route, one function per background
 * entry (lib/background.ts) with its trigger, and the change events.
 *
 * The routes live in one nested stack per tag of the route table
 * (infra/route-stack.ts); everything else, and every output, is in this root
 * stack, so that no template grows with the route table as a whole.
 */
import { fileURLToPath } from 'node:url';
import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { ThrottleSettings } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import type { Dashboard } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { consoleSignInEnvironment, loadConfig, SERVICE_NAME } from '../lib/config';
import { ACCESS_TOKEN_TRIGGER } from '../lib/auth/group-scopes';
import { backgroundFunctions, STREAM_ROUTER, WEBHOOK_DELIVERY } from '../lib/background';
import { FALLBACK_FUNCTION, type Route, routes as routeTable } from '../lib/routes';
import { SCIM_AUTHORIZER_STATEMENTS } from './access';
import { ServiceAlarms } from './alarms';
import { ServiceApi } from './api';
import { ServiceDashboard } from './dashboard';
import { ApiAuth, CONSOLE_SCOPES, type ExternalConsoleClient, type ExternalIssuer } from './auth';
import { BackgroundJob } from './background';
import { ChangeEvents } from './change-events';
import { acknowledgeNagFindings } from './nag';
import { LOG_RETENTION, ServiceFunction } from './service-function';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { RouteStack, routesByTag, routeStackId } from './route-stack';
import { createReportsBucket, createTable } from './storage';

export interface DeptAdminStackProps extends StackProps {
  /** Issuer of an external OIDC provider; with `jwtAudience`, replaces the Cognito user pool. */
  jwtIssuer?: string;
  jwtAudience?: string[];
  /**
   * The console's public client at the external issuer (authorization code with PKCE): its id, authorize and token
   * endpoints together, scopes (default `openid admin/read admin/write`) and logout endpoint optional. Unset: the
   * console takes a pasted token. With Cognito the stack makes the client itself.
   */
  consoleClientId?: string;
  consoleAuthorizeUrl?: string;
  consoleTokenUrl?: string;
  consoleScopes?: string[];
  consoleLogoutUrl?: string;
  /** Seat limit of every department; unset means no limit. */
  departmentSeats?: number;
  /** Domains report e-mails may go to (`['*']`: any); unset or empty: report e-mail goes to no one. */
  reportEmailDomains?: string[];
  reportEmailFrom?: string;
  /** Browser origins allowed by CORS; unset keeps CORS closed. */
  corsAllowOrigins?: string[];
  /** Requests per second (steady and burst) of the whole stage. */
  throttle?: Required<ThrottleSettings>;
  /** Directory holding `functions/` and `package-lock.json`; tests point it at placeholders. */
  projectRoot?: string;
  /** The routes to serve: the route table (lib/routes.ts); the quota test gives a larger one. */
  routes?: readonly Route[];
}

export const DEFAULT_THROTTLE: Required<ThrottleSettings> = { rateLimit: 50, burstLimit: 100 };

/** The directory above infra/: where the handlers and the lock file live. */
export const REPOSITORY_ROOT = fileURLToPath(new URL('..', import.meta.url));

export class DeptAdminStack extends Stack {
  readonly table: ITable;
  readonly reportsBucket: IBucket;
  readonly api: ServiceApi;
  /** The function of each route, by operation id. */
  readonly routeFunctions = new Map<string, NodejsFunction>();
  /** The function of the `$default` route: 404/405 for requests no route matches. */
  readonly fallbackFunction: NodejsFunction;
  /** The bus that carries one event per change (stream → StreamRouter → bus). */
  readonly changeEvents: ChangeEvents;
  /** Each background function and its dead-letter queue, by name. */
  readonly backgroundJobs = new Map<string, BackgroundJob>();
  /** The queue of webhook deliveries: its function reads it, the change rule and the webhook routes send to it. */
  readonly webhookQueue: IQueue;
  /** The SCIM routes' authorizer (functions/scimAuthorizer.ts). */
  readonly scimAuthorizerFunction: NodejsFunction;
  /** The Cognito pool's pre-token-generation trigger (functions/accessTokenScopes.ts); none with an external issuer. */
  readonly accessTokenScopesFunction?: NodejsFunction;
  /** The nested stack of each tag of the route table, by tag. */
  readonly routeStacks = new Map<string, RouteStack>();
  /** The CloudWatch dashboard: API, table, functions and the business metrics (infra/dashboard.ts). */
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: DeptAdminStackProps = {}) {
    super(scope, id, props);

    const table = createTable(this, 'Table');
    const reportsBucket = createReportsBucket(this, 'ReportsBucket');
    const environment = functionEnvironment(props, table, reportsBucket);
    const projectRoot = props.projectRoot ?? REPOSITORY_ROOT;
    const routes = props.routes ?? routeTable;
    const scimAuthorizerFunction = new ServiceFunction(this, 'ScimAuthorizer', {
      handler: 'scimAuthorizer',
      description: 'SCIM routes: checks the SCIM token of each request (lib/scim/tokens.ts)',
      tableStatements: SCIM_AUTHORIZER_STATEMENTS,
      projectRoot,
      environment,
      table,
    }).function;
    this.scimAuthorizerFunction = scimAuthorizerFunction;
    const external = externalIssuer(props);
    if (!external) {
      // No table, bucket or other access: it reads the groups Cognito sends it (lib/auth/group-scopes.ts).
      this.accessTokenScopesFunction = new ServiceFunction(this, ACCESS_TOKEN_TRIGGER.name, {
        handler: ACCESS_TOKEN_TRIGGER.handler,
        description: ACCESS_TOKEN_TRIGGER.summary,
        tableStatements: [],
        projectRoot,
        environment,
        table,
      }).function;
    }
    const auth = new ApiAuth(this, 'Auth', external ? { external } : { accessTokenScopes: this.accessTokenScopesFunction! });
    const api = new ServiceApi(this, 'Api', {
      authorizer: auth.authorizer,
      scimAuthorizer: new HttpLambdaAuthorizer('ScimTokenAuthorizer', scimAuthorizerFunction, {
        responseTypes: [HttpLambdaResponseType.SIMPLE],
        identitySource: ['$request.header.Authorization'],
        // The contract: a deleted token stops working within 5 minutes on AWS.
        resultsCacheTtl: Duration.minutes(5),
      }),
      throttle: props.throttle ?? DEFAULT_THROTTLE,
      corsAllowOrigins: props.corsAllowOrigins,
    });
    this.table = table;
    this.reportsBucket = reportsBucket;
    this.api = api;

    // Before the routes: the webhook routes are given the delivery queue's URL and may send to it.
    const changeEvents = new ChangeEvents(this, 'ChangeEvents');
    this.changeEvents = changeEvents;
    for (const job of backgroundFunctions) {
      this.backgroundJobs.set(
        job.name,
        new BackgroundJob(this, job.name, {
          job,
          projectRoot,
          // The worker's e-mail links to the API (lib/reports/email-link.ts).
          environment: job.sendsEmail ? { ...environment, API_BASE_URL: api.url } : environment,
          table,
          reportsBucket,
          emailFrom: environment.REPORT_EMAIL_FROM,
          emailDomains: loadConfig(environment).reportEmailDomains,
          changeBus: changeEvents.bus,
          jobs: this.backgroundJobs,
        }),
      );
    }
    const webhookQueue = this.backgroundJobs.get(WEBHOOK_DELIVERY.name)!.queue!;
    this.webhookQueue = webhookQueue;

    // The page people sign in on: the login returns to its URL, and only its function is told how to start one.
    const signInPage = routes.find((route) => route.consoleSignIn);
    const consoleUrl = signInPage ? api.urlOf(signInPage.path) : undefined;
    const signIn = consoleUrl ? auth.signInConsole(consoleUrl) : undefined;
    const signInEnvironment = signIn ? consoleSignInEnvironment(signIn) : {};

    // One log group for every route function, not one each: every line names its function (Powertools'
    // function_name) for Logs Insights, and a route adds no log group to watch.
    const routeLogs = new LogGroup(this, 'RouteFunctionLogs', { retention: LOG_RETENTION });
    for (const [tag, tagRoutes] of routesByTag(routes)) {
      const routeStack = new RouteStack(this, routeStackId(tag), {
        tag,
        routes: tagRoutes,
        api,
        environment,
        signInEnvironment,
        webhookQueue,
        table,
        reportsBucket,
        logGroup: routeLogs,
        projectRoot,
      });
      this.routeStacks.set(tag, routeStack);
      for (const [name, handler] of routeStack.functions) this.routeFunctions.set(name, handler);
    }
    // No table, bucket or other access: it answers from the route table bundled with it.
    this.fallbackFunction = new ServiceFunction(this, FALLBACK_FUNCTION.name, {
      handler: FALLBACK_FUNCTION.handler,
      description: `${FALLBACK_FUNCTION.name}: ${FALLBACK_FUNCTION.routeKey}`,
      tableStatements: [],
      projectRoot,
      environment,
      table,
    }).function;
    api.addFallback(this.fallbackFunction);
    const alarms = new ServiceAlarms(this, 'Alarms', {
      api: api.httpApi,
      deadLetterQueues: [
        ...[...this.backgroundJobs].map(([name, job]) => ({ name, queue: job.deadLetterQueue })),
        ...[...this.backgroundJobs].flatMap(([name, job]) =>
          job.changeRuleDeadLetterQueue ? [{ name: `${name}ChangeRule`, queue: job.changeRuleDeadLetterQueue }] : [],
        ),
      ],
      workers: [...this.backgroundJobs].map(([name, job]) => ({ name, function: job.function })),
      streamReader: this.backgroundJobs.get(STREAM_ROUTER.name)?.function,
    });

    this.dashboard = new ServiceDashboard(this, 'Dashboard', {
      api: api.httpApi,
      table,
      alarms: alarms.alarms,
      queues: [...this.backgroundJobs].flatMap(([name, job]) =>
        job.queue ? [{ name, queue: job.queue, deadLetterQueue: job.deadLetterQueue }] : [],
      ),
    }).dashboard;

    new CfnOutput(this, 'ApiUrl', { value: api.url });
    if (consoleUrl) {
      new CfnOutput(this, 'ConsoleUrl', {
        value: consoleUrl,
        description: signIn
          ? "The admin console; it signs people in through the issuer's login"
          : 'The admin console; it takes a pasted token',
      });
    }
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'ReportsBucketName', { value: reportsBucket.bucketName });
    new CfnOutput(this, 'AlarmTopicArn', { value: alarms.topic.topicArn });
    new CfnOutput(this, 'DashboardName', { value: this.dashboard.dashboardName, description: 'CloudWatch console, Dashboards' });
    new CfnOutput(this, 'ChangeEventBusName', { value: changeEvents.bus.eventBusName });
    new CfnOutput(this, 'JwtIssuer', { value: auth.issuer });
    if (auth.cognito) {
      new CfnOutput(this, 'UserPoolId', { value: auth.cognito.userPool.userPoolId });
      new CfnOutput(this, 'UserPoolClientId', {
        value: auth.cognito.machineClient.userPoolClientId,
        description: 'Machine client; its secret is in the Cognito console',
      });
      new CfnOutput(this, 'TokenUrl', { value: auth.cognito.tokenUrl });
      new CfnOutput(this, 'ConsoleGroups', {
        value: Object.keys(auth.cognito.groups).join(','),
        description:
          'Groups of the user pool: admins read and change (admin/read, admin/write), readers only read (admin/read). Add a person: ' +
          'aws cognito-idp admin-add-user-to-group --user-pool-id <UserPoolId> --username <name> --group-name admins',
      });
    }

    acknowledgeNagFindings(this);
  }
}

function externalIssuer(props: DeptAdminStackProps): ExternalIssuer | undefined {
  const { jwtIssuer, jwtAudience } = props;
  const audience = jwtAudience ?? [];
  const consoleClient = externalConsoleClient(props);
  if (!jwtIssuer && audience.length === 0) {
    if (consoleClient)
      throw new Error(
        "consoleClientId and the other console keys name a client at an external issuer: give jwtIssuer and jwtAudience too (with Cognito the stack makes the console's client)",
      );
    return undefined;
  }
  if (!jwtIssuer || audience.length === 0) {
    throw new Error('jwtIssuer and jwtAudience go together: give both (external issuer) or neither (Cognito)');
  }
  return { issuer: jwtIssuer, audience, ...(consoleClient ? { console: consoleClient } : {}) };
}

/** https, or http on the loopback address (RFC 8252's exception, for an issuer running on this machine). */
function isSignInUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return url.protocol === 'https:' || (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname));
}

/** The console's client at an external issuer: its id and both endpoints together, or no console key at all. */
function externalConsoleClient(props: DeptAdminStackProps): ExternalConsoleClient | undefined {
  const required = {
    consoleClientId: props.consoleClientId,
    consoleAuthorizeUrl: props.consoleAuthorizeUrl,
    consoleTokenUrl: props.consoleTokenUrl,
  };
  const given = Object.entries(required)
    .filter(([, value]) => value !== undefined)
    .map(([key]) => key);
  const anyOptional = props.consoleScopes !== undefined || props.consoleLogoutUrl !== undefined;
  if (given.length === 0 && !anyOptional) return undefined;
  if (given.length < 3) {
    const missing = Object.keys(required).filter((key) => !given.includes(key));
    throw new Error(
      `consoleClientId, consoleAuthorizeUrl and consoleTokenUrl go together (the console's client at the external issuer): ${missing.join(', ')} missing`,
    );
  }
  const client: ExternalConsoleClient = {
    clientId: props.consoleClientId!,
    authorizeUrl: props.consoleAuthorizeUrl!,
    tokenUrl: props.consoleTokenUrl!,
    scopes: props.consoleScopes?.join(' ') ?? CONSOLE_SCOPES,
    ...(props.consoleLogoutUrl ? { logoutUrl: props.consoleLogoutUrl } : {}),
  };
  // Checked here, not by the page's function (it carries no more than it reads): a bad URL fails the synth instead of the page.
  for (const url of [client.authorizeUrl, client.tokenUrl, client.logoutUrl].filter((url) => url !== undefined)) {
    if (!isSignInUrl(url))
      throw new Error(
        `The console's sign-in URLs must be https (or http on the loopback address, an issuer on this machine), got "${url}"`,
      );
  }
  return client;
}

/** The environment every route function reads through lib/config.ts. */
function functionEnvironment(props: DeptAdminStackProps, table: ITable, bucket: IBucket): Record<string, string> {
  const environment: Record<string, string> = {
    TABLE_NAME: table.tableName,
    REPORTS_BUCKET: bucket.bucketName,
    REPORT_EMAIL_FROM: props.reportEmailFrom ?? loadConfig({}).reportEmailFrom,
    NODE_OPTIONS: '--enable-source-maps',
    POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
  };
  if (props.departmentSeats !== undefined) environment.DEPARTMENT_SEATS = String(props.departmentSeats);
  // Always set, empty when not given: a deployment e-mails reports to no one until it names where they may go.
  environment.REPORT_EMAIL_DOMAINS = (props.reportEmailDomains ?? []).join(',');
  // Parse it as the functions will, so a bad value fails the synth instead of every request.
  loadConfig(environment);
  return environment;
}
