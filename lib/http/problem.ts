import { ContentionError, DatabaseBusyError } from '../db/errors';
import { PROBLEM_STATUS, PROBLEM_TITLE, Problem, type ProblemSlug } from '../problems';
import { SECURITY_HEADERS, type HttpResponse } from './response';

/**
 * The one place where errors become RFC 9457 problem+json. Problems keep
 * their slug and extra members; the database's lasting contention and
 * throttling become 409 and 503; anything else is an `internal` problem
 * whose body says nothing about the cause (the caller logs it with the
 * request id).
 */
export function problemResponse(slug: ProblemSlug, detail: string, extra: Record<string, unknown> = {}): HttpResponse {
  const status = PROBLEM_STATUS[slug];
  return {
    statusCode: status,
    headers: { 'content-type': 'application/problem+json', ...SECURITY_HEADERS },
    body: JSON.stringify({ type: `/problems/${slug}`, title: PROBLEM_TITLE[slug], status, detail, ...extra }),
  };
}

/**
 * AWS SDK errors that say a dependency is busy or failing rather than that
 * the request is wrong: throttling, server faults, timeouts, dropped
 * connections. They reach here only once the SDK's own retries (and
 * transact.ts's) are spent, so the caller gets a 503 to retry later.
 */
const UNAVAILABLE_ERROR_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'Throttling',
  'RequestLimitExceeded',
  'SlowDown',
  'TooManyRequestsException',
  'TransactionInProgressException',
  'InternalServerError',
  'InternalFailure',
  'InternalError',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);
const UNAVAILABLE_ERROR_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** Also looks at causes: a library may wrap the SDK error it got. */
function isUnavailable(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > 5) return false;
  if (error instanceof DatabaseBusyError) return true;
  const { name, code, $fault, $metadata, cause } = error as {
    name?: unknown;
    code?: unknown;
    $fault?: unknown;
    $metadata?: { httpStatusCode?: unknown };
    cause?: unknown;
  };
  if (UNAVAILABLE_ERROR_NAMES.has(String(name)) || UNAVAILABLE_ERROR_CODES.has(String(code))) return true;
  if ($fault === 'server' || (typeof $metadata?.httpStatusCode === 'number' && $metadata.httpStatusCode >= 500)) return true;
  return isUnavailable(cause, depth + 1);
}

/**
 * What any error means to a client: a problem slug, its detail and extra
 * members. Both answer formats start here: problem+json (below) and SCIM's
 * errors (lib/scim/errors.ts).
 */
export function classifyError(error: unknown, requestId: string): Problem {
  if (error instanceof Problem) return error;
  if (error instanceof ContentionError) return new Problem('conflict', error.message);
  if (isUnavailable(error)) {
    const detail =
      error instanceof DatabaseBusyError
        ? error.message
        : 'The service is busy or a service it depends on is failing; retry the request shortly.';
    return new Problem('unavailable', detail);
  }
  return new Problem('internal', 'An unexpected error occurred.', { request_id: requestId });
}

export function errorToProblem(error: unknown, requestId: string): HttpResponse {
  const problem = classifyError(error, requestId);
  return problemResponse(problem.slug, problem.message, problem.extra);
}
