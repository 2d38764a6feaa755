/** A SCIM client for the HTTP tests: a token of its own, SCIM's media type, answers checked against the document by Api. */
import { expect } from 'vitest';
import type { Api, ApiResponse } from './api';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ENTERPRISE_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

export interface ScimToken {
  id: string;
  token: string;
}

/** Makes a SCIM token through the admin API. */
export async function newScimToken(api: Api, description = 'test IdP'): Promise<ScimToken> {
  const response = await api.post('/v2/scim/tokens', { description });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

export interface ScimClient {
  token(): Promise<ScimToken>;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
  get(path: string, headers?: Record<string, string>): Promise<ApiResponse>;
  post(path: string, body: unknown): Promise<ApiResponse>;
  put(path: string, body: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
  patch(path: string, body: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
  delete(path: string, headers?: Record<string, string>): Promise<ApiResponse>;
}

/**
 * A client that sends what an identity provider sends: its token as bearer,
 * bodies as `application/scim+json` (Okta adds `; charset=utf-8`), and
 * `Accept: application/scim+json`; `flag` is a query parameter sent on every
 * request, as Entra sends the flags of its tenant URL.
 */
export function scimClient(api: Api, options: { contentType?: string; flag?: string } = {}): ScimClient {
  let token: Promise<ScimToken> | undefined;
  const contentType = options.contentType ?? 'application/scim+json';
  const client: ScimClient = {
    token: () => (token ??= newScimToken(api)),
    async request(method, path, body, headers = {}) {
      const { token: secret } = await client.token();
      // Entra keeps a feature flag in the tenant URL and sends it on every request (`?aadOptscim062020`).
      const url = options.flag ? `${path}${path.includes('?') ? '&' : '?'}${options.flag}` : path;
      return api.request(method, `/scim/v2${url}`, {
        token: secret,
        ...(body === undefined ? {} : { rawBody: JSON.stringify(body) }),
        headers: { accept: 'application/scim+json', ...(body === undefined ? {} : { 'content-type': contentType }), ...headers },
      });
    },
    get: (path, headers) => client.request('GET', path, undefined, headers),
    post: (path, body) => client.request('POST', path, body),
    put: (path, body, headers) => client.request('PUT', path, body, headers),
    patch: (path, body, headers) => client.request('PATCH', path, body, headers),
    delete: (path, headers) => client.request('DELETE', path, undefined, headers),
  };
  return client;
}

export const patchOps = (...Operations: unknown[]) => ({ schemas: [PATCH_SCHEMA], Operations });

/** `?filter=...` with the filter encoded as a client encodes it. */
export const filterQuery = (filter: string) => `filter=${encodeURIComponent(filter)}`;

export function expectScimError(response: ApiResponse, status: number, scimType?: string): void {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/scim\+json/);
  expect(response.body.schemas).toEqual([ERROR_SCHEMA]);
  expect(response.body.status).toBe(String(status));
  if (scimType) expect(response.body.scimType).toBe(scimType);
}
