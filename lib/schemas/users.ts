import * as z from 'zod/mini';
import { ACCOUNT_ROLES } from './enums';
import { atMost, built, displayName, externalId, id, isoTime, MAX_CHARACTERS, pagination, queryParam, sortParam } from './common';
import { NO_CONTROL_CHARACTERS } from '../text';

const email = /* @__PURE__ */ built(() => z.email({ message: 'must be an e-mail address' }).check(atMost(MAX_CHARACTERS.email)));
const firstName = /* @__PURE__ */ built(() =>
  z.string().check(atMost(MAX_CHARACTERS.firstName), z.regex(NO_CONTROL_CHARACTERS, 'must not contain control characters')),
);
const accountRole = /* @__PURE__ */ built(() => z.enum(ACCOUNT_ROLES, { message: `must be one of ${ACCOUNT_ROLES.join(', ')}` }));
const activated = /* @__PURE__ */ built(() => z.boolean({ message: 'must be true or false' }));
const lastLogin = /* @__PURE__ */ built(() => z.nullable(isoTime));
/** The sign-in name an identity provider knows the user by: 1–255 printable characters. */
const userName = /* @__PURE__ */ built(() =>
  z
    .string()
    .check(
      z.minLength(1, 'must not be empty'),
      atMost(MAX_CHARACTERS.userName),
      z.regex(NO_CONTROL_CHARACTERS, 'must not contain control characters'),
    ),
);

export const createUserBody = /* @__PURE__ */ built(() =>
  z.strictObject({
    id: z.optional(id),
    email,
    last_name: displayName,
    first_name: z.optional(firstName),
    user_name: z.optional(userName),
    external_id: z.optional(externalId),
    account_role: z.optional(accountRole),
    activated: z.optional(activated),
    last_login: z.optional(lastLogin),
  }),
);

/**
 * The fields of a user PATCH /v2/users/{id} changes, but last_login: also
 * what SCIM sets (lib/scim/input.ts holds its users to it, so that one door
 * refuses what the other does).
 */
export const userFieldsChange = /* @__PURE__ */ built(() =>
  z.strictObject({
    email: z.optional(email),
    first_name: z.optional(firstName),
    last_name: z.optional(displayName),
    user_name: z.optional(userName),
    external_id: z.optional(externalId),
    account_role: z.optional(accountRole),
    activated: z.optional(activated),
  }),
);

/** department_id is not accepted here: membership changes through E2–E5. */
export const updateUserBody = /* @__PURE__ */ built(() => z.strictObject({ ...userFieldsChange.shape, last_login: z.optional(lastLogin) }));

/** The E1 parameters, shared by every user list. */
export const userListQuery = /* @__PURE__ */ built(() =>
  z.strictObject({
    ...pagination,
    sort: sortParam,
    query: queryParam,
    activated: z.optional(z.enum(['true', 'false'], { message: 'must be true or false' })),
    last_login: z.optional(z.string().check(z.maxLength(100))),
  }),
);
