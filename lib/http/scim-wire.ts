/**
 * SCIM on the wire, and nothing more: its media type, its error body (RFC
 * 7644 §3.12), and the token id the SCIM authorizer hands on. Kept apart
 * from the error classification (scim-errors.ts) and the request pipeline
 * (scim.ts) so that the discovery routes, which answer constants, bundle
 * only this (scim-document.ts).
 */
import type { ScimType } from '../scim/errors';
import { scimTokenExpired } from '../scim/token-expiry';
import { SECURITY_HEADERS, type HttpEvent, type HttpResponse } from './response';

export const SCIM_CONTENT_TYPE = 'application/scim+json';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

export function scimErrorBody(status: number, detail: string, scimType?: ScimType) {
  return { schemas: [ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail };
}

export function scimErrorResponse(status: number, detail: string, scimType?: ScimType, headers: Record<string, string> = {}): HttpResponse {
  return {
    statusCode: status,
    headers: { 'content-type': SCIM_CONTENT_TYPE, ...SECURITY_HEADERS, ...headers },
    body: JSON.stringify(scimErrorBody(status, detail, scimType)),
  };
}

/** What the SCIM authorizer hands on (simple responses' `context`): a live token's id and expiry, '' for none. */
export interface ScimAuthorizerContext {
  tokenId: string;
  expiresAt: string;
}

/**
 * The id of the live SCIM token the authorizer found, or '' / undefined when
 * there is none or it has expired since (on AWS the authorizer's answer is
 * cached for minutes; the expiry is not).
 */
export function scimTokenIdOf(event: HttpEvent, now = Date.now()): string | undefined {
  const context = (event.requestContext?.authorizer as unknown as { lambda?: Partial<ScimAuthorizerContext> } | undefined)?.lambda;
  return context && !scimTokenExpired(context.expiresAt, now) ? context.tokenId : undefined;
}

/** SCIM's answer to a request that carries no live token (the authorizer lets it through without an id). */
export const missingScimToken = (): HttpResponse =>
  scimErrorResponse(401, 'A valid SCIM token is required (Authorization: Bearer <token>).', undefined, { 'www-authenticate': 'Bearer' });
