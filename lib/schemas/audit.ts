import * as z from 'zod/mini';
import { built, isoTime, pagination, queryParam } from './common';

export const auditListQuery = /* @__PURE__ */ built(() =>
  z.strictObject({
    ...pagination,
    query: queryParam,
    since: z.optional(isoTime),
    before: z.optional(isoTime),
  }),
);
