import * as z from 'zod/mini';
import { built, id } from './common';

/** E9/G8: `?email=a@x.com[,b@y.com]`; the addresses themselves are checked by reports/recipients.ts. */
export const createReportQuery = /* @__PURE__ */ built(() => z.strictObject({ email: z.optional(z.string().check(z.maxLength(3000))) }));
export const reportIdParams = /* @__PURE__ */ built(() => z.strictObject({ report_id: id }));
/** `/download?redirect=false`: the link as JSON instead of the 303 (for clients that repeat Authorization on redirects). */
export const downloadReportQuery = /* @__PURE__ */ built(() =>
  z.strictObject({ redirect: z.optional(z.enum(['true', 'false'], { message: 'must be true or false' })) }),
);
/** The e-mailed link's `?token=`: the secret it carries (43 characters as made; bounded for anything else). */
export const emailDownloadQuery = /* @__PURE__ */ built(() =>
  z.strictObject({ token: z.string().check(z.minLength(1), z.maxLength(200)) }),
);
