import * as z from 'zod/mini';
import { built } from './common';
import { QUOTA_NAMES } from './enums';

/** `seats` is accepted here so that E7 can answer it with 403 quota-not-editable rather than 400. */
export const setQuotaBody = /* @__PURE__ */ built(() =>
  z.strictObject({
    name: z.enum(QUOTA_NAMES, { message: `must be one of ${QUOTA_NAMES.join(', ')}` }),
    limit: z.nullable(
      z
        .int({ message: 'must be an integer or null' })
        .check(z.gte(0, 'must be at least 0'), z.lte(1_000_000_000, 'must be at most 1000000000')),
    ),
  }),
);
