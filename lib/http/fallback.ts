/**
 * What a request no route matches gets (API.md "Methods"): 405
 * `method-not-allowed` with `Allow` on a path that routes serve with other
 * methods, else 404 `not-found`; problem+json either way — under SCIM's
 * base path a SCIM error, which is all an identity provider reads (API.md) —
 * and no body for a HEAD. Built from a route table, so a route added to the
 * table is covered by the fallback at once.
 */
import { isScimPath, type Route } from '../routes';
import { problemResponse } from './problem';
import { answerFor, type HttpResponse } from './response';
import { createRouter } from './router';
import { scimErrorResponse } from './scim-wire';

/** What the fallback reads of a request: its method and path (API Gateway payload 2.0). */
export interface UnmatchedRequest {
  rawPath?: string;
  requestContext?: { http?: { method?: string; path?: string } };
}

export function fallbackHandler(routes: readonly Route[]): (event: UnmatchedRequest) => Promise<HttpResponse> {
  const router = createRouter(routes);
  return async (event) => {
    const method = event.requestContext?.http?.method ?? 'GET';
    const path = event.rawPath ?? event.requestContext?.http?.path ?? '/';
    const allowed = router.allowedMethods(path);
    const scim = isScimPath(path);
    // A method the path is served with never reaches here on AWS; answered 404 all the same rather than a 405 that lists it.
    if (allowed.length === 0 || allowed.includes(method as (typeof allowed)[number])) {
      const detail = `No route serves ${method} ${path}.`;
      return answerFor(method, scim ? scimErrorResponse(404, detail) : problemResponse('not-found', detail));
    }
    const detail = `${path} is served with ${allowed.join(', ')}, not ${method}.`;
    const response = scim ? scimErrorResponse(405, detail) : problemResponse('method-not-allowed', detail);
    return answerFor(method, { ...response, headers: { ...response.headers, allow: allowed.join(', ') } });
  };
}
