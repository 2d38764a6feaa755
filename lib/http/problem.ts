import { DomainError, PROBLEM_STATUS, PROBLEM_TITLE, type ProblemSlug } from '../errors';
import { SECURITY_HEADERS, type HttpResponse } from './response';

/**
 * The one place where errors become RFC 9457 problem+json. Domain errors keep
 * their slug and extra members; anything else is an `internal` problem whose
 * body says nothing about the cause (the caller logs it with the request id).
 */
export function problemResponse(slug: ProblemSlug, detail: string, extra: Record<string, unknown> = {}): HttpResponse {
  const status = PROBLEM_STATUS[slug];
  return {
    statusCode: status,
    headers: { 'content-type': 'application/problem+json', ...SECURITY_HEADERS },
    body: JSON.stringify({ type: `/problems/${slug}`, title: PROBLEM_TITLE[slug], status, detail, ...extra }),
  };
}

export function errorToProblem(error: unknown, requestId: string): HttpResponse {
  if (error instanceof DomainError) return problemResponse(error.slug, error.message, error.extra);
  return problemResponse('internal', 'An unexpected error occurred.', { request_id: requestId });
}
