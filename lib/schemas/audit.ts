import * as z from 'zod/mini';
import { built, cursorPagination, isoTime, queryParam } from './common';
import { RESOURCE_TYPES } from './enums';

export const auditListQuery = /* @__PURE__ */ built(() =>
  z.strictObject({
    ...cursorPagination,
    query: queryParam,
    since: z.optional(isoTime),
    before: z.optional(isoTime),
  }),
);

/** A parameter given once comma-separated or repeated (API Gateway joins repeated values with commas). */
const commaList = <T extends z.ZodMiniType<string, string>>(item: T) =>
  z.pipe(
    z.pipe(
      z.string().check(z.maxLength(2000)),
      z.transform((value: string) =>
        value
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part !== ''),
      ),
    ),
    z.array(item).check(z.maxLength(50, 'must list at most 50 values')),
  );

/**
 * `now`, or an ISO time made canonical as isoTime does. One string schema rather than a union: the document then
 * says `string` with the example, where a union's `anyOf` led the Postman converter to send neither form.
 */
const sinceOrNow = /* @__PURE__ */ built(() =>
  z.pipe(
    z
      .string()
      .check(
        z.refine(
          (value: string) => value === 'now' || isoTime.safeParse(value).success,
          'must be now or an ISO 8601 time such as 2026-11-21T09:30:00.000Z',
        ),
      ),
    z.transform((value: string) => (value === 'now' ? value : new Date(value).toISOString())),
  ),
);

export const changeFeedQuery = /* @__PURE__ */ built(() =>
  z.strictObject({
    ...cursorPagination,
    since: z.optional(sinceOrNow),
    resource_type: z._default(commaList(z.enum(RESOURCE_TYPES)), []),
    exclude_actor: z._default(commaList(z.string().check(z.minLength(1), z.maxLength(300))), []),
  }),
);
