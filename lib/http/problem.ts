import { ContentionError, DatabaseBusyError } from '../db/errors';
import { log } from '../log';
import { PROBLEM_STATUS, PROBLEM_TITLE, Problem, type ProblemSlug } from '../problems';
import { SECURITY_HEADERS, type HttpResponse } from './response';

/**
 * The one place where errors become RFC 9457 problem+json. Problems keep
 * their slug and extra members; the database's lasting contention and
 * throttling become 409 and 503; anything else is an `internal` problem.
 * A 5xx body says nothing about its cause; logServerError() logs it.
 */
export function problemResponse(
  slug: ProblemSlug,
  detail: string,
  extra: Record<string, unknown> = {},
  retryAfterSeconds?: number,
): HttpResponse {
  const status = PROBLEM_STATUS[slug];
  return {
    statusCode: status,
    headers: {
      'content-type': 'application/problem+json',
      ...SECURITY_HEADERS,
      ...(retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) }),
    },
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
  return problemResponse(problem.slug, problem.message, problem.extra, problem.retryAfterSeconds);
}

/** What an error was, for a log line (never a body): name, message, code, status, cancellation reasons, and its causes alike. */
export function describeError(error: unknown, depth = 0): unknown {
  if (error === null || typeof error !== 'object') return error;
  const { name, message, code, $fault, $metadata, CancellationReasons, cause } = error as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    $fault?: unknown;
    $metadata?: { httpStatusCode?: unknown; attempts?: unknown };
    CancellationReasons?: Array<{ Code?: string; Message?: string }>;
    cause?: unknown;
  };
  if (name === undefined && message === undefined) return error; // a plain object, e.g. middy's `{ package: '@middy/core' }`
  return {
    name,
    message,
    ...(code !== undefined ? { code } : {}),
    ...($fault !== undefined ? { fault: $fault } : {}),
    ...($metadata?.httpStatusCode !== undefined ? { http_status: $metadata.httpStatusCode } : {}),
    ...($metadata?.attempts !== undefined ? { attempts: $metadata.attempts } : {}),
    // Codes and messages only: a reason's `Item` is stored data.
    ...(CancellationReasons
      ? { cancellation_reasons: CancellationReasons.map((r) => (r.Message ? `${r.Code}: ${r.Message}` : r.Code)) }
      : {}),
    ...(cause !== undefined && depth < 5 ? { cause: describeError(cause, depth + 1) } : {}),
  };
}

/** middy's own timeout: the invocation ran out of its function's time, no dependency failed. */
const isFunctionTimeout = (error: unknown) =>
  (error as { name?: unknown })?.name === 'TimeoutError' && (error as { cause?: { package?: unknown } }).cause?.package === '@middy/core';

/**
 * Logs what a 5xx answer stands for, with the request id. Both answer
 * formats (problem+json, SCIM) call it with the status they answered.
 */
export async function logServerError(status: number, error: unknown, requestId: string): Promise<void> {
  if (status < 500) return;
  const message =
    status !== PROBLEM_STATUS.unavailable
      ? 'Unhandled error'
      : isFunctionTimeout(error)
        ? 'Answered 503: the function ran out of time'
        : 'Answered 503: a dependency stayed busy or failing';
  await log('error', message, { requestId, status, reason: describeError(error), error: error as Error });
}
