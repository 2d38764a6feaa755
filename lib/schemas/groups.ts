import * as z from 'zod/mini';
import { built, displayName, externalId, id, pagination, queryParam, sortParam } from './common';

/** Up to 2,000 characters; tab and line breaks are allowed, other control characters are not. */
const description = /* @__PURE__ */ built(() =>
  z
    .string()
    .check(
      z.maxLength(2000, 'must be at most 2000 characters'),
      z.regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, 'must not contain control characters other than tab and line breaks'),
    ),
);

/** A group rule in the lists' `query` syntax over department_id, account_role and activated (checked by lib/groups/rule.ts), or null: none. */
const rule = /* @__PURE__ */ built(() =>
  z.nullable(
    z.string().check(z.minLength(1, 'must not be empty; null turns the rule off'), z.maxLength(4000, 'must be at most 4000 characters')),
  ),
);

export const groupIdParams = /* @__PURE__ */ built(() => z.strictObject({ group_id: id }));
export const groupUserParams = /* @__PURE__ */ built(() => z.strictObject({ group_id: id, user_id: id }));

/** User ids given at once to a group: as many as twice the group size limit, so that a bad request's answer stays small. */
export const groupUserIds = /* @__PURE__ */ built(() =>
  z.array(id).check(z.maxLength(20_000, 'must list at most 20000 ids (a group holds at most 10000 users)')),
);

/**
 * G3. Repeated user ids are ignored; more than 10,000 different ones is a 409
 * (the group size limit), so the list itself may be longer, up to a bound that keeps a bad
 * request's answer small.
 */
export const createGroupBody = /* @__PURE__ */ built(() =>
  z.strictObject({
    id: z.optional(id),
    name: displayName,
    description: z.optional(description),
    external_id: z.optional(externalId),
    user_ids: z.optional(groupUserIds),
    rule: z.optional(rule),
  }),
);

/** Any of the fields; an empty body changes nothing (200), as PATCH of a user. */
export const updateGroupBody = /* @__PURE__ */ built(() =>
  z.strictObject({
    name: z.optional(displayName),
    description: z.optional(description),
    external_id: z.optional(externalId),
    rule: z.optional(rule),
  }),
);

/** G7: 1–100 group ids; repeats are ignored. */
export const deleteGroupsBody = /* @__PURE__ */ built(() =>
  z.strictObject({
    group_ids: z.array(id).check(z.minLength(1, 'must list at least one group'), z.maxLength(100, 'must list at most 100 groups')),
  }),
);

export const groupListQuery = /* @__PURE__ */ built(() => z.strictObject({ ...pagination, sort: sortParam, query: queryParam }));
