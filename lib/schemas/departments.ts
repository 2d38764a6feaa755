import * as z from 'zod/mini';
import { built, displayName, id, pagination, queryParam, sortParam } from './common';

export const createDepartmentBody = /* @__PURE__ */ built(() => z.strictObject({ id: z.optional(id), name: displayName }));
export const updateDepartmentBody = /* @__PURE__ */ built(() => z.strictObject({ name: displayName }));
export const departmentListQuery = /* @__PURE__ */ built(() => z.strictObject({ ...pagination, sort: sortParam, query: queryParam }));

/** E3/E5: 1–1,000 user ids; repeats are ignored. */
export const bulkUserIdsBody = /* @__PURE__ */ built(() =>
  z.strictObject({
    user_ids: z.array(id).check(z.minLength(1, 'must list at least one user'), z.maxLength(1000, 'must list at most 1000 users')),
  }),
);
