import * as z from 'zod/mini';
import { built, cursorPagination, isoTime, queryParam } from './common';

export const auditListQuery = /* @__PURE__ */ built(() =>
  z.strictObject({
    ...cursorPagination,
    query: queryParam,
    since: z.optional(isoTime),
    before: z.optional(isoTime),
  }),
);
