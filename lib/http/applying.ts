/**
 * The 202 answer of a slow change (lib/slow-changes.ts), and what a repeat of
 * it with the same Idempotency-Key answers (lib/http/idempotency.ts): the
 * stored 202 while the change still applies, then the operation's own answer
 * for the resource as it now is (the route's `settled`).
 */
import type { AppliedLater } from '../slow-changes';
import { jsonResponse, type HttpResponse } from './response';

/** Where the admin API shows a change completing. */
export const adminPath = (resource: AppliedLater) =>
  resource.type === 'group' ? `/v2/groups/${resource.id}` : `/v2/departments/${resource.id}`;

/** Where SCIM shows it (only groups change slowly there). */
export const scimPath = (resource: AppliedLater) => `/scim/v2/Groups/${resource.id}`;

export function applyingResponse(path: string, contentType?: string): HttpResponse {
  const response = jsonResponse({ status: 202, body: { status: 'applying', resource: path }, headers: { location: path } });
  if (contentType) response.headers['content-type'] = contentType;
  return response;
}

/** The id at the end of a resource's path. */
export const resourceId = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** The resource a stored answer says is still applying, if it is such an answer. */
export function applyingResource(answer: HttpResponse): string | undefined {
  if (answer.statusCode !== 202 || answer.body === undefined) return undefined;
  try {
    const body = JSON.parse(answer.body) as { status?: unknown; resource?: unknown };
    return body.status === 'applying' && typeof body.resource === 'string' ? body.resource : undefined;
  } catch {
    return undefined;
  }
}
