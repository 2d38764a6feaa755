import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import type { $ZodType, output } from 'zod/v4/core';
import type { OperationName } from '../routes';

/** The Lambda proxy event (API Gateway HTTP API, payload 2.0, JWT authorizer). */
export type HttpEvent = APIGatewayProxyEventV2WithJWTAuthorizer;

/** The Lambda proxy response (API Gateway HTTP API, payload 2.0). */
export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body?: string;
  isBase64Encoded?: boolean;
}

/** Sent on every response: admin data must not be cached or sniffed. */
export const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

/** What an operation returns; the pipeline shapes it into an HttpResponse. */
export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * The documented responses of each operation, by name, then status: filled in
 * where they are documented (lib/openapi/operations.ts, by a module
 * augmentation of this interface), so the document is their one home.
 */
export interface OperationResponses {}

/** One documented response: its JSON body's schema, if it has one. */
type BodyOf<Response> = Response extends { schema: infer Schema extends $ZodType } ? { body: output<Schema> } : { body?: undefined };

/** A reply for each documented status: 200 may go unsaid, and the body is what that status's schema describes. */
type RepliesOf<Responses> = {
  [Status in keyof Responses & number]: (Status extends 200 ? { status?: 200 } : { status: Status }) &
    BodyOf<Responses[Status]> & { headers?: Record<string, string> };
}[keyof Responses & number];

/** What operation `Name` may return: a reply its documented responses describe (a wrong field or status is a type error). */
export type ReplyOf<Name extends OperationName> = Name extends keyof OperationResponses ? RepliesOf<OperationResponses[Name]> : Reply;

/** Every field of any of the bodies `Replies` allow. */
type FieldsOf<Replies> = Replies extends { body?: infer Body } ? keyof Body : never;

/**
 * A reply `R` may not carry a top-level body field its documented bodies lack:
 * TypeScript checks no excess fields on what a callback returns, so operation()
 * asks for `R & OnlyDocumentedFields<R, ReplyOf<Name>>`, where such a field is `never`.
 */
export type OnlyDocumentedFields<R, Replies> = R extends { body: infer Body }
  ? unknown extends Extract<Replies, { body?: unknown }>['body']
    ? unknown
    : { body: { [Field in Exclude<keyof Body, FieldsOf<Replies>>]: never } }
  : unknown;

export function jsonResponse(reply: Reply): HttpResponse {
  const status = reply.status ?? 200;
  const headers: Record<string, string> = { ...SECURITY_HEADERS, ...reply.headers };
  if (status === 204 || reply.body === undefined) return { statusCode: status, headers };
  headers['content-type'] = 'application/json';
  return { statusCode: status, headers, body: JSON.stringify(reply.body) };
}

/**
 * The answer to `method`: a HEAD gets the GET answer without its body,
 * with the Content-Length the body would have had; any other
 * method gets the answer as it is. Every handler's answer passes here (the
 * `operation()` pipeline, routeHandler, the fallback), so a HEAD never
 * carries a body, wherever it is answered.
 */
export function answerFor(method: string | undefined, response: HttpResponse): HttpResponse {
  if (method !== 'HEAD' || response.body === undefined) return response;
  const { body, isBase64Encoded: base64, ...rest } = response;
  return { ...rest, headers: { ...rest.headers, 'content-length': String(Buffer.byteLength(body, base64 ? 'base64' : 'utf8')) } };
}

/** The method of a request as API Gateway passes it. */
export const methodOf = (event: { requestContext?: { http?: { method?: string } } } | undefined) => event?.requestContext?.http?.method;

/**
 * A route handler that is not an `operation()` (the public ones, which carry
 * no pipeline): tagged with its operation's name like every other, and answering
 * HEAD like GET without the body.
 */
export const routeHandler = <E extends { requestContext?: { http?: { method?: string } } }>(
  name: OperationName,
  serve: (event: E) => Promise<HttpResponse>,
) => Object.assign(async (event: E) => answerFor(methodOf(event), await serve(event)), { spec: { name } });
