/**
 * The console's one way to the API: openapi-fetch, typed by the service's
 * own OpenAPI document (api/schema.d.ts), with the session's token on every
 * request. The API lives beside the console: `{base}/console` calls `{base}/v2/...`.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './api/schema';
import { session } from './session';

export type Schemas = components['schemas'];

/** `{base}` of `{base}/console`, without its trailing slash. */
export const API_BASE = new URL('.', location.href).href.replace(/\/$/, '');

const bearer: Middleware = {
  onRequest({ request }) {
    const token = session.token();
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  },
  onResponse({ response }) {
    // An expired or revoked token: back to sign-in, which says why.
    if (response.status === 401) session.expired();
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: API_BASE });
api.use(bearer);
