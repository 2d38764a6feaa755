/**
 * What a request no route matches gets (API.md "Methods"): 405
 * `method-not-allowed` with `Allow` on a path that routes serve with other
 * methods, else 404 `not-found`; problem+json either way, and no body for a
 * HEAD. Built from a route table, so a route added to the table is covered
 * by the fallback at once.
 */
import type { Route } from '../routes';
import { problemResponse } from './problem';
import { answerFor, type HttpResponse } from './response';
import { createRouter } from './router';

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
    // A method the path is served with never reaches here on AWS; answered 404 all the same rather than a 405 that lists it.
    if (allowed.length === 0 || allowed.includes(method as (typeof allowed)[number])) {
      return answerFor(method, problemResponse('not-found', `No route serves ${method} ${path}.`));
    }
    const response = problemResponse('method-not-allowed', `${path} is served with ${allowed.join(', ')}, not ${method}.`);
    return answerFor(method, { ...response, headers: { ...response.headers, allow: allowed.join(', ') } });
  };
}
