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

export const changeFeedQuery = /* @__PURE__ */ built(() =>
  z.strictObject({
    ...cursorPagination,
    since: z.optional(z.union([z.literal('now'), isoTime])),
    resource_type: z._default(commaList(z.enum(RESOURCE_TYPES)), []),
    exclude_actor: z._default(commaList(z.string().check(z.minLength(1), z.maxLength(300))), []),
  }),
);
