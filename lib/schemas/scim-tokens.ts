import * as z from 'zod/mini';
import { built, displayName, id } from './common';

/** POST /v2/scim/tokens: what the token is for (1–200 characters). */
export const createScimTokenBody = /* @__PURE__ */ built(() => z.strictObject({ description: displayName }));

export const scimTokenParams = /* @__PURE__ */ built(() => z.strictObject({ token_id: id }));
