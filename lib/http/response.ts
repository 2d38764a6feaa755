import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import type { OperationId } from '../routes';

/** The Lambda proxy event (API Gateway HTTP API, payload 2.0, JWT authorizer). */
export type HttpEvent = APIGatewayProxyEventV2WithJWTAuthorizer;

/** The Lambda proxy response (API Gateway HTTP API, payload 2.0). */
export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body?: string;
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

export function jsonResponse(reply: Reply): HttpResponse {
  const status = reply.status ?? 200;
  const headers: Record<string, string> = { ...SECURITY_HEADERS, ...reply.headers };
  if (status === 204 || reply.body === undefined) return { statusCode: status, headers };
  headers['content-type'] = 'application/json';
  return { statusCode: status, headers, body: JSON.stringify(reply.body) };
}

/**
 * A route handler that is not an `operation()` (the public ones, which carry
 * no pipeline): tagged with its operation id like every other.
 */
export const routeHandler = <H extends (...args: never[]) => Promise<unknown>>(operationId: OperationId, serve: H) =>
  Object.assign(serve, { spec: { operationId } });
