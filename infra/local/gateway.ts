/**
 * The local stand-in for API Gateway (HTTP API, Lambda proxy payload 2.0).
 *
 * It serves the route table (lib/routes.ts) the way the deployed API does:
 * route matching with literal segments before parameters, HEAD routes to
 * the GET functions (lib/http/router.ts), the `$default` route's fallback
 * for every request no route matches (lib/http/fallback.ts: 404, or 405 with
 * Allow), the JWT authorizer replaced by two static bearer tokens (auth.ts),
 * the 6 MB Lambda payload limits (a request body over it is a 413; a function's
 * result over it, API Gateway's bare 500) and the event and context a Lambda handler
 * receives on AWS (event.ts). This module runs the server; the functions run
 * from their bundles in the function host (functions.ts), and a function that
 * fails gets API Gateway's own answers (its bare 500; 503 past 30 s).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { fallbackHandler } from '../../lib/http/fallback';
import { MAX_RESPONSE_PAYLOAD_BYTES, responsePayloadBytes } from '../../lib/http/payload-limit';
import { problemResponse } from '../../lib/http/problem';
import type { HttpResponse } from '../../lib/http/response';
import type { ScimAuthorizerContext } from '../../lib/http/scim-wire';
import { createRouter } from '../../lib/http/router';
import type { ProblemSlug } from '../../lib/problems';
import { FALLBACK_FUNCTION, routeKeys, routes as routeTable, type Route } from '../../lib/routes';
import { verifyScimToken } from '../../lib/scim/tokens';
import { createAuthenticator, type Principal } from './auth';
import { FunctionError } from './functions';
import { buildEvent, lambdaContext, MAX_REQUEST_BYTES, PayloadTooLarge, readBody, type GatewayEvent } from './event';

export { MAX_REQUEST_BYTES, type GatewayEvent };

export type LambdaHandler = (event: GatewayEvent, context: Context) => Promise<unknown>;

/** What API Gateway sends a REQUEST authorizer with simple responses (payload 2.0), as far as ours reads it. */
export interface ScimAuthorizerEvent {
  version: '2.0';
  type: 'REQUEST';
  routeArn: string;
  identitySource: string[];
  routeKey: string;
  rawPath: string;
  headers: Record<string, string>;
}

/** API Gateway's own answer when the integration fails (the function's error, or a result it cannot use). */
const INTERNAL_SERVER_ERROR: WireResponse = {
  statusCode: 500,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from('{"message":"Internal Server Error"}'),
};

/** HTTP API's integration timeout: past it API Gateway answers 503 whatever the function still does. */
const INTEGRATION_TIMEOUT_MS = 30_000;
const SERVICE_UNAVAILABLE: WireResponse = {
  statusCode: 503,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from('{"message":"Service Unavailable"}'),
};

export interface GatewayOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** `write` grants read and write; `read` grants read only. */
  tokens: { write: string; read?: string };
  /** Each route's function: from its bundle (infra/local/functions.ts `FunctionHost.handler`), or a test's fixture. */
  loadHandler: (route: Route) => Promise<LambdaHandler>;
  /**
   * The SCIM routes' Lambda authorizer (functions/scimAuthorizer.ts, from its bundle); without it the gateway checks
   * the token in this process (lib/scim/tokens.ts), for tests of the gateway alone.
   */
  scimAuthorizer?: (event: ScimAuthorizerEvent, context: Context) => Promise<unknown>;
  /**
   * The `$default` route's function (functions/fallback.ts, from its bundle); without it the gateway answers with
   * the same code in this process over its own routes (a test's fixture, or the table).
   */
  fallbackFunction?: LambdaHandler;
  /** Defaults to the route table; tests pass a fixture (the fallback answers from the same list). */
  routes?: readonly Route[];
  /** One line per request (method, path, status, ms, and the SCIM token's id on SCIM routes); off when absent. */
  accessLog?: (line: string) => void;
}

export interface Gateway {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:3000`. */
  url: string;
  close(): Promise<void>;
}

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Why a test may run the handlers from their TypeScript source in its own process instead of from their bundles
 * (infra/local/functions.ts): the only reasons there are. Everything else, `npm start` included, runs the bundles.
 */
export type InProcessReason =
  /** The test injects faults through the SDK client's middleware, which lives in the handler's process. */
  | 'injects faults through the SDK client'
  /** The test counts the calls a handler makes through the SDK client's middleware. */
  | 'counts calls through the SDK client'
  /** The test shrinks internal sizes (lib/groups/tuning.ts withGroupTuning) around each handler call. */
  | 'shrinks internal sizes around each call';

/**
 * The handlers of `functions/`, imported from source into this process on first use: one module instance shared by
 * every function, with this process's environment. Only for the tests that must reach into the handlers (the reason).
 */
export function handlersFromSource(_reason: InProcessReason): (route: Route) => Promise<LambdaHandler> {
  const loaded = new Map<string, Promise<LambdaHandler>>();
  return (route) => {
    let handler = loaded.get(route.name);
    if (!handler) {
      const file = join(projectRoot, 'functions', `${route.name}.ts`);
      handler = import(pathToFileURL(file).href).then((module: { handler?: unknown }) => {
        if (typeof module.handler !== 'function') throw new Error(`${file} does not export a handler function`);
        return module.handler as LambdaHandler;
      });
      // Forget failures, so a handler added while the gateway runs is found on the next request.
      handler.catch(() => loaded.delete(route.name));
      loaded.set(route.name, handler);
    }
    return handler;
  };
}

interface WireResponse {
  statusCode: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/**
 * Interprets a handler's result as API Gateway does for payload 2.0: a result
 * without `statusCode` is a 200 JSON body; `cookies` become set-cookie headers.
 */
function toWireResponse(result: unknown): WireResponse {
  const structured = result !== null && typeof result === 'object' && 'statusCode' in result;
  if (!structured) {
    const body = typeof result === 'string' ? result : JSON.stringify(result ?? null);
    return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(body, 'utf8') };
  }
  const reply = result as APIGatewayProxyStructuredResultV2;
  if (!Number.isInteger(reply.statusCode) || reply.statusCode! < 100 || reply.statusCode! > 599) {
    throw new Error(`handler returned an invalid statusCode: ${String(reply.statusCode)}`);
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(reply.headers ?? {})) headers[name.toLowerCase()] = String(value);
  if (reply.cookies?.length) headers['set-cookie'] = reply.cookies;
  const body = reply.body === undefined ? Buffer.alloc(0) : Buffer.from(reply.body, reply.isBase64Encoded ? 'base64' : 'utf8');
  return { statusCode: reply.statusCode!, headers, body };
}

/**
 * A result over what Lambda can return fails the invocation on AWS, and API
 * Gateway answers its own bare 500; the same here, with Lambda's error logged.
 */
function lambdaResult(result: unknown, requestId: string): WireResponse {
  const bytes = responsePayloadBytes(result);
  if (bytes <= MAX_RESPONSE_PAYLOAD_BYTES) return toWireResponse(result);
  console.error(
    `[gateway] request ${requestId}: Function.ResponseSizeTooLarge: Response payload size (${bytes} bytes) exceeded maximum allowed payload size (${MAX_RESPONSE_PAYLOAD_BYTES} bytes).`,
  );
  return INTERNAL_SERVER_ERROR;
}

/** The gateway's own answers: problem+json with the security headers (problemResponse adds them). */
function problem(
  slug: ProblemSlug,
  detail: string,
  extraHeaders: Record<string, string> = {},
  extraMembers: Record<string, unknown> = {},
): WireResponse {
  const response: HttpResponse = problemResponse(slug, detail, extraMembers);
  return {
    statusCode: response.statusCode,
    headers: { ...response.headers, ...extraHeaders },
    body: Buffer.from(response.body ?? '', 'utf8'),
  };
}

/** A HEAD answer keeps the Content-Length its handler gave (what GET would send); Node sends no body for HEAD. */
function send(response: ServerResponse, wire: WireResponse, closeConnection = false, head = false): void {
  const length = head && typeof wire.headers['content-length'] === 'string' ? wire.headers['content-length'] : String(wire.body.length);
  const headers: Record<string, string | string[]> = { ...wire.headers, 'content-length': length };
  if (closeConnection) headers.connection = 'close';
  response.writeHead(wire.statusCode, headers);
  response.end(wire.body);
}

// ---------------------------------------------------------------------------

/** The request body, or the 413 that answers one over Lambda's payload limit. */
async function readBodyWithin(request: IncomingMessage): Promise<Buffer | { wire: WireResponse; close: boolean }> {
  try {
    return await readBody(request);
  } catch (error) {
    if (!(error instanceof PayloadTooLarge)) throw error;
    const limit = `${MAX_REQUEST_BYTES / 1024 / 1024} MiB`;
    // Close the connection: the rest of the body is never read.
    return { wire: problem('payload-too-large', `The request body exceeds ${limit}.`), close: true };
  }
}

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const host = options.host ?? '127.0.0.1';
  const routes = options.routes ?? routeTable;
  const router = createRouter(routes);
  // The same code as functions/fallback.ts, over the route keys of the gateway's own routes (a test's fixture, or the table).
  const fallback = fallbackHandler(() => routes.flatMap(routeKeys));
  const authenticate = createAuthenticator(options.tokens);
  const { loadHandler } = options;

  /** The SCIM authorizer's context: the live token's id and expiry, empty for anything else. */
  async function authorizeScim(
    request: IncomingMessage,
    routeKey: string,
    rawPath: string,
    requestId: string,
  ): Promise<ScimAuthorizerContext> {
    if (!options.scimAuthorizer) {
      const token = await verifyScimToken(request.headers.authorization);
      return { tokenId: token?.id ?? '', expiresAt: token?.expires_at ?? '' };
    }
    const authorization = request.headers.authorization ?? '';
    const event: ScimAuthorizerEvent = {
      version: '2.0',
      type: 'REQUEST',
      routeArn: `arn:aws:execute-api:us-east-1:000000000000:local/$default/${routeKey.replace(' ', '')}`,
      identitySource: [authorization],
      routeKey,
      rawPath,
      headers: authorization ? { authorization } : {},
    };
    const result = (await options.scimAuthorizer(event, lambdaContext('scimAuthorizer', requestId))) as {
      isAuthorized?: boolean;
      context?: Partial<ScimAuthorizerContext>;
    };
    if (result?.isAuthorized !== true) throw new Error('the SCIM authorizer refused the request');
    return { tokenId: String(result.context?.tokenId ?? ''), expiresAt: String(result.context?.expiresAt ?? '') };
  }

  /**
   * The function's result, or API Gateway's own answer when the invocation fails: its bare 500 for an error of the
   * function (a throw, a timeout, a sandbox that died: each logged in the function's log), 503 past the
   * integration timeout.
   */
  async function integrate(
    name: string,
    load: () => Promise<LambdaHandler>,
    event: GatewayEvent,
    requestId: string,
  ): Promise<WireResponse> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolveTimeout) => {
      timer = setTimeout(() => resolveTimeout('timeout'), INTEGRATION_TIMEOUT_MS);
    });
    try {
      const invocation = load().then((handler) => handler(event, lambdaContext(name, requestId)));
      invocation.catch(() => {}); // after the integration timeout nobody awaits it
      const result = await Promise.race([invocation, timedOut]);
      if (result === 'timeout') return SERVICE_UNAVAILABLE;
      return lambdaResult(result, requestId);
    } catch (error) {
      // A function from its bundle has logged its error in its own log; one in this process has no log but this.
      if (!(error instanceof FunctionError)) console.error(`[gateway] request ${requestId}: ${name} failed:`, error);
      return INTERNAL_SERVER_ERROR;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The answer, and the SCIM token the request was made with (for the access log). */
  async function respond(
    request: IncomingMessage,
    requestId: string,
    receivedAt: Date,
  ): Promise<{ wire: WireResponse; close?: boolean; scimTokenId?: string }> {
    const target = request.url ?? '/';
    const queryStart = target.indexOf('?');
    const rawPath = queryStart === -1 ? target : target.slice(0, queryStart);
    const rawQueryString = queryStart === -1 ? '' : target.slice(queryStart + 1);

    const match = router.match(request.method ?? '', rawPath);
    if (!match) {
      // API Gateway's `$default` route: no authorizer, the fallback function answers.
      const body = await readBodyWithin(request);
      if (!Buffer.isBuffer(body)) return body;
      const event = buildEvent({ request, routeKey: FALLBACK_FUNCTION.routeKey, rawPath, rawQueryString, body, requestId, receivedAt });
      if (options.fallbackFunction)
        return { wire: await integrate(FALLBACK_FUNCTION.name, async () => options.fallbackFunction!, event, requestId) };
      return { wire: lambdaResult(await fallback(event), requestId) };
    }
    const { route } = match.compiled;

    let principal: Principal | undefined;
    let scimAuthorizer: ScimAuthorizerContext | undefined;
    if (route.access === 'scim') {
      // The route refuses a request without a live token (the authorizer's empty id).
      scimAuthorizer = await authorizeScim(request, `${match.method} ${match.compiled.servedPath}`, rawPath, requestId);
    } else if (route.access !== 'public') {
      principal = authenticate(request.headers.authorization);
      if (!principal) {
        const challenge = request.headers.authorization ? 'Bearer error="invalid_token"' : 'Bearer';
        return { wire: problem('unauthorized', 'A valid bearer token is required.', { 'www-authenticate': challenge }) };
      }
      if (route.access === 'write' && !principal.scopes.includes('admin/write')) {
        return {
          wire: problem('forbidden', 'This token may only read; this request changes data.', {
            'www-authenticate': 'Bearer error="insufficient_scope", scope="admin/write"',
          }),
        };
      }
    }

    const body = await readBodyWithin(request);
    if (!Buffer.isBuffer(body)) return body;

    const routeKey = `${match.method} ${match.compiled.servedPath}`;
    const event = buildEvent({
      request,
      routeKey,
      pathParameters: match.pathParameters,
      rawPath,
      rawQueryString,
      body,
      principal,
      scimAuthorizer,
      requestId,
      receivedAt,
    });
    const wire = await integrate(route.name, () => loadHandler(route), event, requestId);
    return { wire, scimTokenId: scimAuthorizer?.tokenId || undefined };
  }

  const server = createServer((request, response) => {
    const requestId = randomUUID();
    const receivedAt = new Date();
    respond(request, requestId, receivedAt)
      .catch((error: unknown) => {
        console.error(`[gateway] ${request.method} ${request.url} failed (request ${requestId}):`, error);
        // Like errorToProblem: no internals, only the id that finds the logged error.
        return {
          wire: problem('internal', 'An unexpected error occurred.', {}, { request_id: requestId }),
          close: false,
          scimTokenId: undefined,
        };
      })
      .then(({ wire, close, scimTokenId }) => {
        send(response, wire, close, request.method === 'HEAD');
        const token = scimTokenId ? ` scim_token_id=${scimTokenId}` : '';
        options.accessLog?.(`${request.method} ${request.url} ${wire.statusCode} ${Date.now() - receivedAt.getTime()}ms${token}`);
      })
      .catch((error: unknown) => {
        // The answer could not be written (the socket went away): nothing is left to tell the caller.
        console.error(`[gateway] ${request.method} ${request.url} could not be answered (request ${requestId}):`, error);
        response.destroy();
      });
  });

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}`,
    close: () =>
      new Promise<void>((resolveClose, reject) => {
        server.close((error) => (error ? reject(error) : resolveClose()));
        server.closeAllConnections();
      }),
  };
}
