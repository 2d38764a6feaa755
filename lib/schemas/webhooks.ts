/**
 * Requests of the webhook routes (contract: "Following changes"). A webhook's
 * filters name what the audit trail records: `resource_types` its resource
 * types, `operations` the `operation` of its entries (an operation's contract
 * label where it has one, else its name: lib/routes.ts auditedOperation),
 * `exclude_actors` the `actor`s whose changes the endpoint does not want
 * (a client leaves out its own). An empty or absent filter lets everything through.
 * Schemas check the form; lib/webhooks/filters.ts that each operation is one the trail records.
 */
import * as z from 'zod/mini';
import { atMost, built, cursorPagination, id } from './common';
import { RESOURCE_TYPES, WEBHOOK_SETTABLE_STATUSES } from './enums';

/** At most this many webhooks: each change is fanned out to every one of them. */
export const MAX_WEBHOOKS = 25;
const MAX_URL_CHARACTERS = 2000;
const MAX_FILTER_VALUES = 100;

/** Syntax only here; the scheme, credentials and the addresses the host resolves to are checked by lib/webhooks/endpoint.ts. */
const url = /* @__PURE__ */ built(() =>
  z.url({ message: 'must be an absolute URL such as https://hooks.example.com/directory' }).check(atMost(MAX_URL_CHARACTERS)),
);

const description = /* @__PURE__ */ built(() =>
  z.string().check(atMost(200), z.regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters')),
);

const filterList = <T extends z.ZodMiniType<string>>(value: T) =>
  z.array(value).check(z.maxLength(MAX_FILTER_VALUES, `must list at most ${MAX_FILTER_VALUES} values`));

const filters = /* @__PURE__ */ built(() => ({
  resource_types: z.optional(filterList(z.enum(RESOURCE_TYPES))),
  // Each must be an operation the audit trail records: lib/webhooks/filters.ts checks them against the route table.
  operations: z.optional(filterList(z.string().check(z.minLength(1, 'must not be empty'), atMost(100)))),
  exclude_actors: z.optional(filterList(z.string().check(z.minLength(1, 'must not be empty'), atMost(255)))),
}));

export const createWebhookBody = /* @__PURE__ */ built(() => z.strictObject({ url, description: z.optional(description), ...filters }));

/** Any of the fields; `status` only `active` (which also re-enables a disabled webhook) or `paused`. */
export const updateWebhookBody = /* @__PURE__ */ built(() =>
  z.strictObject({
    url: z.optional(url),
    description: z.optional(description),
    ...filters,
    status: z.optional(z.enum(WEBHOOK_SETTABLE_STATUSES)),
  }),
);

export const webhookParams = /* @__PURE__ */ built(() => z.strictObject({ webhook_id: id }));

export const webhookDeliveriesQuery = /* @__PURE__ */ built(() => z.strictObject({ ...cursorPagination }));

export type CreateWebhookBody = z.infer<typeof createWebhookBody>;
export type UpdateWebhookBody = z.infer<typeof updateWebhookBody>;
