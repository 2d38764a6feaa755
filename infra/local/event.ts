/**
 * What a Lambda handler receives on AWS, built from a Node request: the body
 * as API Gateway passes it (with Lambda's payload limit), the payload 2.0
 * event, and the invocation context.
 */
import type { IncomingMessage } from 'node:http';
import type {
  APIGatewayEventRequestContextJWTAuthorizer,
  APIGatewayEventRequestContextV2,
  APIGatewayProxyEventV2,
  Context,
} from 'aws-lambda';
import { jwtAuthorizer, type Principal } from './auth';
import type { ScimAuthorizerContext } from '../../lib/http/scim-wire';

/** The event a handler gets; `authorizer` is present on protected routes only, as on AWS. */
export type GatewayEvent = APIGatewayProxyEventV2 & {
  requestContext: APIGatewayEventRequestContextV2 & { authorizer?: APIGatewayEventRequestContextJWTAuthorizer };
};

/** Lambda's synchronous invocation payload limit; the handlers enforce the API's own 1 MiB rule. */
export const MAX_REQUEST_BYTES = 6 * 1024 * 1024;

/** API Gateway's maximum integration timeout; reported by getRemainingTimeInMillis. */
const HANDLER_TIMEOUT_MS = 29_000;
const MEMORY_LIMIT_MB = '1024';
const LOCAL_ACCOUNT_ID = '000000000000';
const LOCAL_API_ID = 'local';
const LOCAL_REGION = 'us-east-1';

export class PayloadTooLarge extends Error {}

/** Reads at most MAX_REQUEST_BYTES; past that it stops keeping bytes and rejects. */
export function readBody(request: IncomingMessage): Promise<Buffer> {
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

export interface EventInput {
  request: IncomingMessage;
  /** `GET /v2/users/{user_id}` as matched, or `$default` for the fallback. */
  routeKey: string;
  /** Undefined when the route has none, as on AWS. */
  pathParameters?: Record<string, string>;
  rawPath: string;
  rawQueryString: string;
  body: Buffer;
  principal?: Principal;
  /** On a SCIM route: what the SCIM authorizer hands on (tokenId '' for no live token). */
  scimAuthorizer?: ScimAuthorizerContext;
  requestId: string;
  receivedAt: Date;
}

export function buildEvent({
  request,
  routeKey,
  pathParameters,
  rawPath,
  rawQueryString,
  body,
  principal,
  scimAuthorizer,
  requestId,
  receivedAt,
}: EventInput): GatewayEvent {
  const { headers, cookies } = collectHeaders(request);
  const sourceIp = (request.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const domainName = headers.host ?? '127.0.0.1';
  headers['x-forwarded-for'] ??= sourceIp;
  headers['x-forwarded-proto'] ??= 'http';
  headers['x-forwarded-port'] ??= String(request.socket.localPort ?? '');
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString,
    cookies,
    headers,
    queryStringParameters: queryParameters(rawQueryString),
    pathParameters,
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
      ...(scimAuthorizer !== undefined ? { authorizer: { lambda: scimAuthorizer } as never } : {}),
    },
    ...encodeBody(body, headers['content-type']),
  };
}

export function lambdaContext(functionName: string, requestId: string): Context {
  const deadline = Date.now() + HANDLER_TIMEOUT_MS;
  const unsupported = () => {
    throw new Error('callback-style completion is not supported: return a promise');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT_ID}:function:${functionName}`,
    memoryLimitInMB: MEMORY_LIMIT_MB,
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
}
