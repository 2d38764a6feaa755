/**
 * Problems: the errors the service answers as RFC 9457 problem details, with
 * the slugs, statuses and titles the OpenAPI document lists. The domain and the request
 * parsing throw them; lib/http/problem.ts is the one place that turns them,
 * and everything else that reaches it, into problem+json responses.
 */

export type ProblemSlug =
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'not-a-member'
  | 'conflict'
  | 'quota-exceeded'
  | 'department-not-empty'
  | 'rule-managed'
  | 'report-not-ready'
  | 'quota-not-editable'
  | 'precondition-failed'
  | 'idempotency-key-reused'
  | 'payload-too-large'
  | 'unsupported-media-type'
  | 'too-many-requests'
  | 'method-not-allowed'
  | 'unavailable'
  | 'internal';

export const PROBLEM_STATUS: Record<ProblemSlug, number> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  'not-a-member': 404,
  conflict: 409,
  'quota-exceeded': 409,
  'department-not-empty': 409,
  'rule-managed': 409,
  'report-not-ready': 409,
  'quota-not-editable': 403,
  'precondition-failed': 412,
  'idempotency-key-reused': 422,
  'payload-too-large': 413,
  'unsupported-media-type': 415,
  'too-many-requests': 429,
  'method-not-allowed': 405,
  unavailable: 503,
  internal: 500,
};

export const PROBLEM_TITLE: Record<ProblemSlug, string> = {
  validation: 'The request is not valid',
  unauthorized: 'Authentication required',
  forbidden: 'Not allowed',
  'not-found': 'Not found',
  'not-a-member': 'Not a member',
  conflict: 'Conflict',
  'quota-exceeded': 'Quota exceeded',
  'department-not-empty': 'Department not empty',
  'rule-managed': 'Members kept by a rule',
  'report-not-ready': 'Report not ready',
  'quota-not-editable': 'Quota not editable',
  'precondition-failed': 'Precondition failed',
  'idempotency-key-reused': 'Idempotency key reused',
  'payload-too-large': 'Payload too large',
  'unsupported-media-type': 'Unsupported media type',
  'too-many-requests': 'Too many requests',
  'method-not-allowed': 'Method not allowed',
  unavailable: 'Service unavailable',
  internal: 'Internal error',
};

export interface FieldError {
  field: string;
  message: string;
}

export class Problem extends Error {
  readonly slug: ProblemSlug;
  /** Extra problem members (`errors`, `overages`, `missing_user_ids`, ...). */
  readonly extra: Record<string, unknown>;
  /** `too-many-requests`: seconds until a retry can succeed (the `Retry-After` header). */
  readonly retryAfterSeconds?: number;

  constructor(slug: ProblemSlug, detail: string, extra: Record<string, unknown> = {}, options: { retryAfterSeconds?: number } = {}) {
    super(detail);
    this.name = 'Problem';
    this.slug = slug;
    this.extra = extra;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get status(): number {
    return PROBLEM_STATUS[this.slug];
  }
}

export const validationError = (errors: FieldError[], detail = 'The request has invalid fields.') =>
  new Problem('validation', detail, { errors });

export const notFound = (what: string, id: string) => new Problem('not-found', `${what} "${id}" does not exist.`);

export const conflict = (detail: string, extra: Record<string, unknown> = {}) => new Problem('conflict', detail, extra);

/** 429 with `Retry-After`: whole seconds, at least one. */
export const tooManyRequests = (detail: string, retryAfterSeconds: number) =>
  new Problem('too-many-requests', detail, {}, { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) });

export const preconditionFailed = () =>
  new Problem('precondition-failed', 'The resource has changed since the given ETag; fetch it again.');
