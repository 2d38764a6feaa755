/**
 * The HTTP API: one `$default` stage with throttling (the stage's, and a
 * lower one on each route the route table marks costly), optional CORS, a route
 * per route key of each entry of the route table (its method and HEAD for a
 * GET, on each served path), and the `$default` route to the fallback
 * function, which answers 404/405 problems where API Gateway would answer
 * its own `{"message":"Not Found"}`.
 */
import { Duration } from 'aws-cdk-lib';
import {
  type CfnStage,
  CorsHttpMethod,
  type CorsPreflightOptions,
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  type HttpStage,
  type IHttpRouteAuthorizer,
  LogGroupLogDestination,
  type ThrottleSettings,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { FALLBACK_FUNCTION, requiredScope, type Route, routeKeys, routes, servedMethods, servedPaths } from '../lib/routes';
import { LOG_RETENTION } from './service-function';

export interface ServiceApiProps {
  /** Checks the JWT of every admin route (access read or write). */
  authorizer: IHttpRouteAuthorizer;
  /** Checks the SCIM token of every SCIM route (access scim), and no other. */
  scimAuthorizer: IHttpRouteAuthorizer;
  throttle: Required<ThrottleSettings>;
  /** Browser origins allowed to call the API; none (the default) leaves CORS closed. */
  corsAllowOrigins?: string[];
}

/**
 * Who called what and how it ended, without bodies or tokens: the request id
 * finds the function's log lines, `sub` is the token's subject, `scimTokenId`
 * the id (never the secret) of the SCIM token a SCIM request came with.
 */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    time: '$context.requestTime',
    ip: '$context.identity.sourceIp',
    routeKey: '$context.routeKey',
    status: '$context.status',
    latencyMs: '$context.responseLatency',
    responseLength: '$context.responseLength',
    sub: '$context.authorizer.claims.sub',
    scimTokenId: '$context.authorizer.tokenId',
    authorizerError: '$context.authorizer.error',
    integrationError: '$context.integrationErrorMessage',
  }),
);

/**
 * One invoke permission per function, for any route of this API, rather
 * than one per route key: a route is served under up to four keys (GET and
 * HEAD, each with its `.json` form), and a permission each would fill a
 * template towards CloudFormation's 500 resources as routes are added. Every
 * route of this API is the service's own, so the wider source grants nothing
 * another caller could use.
 */
const API_SCOPED_PERMISSION = { scopePermissionToRoute: false } as const;

/** Request headers of the API that a browser must be allowed to send (token, JSON body, idempotency key, ETag). */
const CORS_ALLOW_HEADERS = ['authorization', 'content-type', 'idempotency-key', 'if-match'];
/** Response headers a browser script needs to read: the tag for If-Match, the address of a created resource. */
const CORS_EXPOSE_HEADERS = ['etag', 'location'];

function corsPreflight(allowOrigins: string[]): CorsPreflightOptions {
  const methods = [...new Set(routes.flatMap(servedMethods))];
  return {
    allowOrigins,
    allowMethods: methods.map((method) => CorsHttpMethod[method]),
    allowHeaders: CORS_ALLOW_HEADERS,
    exposeHeaders: CORS_EXPOSE_HEADERS,
    maxAge: Duration.hours(1),
  };
}

export class ServiceApi extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  /** One JSON line per request, including those API Gateway answers itself (401, 403, 404, 429). */
  readonly accessLogs: LogGroup;
  private readonly authorizer: IHttpRouteAuthorizer;
  private readonly scimAuthorizer: IHttpRouteAuthorizer;
  /** The stage's throttles per route key, for the routes of the table that carry one. */
  private readonly routeThrottles: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};

  constructor(scope: Construct, id: string, props: ServiceApiProps) {
    super(scope, id);
    this.authorizer = props.authorizer;
    this.scimAuthorizer = props.scimAuthorizer;
    const origins = props.corsAllowOrigins ?? [];
    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Department and group administration API',
      // The stage HttpApi would create cannot be throttled; this one is made below.
      createDefaultStage: false,
      corsPreflight: origins.length > 0 ? corsPreflight(origins) : undefined,
    });
    this.accessLogs = new LogGroup(this, 'AccessLogs', { retention: LOG_RETENTION });
    this.stage = this.httpApi.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle,
      accessLogSettings: { destination: new LogGroupLogDestination(this.accessLogs), format: ACCESS_LOG_FORMAT },
    });
    // Filled in by addRoute (CloudFormation names: the property is untyped, so CDK passes it as it is).
    (this.stage.node.defaultChild as CfnStage).routeSettings = this.routeThrottles;
  }

  /**
   * Serves `route` with `handler` under each of its route keys (HEAD too for a GET), behind the scope its access
   * level demands. The routes, their integration and the invoke permission are made in `scope`, the function's
   * nested stack (infra/route-stack.ts), so that a route costs the root template nothing; the authorizers stay with
   * the API, and the nested stack names them and the API by parameters.
   */
  addRoute(route: Route, handler: IFunction, scope: Construct): void {
    const integration = new HttpLambdaIntegration(`${route.name}Integration`, handler, API_SCOPED_PERMISSION);
    const scopeName = requiredScope(route.access);
    const auth =
      route.access === 'scim'
        ? { authorizer: this.scimAuthorizer }
        : scopeName
          ? { authorizer: this.authorizer, authorizationScopes: [scopeName] }
          : {};
    for (const path of servedPaths(route)) {
      for (const method of servedMethods(route)) {
        const added = new HttpRoute(scope, `${method}${path}`, {
          httpApi: this.httpApi,
          routeKey: HttpRouteKey.with(path, HttpMethod[method]),
          integration,
          ...auth,
        });
        // A stage's route settings name route keys that must exist first (CloudFormation: the stage waits for the nested stack).
        if (route.throttle) this.stage.node.addDependency(added);
      }
    }
    if (route.throttle) {
      for (const key of routeKeys(route)) {
        this.routeThrottles[key] = { ThrottlingRateLimit: route.throttle.rate, ThrottlingBurstLimit: route.throttle.burst };
      }
    }
  }

  /**
   * The `$default` route: every request no route key matches goes to
   * `handler` (the fallback function), with no token, as the local gateway
   * does; it answers 404, or 405 with Allow, and reads no data.
   */
  addFallback(handler: IFunction): HttpRoute {
    return new HttpRoute(this, 'DefaultRoute', {
      httpApi: this.httpApi,
      routeKey: HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration(`${FALLBACK_FUNCTION.name}Integration`, handler, API_SCOPED_PERMISSION),
    });
  }

  /** The API's base URL (`https://<id>.execute-api.<region>.amazonaws.com/`). */
  get url(): string {
    return this.stage.url;
  }

  /** The address of one of the API's paths (`/console` → `<url>console`). */
  urlOf(path: string): string {
    return `${this.url}${path.replace(/^\//, '')}`;
  }
}
