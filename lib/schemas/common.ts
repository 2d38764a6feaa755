/**
 * Building blocks of the request schemas. The same schemas validate requests
 * and generate the OpenAPI document, so messages here are what callers read.
 */
import * as z from 'zod/mini';
import { NO_CONTROL_CHARACTERS } from '../text';

/**
 * Builds a schema. Every schema of lib/schemas is made through a call to this
 * marked pure, so that esbuild leaves out of a function's bundle the schemas
 * it does not use: it cannot see that zod's builders are free of side effects
 * across modules, and building the unused ones cost ~2 ms of each cold start
 * (docs/performance.md).
 */
export const built = <T>(build: () => T): T => build();

export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const id = /* @__PURE__ */ built(() => z.string().check(z.regex(ID_PATTERN, 'must be 1–64 characters of A–Z, a–z, 0–9, _ or -')));

/** A display name: 1–200 characters, no control characters. */
export const displayName = /* @__PURE__ */ built(() =>
  z
    .string()
    .check(
      z.minLength(1, 'must not be empty'),
      z.maxLength(200, 'must be at most 200 characters'),
      z.regex(NO_CONTROL_CHARACTERS, 'must not contain control characters'),
    ),
);

/** An identity provider's own id of a user or group (`external_id`): 1–255 characters, or null. */
export const externalId = /* @__PURE__ */ built(() =>
  z.nullable(
    z
      .string()
      .check(
        z.minLength(1, 'must not be empty'),
        z.maxLength(255, 'must be at most 255 characters'),
        z.regex(NO_CONTROL_CHARACTERS, 'must not contain control characters'),
      ),
  ),
);

/** ISO 8601 time with an offset or Z; stored normalised to UTC milliseconds. */
export const isoTime = /* @__PURE__ */ built(() =>
  z.pipe(
    z.iso.datetime({ offset: true, message: 'must be an ISO 8601 time such as 2026-11-21T09:30:00.000Z' }),
    z.transform((value: string) => new Date(value).toISOString()),
  ),
);

/** An integer in a query string, within bounds. */
function boundedInteger(min: number, max: number) {
  return z.pipe(
    z.string().check(z.regex(/^\d{1,10}$/, `must be an integer from ${min} to ${max}`)),
    z.pipe(
      z.transform((value: string) => Number(value)),
      z.int().check(z.gte(min, `must be at least ${min}`), z.lte(max, `must be at most ${max}`)),
    ),
  );
}

/** An integer in a query string, within bounds, with a default. */
export function queryInteger(min: number, max: number, fallback: number) {
  return z._default(boundedInteger(min, max), fallback);
}

/** An offset reads what it skips, hence its bound; a cursor does not. */
export const MAX_OFFSET = 10_000;

/**
 * A `next_cursor` as the service writes it (base64url, a dot, a digest), or
 * empty: `cursor=` is the first page, as if absent, so a client that always
 * sends the parameter (a generated collection sends every one) can leave it blank.
 */
const cursor = /* @__PURE__ */ built(() =>
  z.pipe(
    z
      .string()
      .check(
        z.maxLength(2000, 'must be a next_cursor of this list'),
        z.regex(/^(?:[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)?$/, 'must be a next_cursor of this list'),
      ),
    z.transform((value: string) => (value === '' ? undefined : value)),
  ),
);

/** `count`, and `offset` or `cursor` (never both: lib/http/list-params.ts says so). */
export const pagination = /* @__PURE__ */ built(() => ({
  count: queryInteger(1, 1000, 100),
  offset: z.optional(boundedInteger(0, MAX_OFFSET)),
  cursor: z.optional(cursor),
}));

/** A log's paging: `count` and `cursor` only (no offset, no total). */
export const cursorPagination = /* @__PURE__ */ built(() => ({
  count: queryInteger(1, 1000, 100),
  cursor: z.optional(cursor),
}));

export const sortParam = /* @__PURE__ */ built(() => z.optional(z.string().check(z.maxLength(100))));
export const queryParam = /* @__PURE__ */ built(() => z.optional(z.string().check(z.maxLength(2000))));

export const userIdParams = /* @__PURE__ */ built(() => z.strictObject({ user_id: id }));
export const departmentIdParams = /* @__PURE__ */ built(() => z.strictObject({ department_id: id }));
export const departmentUserParams = /* @__PURE__ */ built(() => z.strictObject({ department_id: id, user_id: id }));

/** `?dry_run=true`: validate and check quotas, answer what would happen, change nothing. */
export const dryRunQuery = /* @__PURE__ */ built(() => z.strictObject({ dry_run: z.optional(z.enum(['true', 'false'])) }));
