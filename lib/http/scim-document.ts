/**
 * The handlers of SCIM's discovery routes (/ServiceProviderConfig,
 * /ResourceTypes, /Schemas): documents made of constants. No table, no body,
 * nothing that can fail but a missing token or an unknown name, so no
 * middleware, logger or error classification either: their bundles hold
 * only the documents (a function with no AWS client is held to an empty
 * handler's cold start).
 */
import type { OperationName } from '../routes';
import { routeHandler, SECURITY_HEADERS, type HttpEvent, type HttpResponse } from './response';
import { missingScimToken, SCIM_CONTENT_TYPE, scimErrorResponse, scimTokenIdOf } from './scim-wire';

/** The document a request names, or why there is none (a 404 detail). */
export type Found = { document: unknown } | { missing: string };

export function scimDocument(name: OperationName, find: (params: Record<string, string | undefined>) => Found) {
  return routeHandler(name, async (event: HttpEvent): Promise<HttpResponse> => {
    if (!scimTokenIdOf(event)) return missingScimToken();
    const found = find(event.pathParameters ?? {});
    if ('missing' in found) return scimErrorResponse(404, found.missing);
    return { statusCode: 200, headers: { ...SECURITY_HEADERS, 'content-type': SCIM_CONTENT_TYPE }, body: JSON.stringify(found.document) };
  });
}
