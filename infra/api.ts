/**
 * The HTTP API: one `$default` stage with throttling, optional CORS, and a
 * route per served path of each entry of the route table.
 */
import { Duration } from 'aws-cdk-lib';
import {
  CorsHttpMethod,
  type CorsPreflightOptions,
  HttpApi,
  HttpMethod,
  type HttpStage,
  type IHttpRouteAuthorizer,
  type ThrottleSettings,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { type Route, routes, servedPaths } from '../lib/routes';
import { requiredScope } from './access';

export interface ServiceApiProps {
  /** Checks the bearer token of every route that is not public. */
  authorizer: IHttpRouteAuthorizer;
  throttle: Required<ThrottleSettings>;
  /** Browser origins allowed to call the API; none (the default) leaves CORS closed. */
  corsAllowOrigins?: string[];
}

/** Request headers of the contract that a browser must be allowed to send (API.md, "Safety for scripts"). */
const CORS_ALLOW_HEADERS = ['authorization', 'content-type', 'idempotency-key', 'if-match'];
/** Response headers a browser script needs to read: the tag for If-Match, the address of a created resource. */
const CORS_EXPOSE_HEADERS = ['etag', 'location'];

function corsPreflight(allowOrigins: string[]): CorsPreflightOptions {
  const methods = [...new Set(routes.map((route) => route.method))];
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
  private readonly authorizer: IHttpRouteAuthorizer;

  constructor(scope: Construct, id: string, props: ServiceApiProps) {
    super(scope, id);
    this.authorizer = props.authorizer;
    const origins = props.corsAllowOrigins ?? [];
    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Department and group administration API',
      // The stage HttpApi would create cannot be throttled; this one is made below.
      createDefaultStage: false,
      corsPreflight: origins.length > 0 ? corsPreflight(origins) : undefined,
    });
    this.stage = this.httpApi.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle,
    });
  }

  /** Serves `route` on each of its paths with `handler`, behind the scope its access level demands. */
  addRoute(route: Route, handler: IFunction): void {
    const integration = new HttpLambdaIntegration(`${route.operationId}Integration`, handler);
    const scope = requiredScope(route.access);
    const auth = scope ? { authorizer: this.authorizer, authorizationScopes: [scope] } : {};
    for (const path of servedPaths(route)) {
      this.httpApi.addRoutes({ path, methods: [HttpMethod[route.method]], integration, ...auth });
    }
  }

  get url(): string {
    return this.stage.url;
  }
}
