/**
 * Calls a route's handler (`functions/<name>.ts`, imported on first use) in process, the way Lambda would behind API
 * Gateway: an HTTP API payload 2.0 event (as infra/local/gateway.ts builds it) and a Lambda context.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type { Context } from 'aws-lambda';
import { lambdaContext as localContext } from '../../../infra/local/event';
import { routes, type Route } from '../../../lib/routes';
import { measure } from './capacity-meter';
import { projectRoot } from './util';

/**
 * `params`: path parameters; `scimTokenId`: the live token's id the SCIM authorizer hands on (default `bench`);
 * `rawPath`: the path as a client sent it (default: the route's, with `params`).
 */
export type Invocation = {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  scimTokenId?: string;
  rawPath?: string;
};

export type LambdaResult = { statusCode: number; headers?: Record<string, string>; body?: string };

type Handler = (event: unknown, context: Context) => Promise<LambdaResult>;

const loaded = new Map<string, Promise<Handler>>();

/** The route the bench names `operationId`: by its name or its contract label (E1…G8). */
export function routeOf(operationId: string): Route {
  const route = routes.find((r) => r.name === operationId || r.label === operationId);
  if (!route) throw new Error(`no route named ${operationId}`);
  return route;
}

export function loadHandler(operationId: string): Promise<Handler> {
  const { name } = routeOf(operationId);
  const file = pathToFileURL(join(projectRoot, 'functions', `${name}.ts`)).href;
  const handler = loaded.get(name) ?? import(file).then((module: { handler: Handler }) => module.handler);
  loaded.set(name, handler);
  return handler;
}

/** The event API Gateway sends for this route (JWT authorizer with write scope on protected routes). */
export function routeEvent(operationId: string, invocation: Invocation = {}) {
  const route = routeOf(operationId);
  const rawPath =
    invocation.rawPath ?? route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(invocation.params?.[name] ?? ''));
  const query = invocation.query && Object.keys(invocation.query).length > 0 ? invocation.query : undefined;
  const rawQueryString = query ? new URLSearchParams(query).toString() : '';
  const now = new Date();
  const headers: Record<string, string> = { host: 'bench.local', 'user-agent': 'bench' };
  if (invocation.body !== undefined) headers['content-type'] = route.access === 'scim' ? 'application/scim+json' : 'application/json';
  return {
    ...{ version: '2.0', routeKey: `${route.method} ${route.path}`, rawPath, rawQueryString, headers },
    ...{ queryStringParameters: query, pathParameters: invocation.params },
    requestContext: {
      ...{ accountId: '000000000000', apiId: 'bench', domainName: 'bench.local', domainPrefix: 'bench' },
      http: { method: route.method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      ...{ requestId: randomUUID(), routeKey: `${route.method} ${route.path}`, stage: '$default' },
      ...{ time: now.toISOString(), timeEpoch: now.getTime() },
      ...(route.access === 'public'
        ? {}
        : route.access === 'scim'
          ? // What the SCIM authorizer hands on for a live token (functions/scimAuthorizer.ts): its id.
            { authorizer: { lambda: { tokenId: invocation.scimTokenId ?? 'bench' } } }
          : { authorizer: { jwt: { claims: { sub: 'bench', scope: 'admin/read admin/write' }, scopes: ['admin/read', 'admin/write'] } } }),
    },
    body: invocation.body === undefined ? undefined : JSON.stringify(invocation.body),
    isBase64Encoded: false,
  };
}

/** The local gateway's Lambda context, telling the handler it has `timeoutMs` left (the deployed default 10 s unless told). */
export function lambdaContext(functionName: string, timeoutMs = 10_000): Context {
  const deadline = Date.now() + timeoutMs;
  return { ...localContext(functionName, randomUUID()), getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
}

/**
 * One invocation of the route's handler, metered (capacity-meter.ts: meterCapacity first) and timed; a handler that
 * throws answers 599. The handler is told it has the route's deployed timeout left, unless `timeoutMs` says otherwise.
 */
export async function metered(operationId: string, invocation: Invocation = {}, timeoutMs?: number) {
  const [handler, route] = [await loadHandler(operationId), routeOf(operationId)];
  const context = lambdaContext(route.name, timeoutMs ?? (route.timeoutSeconds ?? 10) * 1000);
  const { result, capacity, ms } = await measure(() =>
    handler(routeEvent(operationId, invocation), context).catch((error: unknown) => ({
      statusCode: 599,
      body: JSON.stringify({ thrown: String(error) }),
    })),
  );
  let body: Record<string, unknown> | undefined;
  try {
    body = JSON.parse(result.body ?? '') as Record<string, unknown>;
  } catch {}
  return { status: result.statusCode, body, text: result.body ?? '', capacity, ms };
}

/** Invokes the route's handler; throws unless the status is 2xx/3xx. */
export const invoke = async (operationId: string, invocation: Invocation = {}) => (await prepared(operationId, invocation))();

/** The handler, loaded once, bound to one invocation (the overhead loop calls it many times). */
export async function prepared(operationId: string, invocation: Invocation, timeoutMs?: number): Promise<() => Promise<LambdaResult>> {
  const handler = await loadHandler(operationId);
  const route = routeOf(operationId);
  // As deployed: the route's own timeout unless the caller says otherwise.
  const timeout = timeoutMs ?? (route.timeoutSeconds ?? 10) * 1000;
  return async () => {
    const result = await handler(routeEvent(operationId, invocation), lambdaContext(route.name, timeout));
    if (result.statusCode >= 400) throw new Error(`${operationId} answered ${result.statusCode}: ${(result.body ?? '').slice(0, 400)}`);
    return result;
  };
}
