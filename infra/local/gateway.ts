/**
 * The local stand-in for API Gateway (HTTP API, Lambda proxy payload 2.0).
 *
 * It serves the route table (lib/routes.ts) the way the deployed API does:
 * route matching with literal segments before parameters, the JWT authorizer
 * replaced by two static bearer tokens, the 6 MiB Lambda payload limit, and
 * the event and context a Lambda handler receives on AWS.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type {
  APIGatewayEventRequestContextJWTAuthorizer,
  APIGatewayEventRequestContextV2,
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import type { ProblemSlug } from '../../lib/problems';
import { problemResponse } from '../../lib/http/problem';
import type { HttpResponse } from '../../lib/http/response';
import { routes as routeTable, servedPaths, type Route } from '../../lib/routes';

/** The event a handler gets; `authorizer` is present on protected routes only, as on AWS. */
export type GatewayEvent = APIGatewayProxyEventV2 & {
  requestContext: APIGatewayEventRequestContextV2 & { authorizer?: APIGatewayEventRequestContextJWTAuthorizer };
};

export type LambdaHandler = (event: GatewayEvent, context: Context) => Promise<unknown>;

export interface GatewayOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** `write` grants read and write; `read` grants read only. */
  tokens: { write: string; read?: string };
  /** Defaults to importing `functions/<route.handler>.ts`. */
  loadHandler?: (route: Route) => Promise<LambdaHandler>;
  /** Defaults to the route table; tests pass a fixture. */
  routes?: readonly Route[];
  /** One line per request (method, path, status, ms); off when absent. */
  accessLog?: (line: string) => void;
}

export interface Gateway {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:3000`. */
  url: string;
  close(): Promise<void>;
}

/** Lambda's synchronous invocation payload limit; the handlers enforce the API's own 1 MiB rule. */
export const MAX_REQUEST_BYTES = 6 * 1024 * 1024;

/** API Gateway's maximum integration timeout; reported by getRemainingTimeInMillis. */
const HANDLER_TIMEOUT_MS = 29_000;
const MEMORY_LIMIT_MB = '1024';
const LOCAL_ACCOUNT_ID = '000000000000';
const LOCAL_API_ID = 'local';
const LOCAL_REGION = 'us-east-1';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

// ---------------------------------------------------------------------------
// Route matching

interface CompiledRoute {
  route: Route;
  /** The served path this entry matches, e.g. `/v2/users.json`; the routeKey uses it. */
  servedPath: string;
  pattern: RegExp;
  paramNames: string[];
  /** 0 per literal segment, 1 per parameter: sorts literal routes before parameterised ones. */
  specificity: number[];
}

function compile(route: Route, servedPath: string): CompiledRoute {
  const paramNames: string[] = [];
  const specificity: number[] = [];
  const source = servedPath
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      specificity.push(param ? 1 : 0);
      if (!param) return escapeRegExp(segment);
      paramNames.push(param[1]);
      return '([^/]+)';
    })
    .join('/');
  return { route, servedPath, pattern: new RegExp(`^${source}$`), paramNames, specificity };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Lexicographic on segment kinds: at the first differing segment, a literal wins (API Gateway's "most specific"). */
function bySpecificity(a: CompiledRoute, b: CompiledRoute): number {
  const length = Math.min(a.specificity.length, b.specificity.length);
  for (let i = 0; i < length; i++) {
    if (a.specificity[i] !== b.specificity[i]) return a.specificity[i] - b.specificity[i];
  }
  return a.specificity.length - b.specificity.length;
}

interface RouteMatch {
  compiled: CompiledRoute;
  /** Undefined when the route has none, as on AWS. */
  pathParameters?: Record<string, string>;
}

function createRouter(routes: readonly Route[]) {
  const compiled = routes.flatMap((route) => servedPaths(route).map((path) => compile(route, path))).sort(bySpecificity);
  return (method: string, rawPath: string): RouteMatch | undefined => {
    for (const candidate of compiled) {
      if (candidate.route.method !== method) continue;
      const match = candidate.pattern.exec(rawPath);
      if (!match) continue;
      if (candidate.paramNames.length === 0) return { compiled: candidate };
      const pathParameters: Record<string, string> = {};
      candidate.paramNames.forEach((name, i) => {
        pathParameters[name] = decodeComponent(match[i + 1]);
      });
      return { compiled: candidate, pathParameters };
    }
    return undefined;
  };
}

function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // malformed escapes pass through; the handler's id check rejects them
  }
}

// ---------------------------------------------------------------------------
// Authorization

type Principal = { sub: string; scopes: string[] };

const WRITER: Principal = { sub: 'local-admin', scopes: ['admin/read', 'admin/write'] };
const READER: Principal = { sub: 'local-reader', scopes: ['admin/read'] };

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Compares digests, not the tokens: equal lengths for timingSafeEqual, and the
 * time taken says nothing about how much of a token was right.
 */
function createAuthenticator(tokens: GatewayOptions['tokens']) {
  if (!tokens.write) throw new Error('startGateway: tokens.write must be a non-empty string');
  const known: Array<[Buffer, Principal]> = [[sha256(tokens.write), WRITER]];
  if (tokens.read) known.push([sha256(tokens.read), READER]);
  return (authorization: string | undefined): Principal | undefined => {
    const bearer = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
    if (!bearer) return undefined;
    const presented = sha256(bearer[1]);
    let principal: Principal | undefined;
    for (const [digest, candidate] of known) {
      if (timingSafeEqual(digest, presented) && !principal) principal = candidate;
    }
    return principal;
  };
}

function jwtAuthorizer(principal: Principal): APIGatewayEventRequestContextJWTAuthorizer {
  return {
    jwt: { claims: { sub: principal.sub, scope: principal.scopes.join(' ') }, scopes: [...principal.scopes] },
  };
}

// ---------------------------------------------------------------------------
// The request body

class PayloadTooLarge extends Error {}

/** Reads at most MAX_REQUEST_BYTES; past that it stops keeping bytes and rejects. */
function readBody(request: IncomingMessage): Promise<Buffer> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_REQUEST_BYTES) return Promise.reject(new PayloadTooLarge());
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        request.off('data', onData);
        chunks.length = 0;
        reject(new PayloadTooLarge());
        return;
      }
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.on('end', () => resolveBody(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isTextual(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  return (
    mediaType.startsWith('text/') ||
    /^application\/(json|xml|javascript|x-www-form-urlencoded)$/.test(mediaType) ||
    /\+(json|xml)$/.test(mediaType)
  );
}

/** Text stays text; anything else travels base64-encoded, as API Gateway sends it. */
function encodeBody(bytes: Buffer, contentType: string | undefined): { body?: string; isBase64Encoded: boolean } {
  if (bytes.length === 0) return { isBase64Encoded: false };
  if (isTextual(contentType)) {
    try {
      return { body: utf8.decode(bytes), isBase64Encoded: false };
    } catch {
      // not valid UTF-8: fall through to base64
    }
  }
  return { body: bytes.toString('base64'), isBase64Encoded: true };
}

// ---------------------------------------------------------------------------
// Event and context

/** Lower-case names; repeated headers joined with ','; cookies go to `event.cookies` instead. */
function collectHeaders(request: IncomingMessage): { headers: Record<string, string>; cookies?: string[] } {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  const raw = request.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    const value = raw[i + 1];
    if (name === 'cookie') {
      cookies.push(
        ...value
          .split(';')
          .map((cookie) => cookie.trim())
          .filter(Boolean),
      );
      continue;
    }
    headers[name] = name in headers ? `${headers[name]},${value}` : value;
  }
  return { headers, cookies: cookies.length > 0 ? cookies : undefined };
}

/** Decoded values; repeated keys joined with ','; undefined without a query, as on AWS. */
function queryParameters(rawQueryString: string): Record<string, string> | undefined {
  if (rawQueryString === '') return undefined;
  const parameters: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(rawQueryString)) {
    parameters[key] = key in parameters ? `${parameters[key]},${value}` : value;
  }
  return parameters;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** API Gateway's `time` format: `21/Nov/2026:09:30:00 +0000`. */
function requestTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

interface EventInput {
  request: IncomingMessage;
  match: RouteMatch;
  rawPath: string;
  rawQueryString: string;
  body: Buffer;
  principal?: Principal;
  requestId: string;
  receivedAt: Date;
}

function buildEvent({ request, match, rawPath, rawQueryString, body, principal, requestId, receivedAt }: EventInput): GatewayEvent {
  const { headers, cookies } = collectHeaders(request);
  const sourceIp = (request.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const domainName = headers.host ?? '127.0.0.1';
  headers['x-forwarded-for'] ??= sourceIp;
  headers['x-forwarded-proto'] ??= 'http';
  headers['x-forwarded-port'] ??= String(request.socket.localPort ?? '');
  const routeKey = `${match.compiled.route.method} ${match.compiled.servedPath}`;
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString,
    cookies,
    headers,
    queryStringParameters: queryParameters(rawQueryString),
    pathParameters: match.pathParameters,
    requestContext: {
      accountId: LOCAL_ACCOUNT_ID,
      apiId: LOCAL_API_ID,
      domainName,
      domainPrefix: domainName.replace(/:\d+$/, '').split('.')[0],
      http: {
        method: request.method ?? 'GET',
        path: rawPath,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: requestTime(receivedAt),
      timeEpoch: receivedAt.getTime(),
      ...(principal ? { authorizer: jwtAuthorizer(principal) } : {}),
    },
    ...encodeBody(body, headers['content-type']),
  };
}

function lambdaContext(route: Route, requestId: string): Context {
  const deadline = Date.now() + HANDLER_TIMEOUT_MS;
  const unsupported = () => {
    throw new Error('callback-style completion is not supported: return a promise');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: route.handler,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT_ID}:function:${route.handler}`,
    memoryLimitInMB: MEMORY_LIMIT_MB,
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${route.handler}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
}

// ---------------------------------------------------------------------------
// Handlers and responses

function defaultHandlerLoader(): (route: Route) => Promise<LambdaHandler> {
  const loaded = new Map<string, Promise<LambdaHandler>>();
  return (route) => {
    let handler = loaded.get(route.handler);
    if (!handler) {
      const file = join(projectRoot, 'functions', `${route.handler}.ts`);
      handler = import(pathToFileURL(file).href).then((module: { handler?: unknown }) => {
        if (typeof module.handler !== 'function') throw new Error(`${file} does not export a handler function`);
        return module.handler as LambdaHandler;
      });
      // Forget failures, so a handler added while the gateway runs is found on the next request.
      handler.catch(() => loaded.delete(route.handler));
      loaded.set(route.handler, handler);
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

function send(response: ServerResponse, wire: WireResponse, closeConnection = false): void {
  const headers: Record<string, string | string[]> = { ...wire.headers, 'content-length': String(wire.body.length) };
  if (closeConnection) headers.connection = 'close';
  response.writeHead(wire.statusCode, headers);
  response.end(wire.body);
}

// ---------------------------------------------------------------------------

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const host = options.host ?? '127.0.0.1';
  const findRoute = createRouter(options.routes ?? routeTable);
  const authenticate = createAuthenticator(options.tokens);
  const loadHandler = options.loadHandler ?? defaultHandlerLoader();

  async function respond(request: IncomingMessage, requestId: string, receivedAt: Date): Promise<{ wire: WireResponse; close?: boolean }> {
    const target = request.url ?? '/';
    const queryStart = target.indexOf('?');
    const rawPath = queryStart === -1 ? target : target.slice(0, queryStart);
    const rawQueryString = queryStart === -1 ? '' : target.slice(queryStart + 1);

    const match = findRoute(request.method ?? '', rawPath);
    if (!match) return { wire: problem('not-found', `No route for ${request.method} ${rawPath}.`) };
    const { route } = match.compiled;

    let principal: Principal | undefined;
    if (route.access !== 'public') {
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

    let body: Buffer;
    try {
      body = await readBody(request);
    } catch (error) {
      if (!(error instanceof PayloadTooLarge)) throw error;
      const limit = `${MAX_REQUEST_BYTES / 1024 / 1024} MiB`;
      // Close the connection: the rest of the body is never read.
      return { wire: problem('payload-too-large', `The request body exceeds ${limit}.`), close: true };
    }

    const event = buildEvent({ request, match, rawPath, rawQueryString, body, principal, requestId, receivedAt });
    const handler = await loadHandler(route);
    return { wire: toWireResponse(await handler(event, lambdaContext(route, requestId))) };
  }

  const server = createServer((request, response) => {
    const requestId = randomUUID();
    const receivedAt = new Date();
    respond(request, requestId, receivedAt)
      .catch((error: unknown) => {
        console.error(`[gateway] ${request.method} ${request.url} failed (request ${requestId}):`, error);
        // Like errorToProblem: no internals, only the id that finds the logged error.
        return { wire: problem('internal', 'An unexpected error occurred.', {}, { request_id: requestId }), close: false };
      })
      .then(({ wire, close }) => {
        send(response, wire, close);
        options.accessLog?.(`${request.method} ${request.url} ${wire.statusCode} ${Date.now() - receivedAt.getTime()}ms`);
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
