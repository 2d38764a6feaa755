/**
 * What a request no route matches gets: 405
 * `method-not-allowed` with `Allow` on a path that routes serve with other
 * methods, else 404 `not-found`; problem+json either way — under SCIM's
 * base path a SCIM error, which is all an identity provider reads —
 * and no body for a HEAD. Built from the route keys of a route table, so a
 * route added to the table is covered by the fallback at once.
 */
import { isScimPath, type RouteKey, type ServedMethod } from '../routes';
import { problemResponse } from './problem';
import { answerFor, type HttpResponse } from './response';
import { allowedMethodsFor } from './router';
import { scimErrorResponse } from './scim-wire';

/** What the fallback reads of a request: its method and path (API Gateway payload 2.0). */
export interface UnmatchedRequest {
  rawPath?: string;
  requestContext?: { requestId?: string; http?: { method?: string; path?: string } };
}

/**
 * `loadRouteKeys` is called on the first request (the deployed function reads
 * a file then, not at its cold start), and again after it failed.
 */
export function fallbackHandler(
  loadRouteKeys: () => readonly RouteKey[] | Promise<readonly RouteKey[]>,
): (event: UnmatchedRequest) => Promise<HttpResponse> {
  let allowedMethods: Promise<(path: string) => ServedMethod[]> | undefined;
  return async (event) => {
    const method = event.requestContext?.http?.method ?? 'GET';
    const path = event.rawPath ?? event.requestContext?.http?.path ?? '/';
    const scim = isScimPath(path);
    let allowed: ServedMethod[];
    try {
      allowedMethods ??= Promise.resolve().then(loadRouteKeys).then(allowedMethodsFor);
      allowed = (await allowedMethods)(path);
    } catch (error) {
      allowedMethods = undefined;
      console.error('The route keys cannot be loaded', error);
      // As every other function answers an unexpected error (http/problem.ts, http/scim-errors.ts).
      const requestId = event.requestContext?.requestId ?? 'unknown';
      return answerFor(
        method,
        scim
          ? scimErrorResponse(500, `An unexpected error occurred (request ${requestId}).`)
          : problemResponse('internal', 'An unexpected error occurred.', { request_id: requestId }),
      );
    }
    // A method the path is served with never reaches here on AWS; answered 404 all the same rather than a 405 that lists it.
    if (allowed.length === 0 || allowed.includes(method as ServedMethod)) {
      const detail = `No route serves ${method} ${path}.`;
      return answerFor(method, scim ? scimErrorResponse(404, detail) : problemResponse('not-found', detail));
    }
    const detail = `${path} is served with ${allowed.join(', ')}, not ${method}.`;
    const response = scim ? scimErrorResponse(405, detail) : problemResponse('method-not-allowed', detail);
    return answerFor(method, { ...response, headers: { ...response.headers, allow: allowed.join(', ') } });
  };
}
