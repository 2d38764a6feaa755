import * as z from 'zod/mini';
import { built, displayName, id, isoTime } from './common';

/** POST /v2/scim/tokens: what the token is for (1–200 characters), and when it stops working (none: never). */
export const createScimTokenBody = /* @__PURE__ */ built(() =>
  z.strictObject({
    description: displayName,
    expires_at: z.optional(
      z.pipe(isoTime, z.string().check(z.refine((time) => Date.parse(time) > Date.now(), { message: 'must be a time in the future' }))),
    ),
  }),
);

export const scimTokenParams = /* @__PURE__ */ built(() => z.strictObject({ token_id: id }));
