/**
 * Response schemas: what the service answers, as the contract describes it. They
 * exist for the OpenAPI document (lib/openapi/) and, through it, for the HTTP
 * tests, which check every response against that document, and the types of
 * the domain are derived from them (`z.infer`). Code outside lib/openapi
 * imports only those types, so none of it reaches a route function's bundle.
 *
 * Every object is strict (`additionalProperties: false` in the document), so a
 * field the service adds without documenting it fails the HTTP tests.
 */
import * as z from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { PROBLEM_STATUS, PROBLEM_TITLE, type ProblemSlug } from '../problems';
import { id } from './common';
import {
  ACCOUNT_ROLES,
  EMAIL_STATUSES,
  QUOTA_NAMES,
  REPORT_STATUSES,
  REPORT_TYPES,
  RESOURCE_TYPES,
  RULE_STATUSES,
  WEBHOOK_STATUSES,
} from './enums';

/** A time as the service writes it: ISO 8601 in UTC with milliseconds. */
const time = z.iso.datetime();
const count = z.int().check(z.gte(0));

export const user = z.strictObject({
  id,
  user_name: z.string(),
  external_id: z.nullable(z.string()),
  email: z.email(),
  first_name: z.string(),
  last_name: z.string(),
  account_role: z.enum(ACCOUNT_ROLES),
  activated: z.boolean(),
  last_login: z.nullable(time),
  department_id: z.nullable(id),
  created_at: time,
  updated_at: time,
});

export const department = z.strictObject({ id, name: z.string(), user_count: count, created_at: time, updated_at: time });

export const quota = z.strictObject({
  name: z.enum(QUOTA_NAMES),
  limit: z.nullable(count),
  usage: count,
  editable: z.boolean(),
});

export const departmentQuotas = z.strictObject({ department_id: id, quotas: z.array(quota) });

/** A change that completes in the background (202): where to see it complete. */
export const applying = z.strictObject({ status: z.literal('applying'), resource: z.string() });

export const departmentDeleted = z.strictObject({ id, deleted: z.literal(true) });

/** A group as lists carry it: without its users. */
const ruleFields = { rule: z.nullable(z.string()), rule_status: z.nullable(z.enum(RULE_STATUSES)) };
/** `applying` while a change of more members than one transaction holds completes (docs/safety.md, slow changes). */
const bulkStatus = { bulk_status: z.nullable(z.literal('applying')) };

export const groupSummary = z.strictObject({
  id,
  name: z.string(),
  description: z.string(),
  external_id: z.nullable(z.string()),
  user_count: count,
  ...ruleFields,
  ...bulkStatus,
  created_at: time,
  updated_at: time,
});

/**
 * A group with its users (G1, G3, group PATCH): every one up to 1,000, else the first 1,000 and
 * `users_next_cursor`, the cursor of GET /v2/groups/{group_id}/users after them (null when all are there).
 */
export const group = z.strictObject({
  id,
  name: z.string(),
  description: z.string(),
  external_id: z.nullable(z.string()),
  user_count: count,
  ...ruleFields,
  ...bulkStatus,
  users: z.array(user).check(z.maxLength(1000)),
  users_next_cursor: z.nullable(z.string()),
  created_at: time,
  updated_at: time,
  /** Only in a dry run (`?dry_run=true`) of G3 or the group PATCH with a rule: what the rule would change. */
  rule_preview: z.optional(
    z.strictObject({
      matching: count,
      joining: count,
      leaving: count,
      sample_joining: z.array(user).check(z.maxLength(20)),
      sample_leaving: z.array(user).check(z.maxLength(20)),
    }),
  ),
});

export const users = z.strictObject({ users: z.array(user) });

/** A SCIM token as listed: never its secret. */
export const scimToken = z.strictObject({
  id,
  description: z.string(),
  created_at: time,
  expires_at: z.nullable(time),
  last_used_at: z.nullable(time),
});
/** A new SCIM token: its secret (`token`) is shown this once. */
export const scimTokenCreated = z.strictObject({
  id,
  description: z.string(),
  token: z.string(),
  created_at: time,
  expires_at: z.nullable(time),
  last_used_at: z.null(),
});
export const scimTokenList = z.strictObject({ tokens: z.array(scimToken) });

const page = { total: count, count, offset: count, next_cursor: z.nullable(z.string()) };
export const userList = z.strictObject({ users: z.array(user), ...page });
export const departmentList = z.strictObject({ departments: z.array(department), ...page });
export const groupList = z.strictObject({ groups: z.array(groupSummary), ...page });

export const report = z.strictObject({
  id,
  type: z.enum(REPORT_TYPES),
  status: z.enum(REPORT_STATUSES),
  created_at: time,
  completed_at: z.nullable(time),
  row_count: z.nullable(count),
  download_url: z.nullable(z.url()),
  email: z.nullable(z.strictObject({ recipients: z.array(z.email()), status: z.enum(EMAIL_STATUSES) })),
});

/** `/download?redirect=false`: the link the 303 would point to, and when it stops working. */
export const reportDownload = z.strictObject({ download_url: z.url(), expires_at: time });

export const auditEntry = z.strictObject({
  id,
  at: time,
  actor: z.string(),
  operation: z.string(),
  resource_type: z.enum(RESOURCE_TYPES),
  resource_id: z.string(),
  changes: z.record(z.string(), z.unknown()),
});
export const auditList = z.strictObject({ entries: z.array(auditEntry), count, next_cursor: z.nullable(z.string()) });
export const changeList = z.strictObject({ changes: z.array(auditEntry), count, next_cursor: z.string() });

/** A webhook as read: never its secret. */
const webhookFields = {
  id,
  url: z.string(),
  description: z.string(),
  resource_types: z.array(z.enum(RESOURCE_TYPES)),
  operations: z.array(z.string()),
  exclude_actors: z.array(z.string()),
  status: z.enum(WEBHOOK_STATUSES),
  created_at: time,
  updated_at: time,
  /** When the service disabled it (24 hours of failed deliveries); null unless `status` is `disabled`. */
  disabled_at: z.nullable(time),
};
export const webhook = z.strictObject(webhookFields);
/** A new webhook: its signing secret (`whsec_…`) is shown this once. */
export const webhookCreated = z.strictObject({ ...webhookFields, secret: z.string() });
export const webhookList = z.strictObject({ webhooks: z.array(webhook) });
/** A rotated secret: the new one (shown this once), and until when deliveries are also signed with the old one. */
export const webhookSecret = z.strictObject({ id, secret: z.string(), previous_secret_expires_at: time });
/** One delivery attempt: `status_code` null when no answer came (refused address, timeout, connection lost). */
export const webhookDelivery = z.strictObject({
  id,
  change_id: id,
  at: time,
  attempt: z.int().check(z.gte(1)),
  status_code: z.nullable(z.int()),
  duration_ms: count,
  error: z.nullable(z.string()),
  /** When the next attempt is due; null after a success, the last attempt, or a test ping. */
  next_attempt_at: z.nullable(time),
});
export const webhookDeliveryList = z.strictObject({ deliveries: z.array(webhookDelivery), count, next_cursor: z.nullable(z.string()) });

export const health = z.strictObject({ status: z.literal('ok') });

export type User = z.infer<typeof user>;
export type Department = z.infer<typeof department>;
export type Quota = z.infer<typeof quota>;
export type GroupSummary = z.infer<typeof groupSummary>;
export type Group = z.infer<typeof group>;
export type Report = z.infer<typeof report>;
export type AuditEntry = z.infer<typeof auditEntry>;
export type Webhook = z.infer<typeof webhook>;
export type WebhookDelivery = z.infer<typeof webhookDelivery>;

/** The OpenAPI document itself: an object whose shape is OpenAPI 3.1's, not ours. */
export const openApiDocument = z.looseObject({ openapi: z.string() });

// --- problems ----------------------------------------------------------------

const overage = z.strictObject({
  quota: z.enum(QUOTA_NAMES),
  limit: count,
  usage: count,
  requested: count,
  overage: z.int().check(z.gte(1)),
});

const ids = z.array(id);

/** The members a problem carries beyond RFC 9457's, by slug (see the OpenAPI document's problem schemas). */
const PROBLEM_EXTRAS = {
  validation: { errors: z.array(z.strictObject({ field: z.string(), message: z.string() })) },
  unauthorized: {},
  forbidden: {},
  'not-found': { missing_user_ids: z.optional(ids), missing_group_ids: z.optional(ids) },
  'not-a-member': { user_ids: ids },
  conflict: {
    field: z.optional(z.enum(['id', 'email', 'name', 'user_name', 'external_id'])),
    limit: z.optional(count),
    /** A rule that matches more users than a group holds: how many it matches. */
    matching: z.optional(count),
  },
  'quota-exceeded': { overages: z.array(overage) },
  'department-not-empty': { user_count: count },
  'rule-managed': {},
  'report-not-ready': { report_status: z.enum(REPORT_STATUSES.filter((status) => status !== 'complete')) },
  'quota-not-editable': {},
  'precondition-failed': {},
  'idempotency-key-reused': {},
  'payload-too-large': {},
  'unsupported-media-type': {},
  'too-many-requests': {},
  'method-not-allowed': {},
  unavailable: {},
  internal: { request_id: z.string() },
} satisfies Record<ProblemSlug, z.core.$ZodLooseShape>;

/** One schema per problem slug: RFC 9457 members, fixed type, title and status, then the slug's own members. */
export const problems = {} as Record<ProblemSlug, $ZodType>;
for (const slug of Object.keys(PROBLEM_EXTRAS) as ProblemSlug[]) {
  problems[slug] = z.strictObject({
    type: z.literal(`/problems/${slug}`),
    title: z.literal(PROBLEM_TITLE[slug]),
    status: z.literal(PROBLEM_STATUS[slug]),
    detail: z.string(),
    ...PROBLEM_EXTRAS[slug],
  });
}
