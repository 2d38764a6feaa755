/**
 * What the OpenAPI document says about each operation beyond what the route
 * table (lib/routes.ts) and the handler's request schemas (`handler.spec`)
 * already say: its responses, the problems it can answer, the text of its
 * parameters and an example request body.
 *
 * This is a docs-only module: the document generator reads it, and handlers
 * only its types (their replies are typed by these responses), so response
 * schemas never reach a route function's bundle. Every route of the table but
 * SCIM's needs an entry here: one without is a type error.
 *
 * Problems that follow from the route itself are added by the generator
 * (lib/openapi/document.ts): 401 and 403 from its access level, 400 when it
 * takes any input, 413/415 when it takes a body, 409 `conflict` for every
 * change (a concurrent change won), 412 with `ifMatch`, and 500/503.
 */
import type { $ZodType } from 'zod/v4/core';
import * as z from 'zod/mini';
import type { ProblemSlug } from '../problems';
import type { OperationName, OperationNameOf } from '../routes';
import {
  ACCOUNT_ROLES,
  AUDIT_FILTER_ATTRIBUTES,
  RESOURCE_TYPES,
  GROUP_USER_SORT_FIELDS,
  NAMED_SORT_FIELDS,
  USER_FILTER_ATTRIBUTES,
  USER_SORT_FIELDS,
} from '../schemas/enums';
import { CONSOLE_ASSET_NAME } from '../console/files';
import { EMAILED_REPORTS_PER_HOUR, MAX_RECIPIENTS } from '../reports/recipients';
import { MAX_WEBHOOKS } from '../schemas/webhooks';
import * as responses from '../schemas/responses';
import { FILTER_VALUES, filterPattern, LAST_LOGIN_PATTERN, RECIPIENTS_PATTERN, sortSchema } from './parameters';

/** lib/groups/bulk-change.ts holds a group while it applies a large change of its members. */
const GROUP_BUSY =
  " While an identity provider's change of many of the group's members is being applied (seconds), other member changes and its deletion get 409 `conflict`: retry.";

/** lib/groups/rule.ts and rule-preview.ts: what a rule is, and its limits. */
const RULE_DOC =
  '`rule` keeps the members by department, role and activation: the `query` syntax over `department_id` (an existing department; at most 40), `account_role` and `activated` ' +
  '(e.g. `department_id:eng,department_id:ops,account_role:admin,activated:true`); every user change then joins or leaves it within 5 seconds, audited with actor `rule:<group id>`. ' +
  'A rule matching more than 10,000 users is a 409 `conflict` with `matching`; at most 500 groups have a rule (409).';

export interface HeaderDoc {
  description: string;
  /** The header is on every response of this status. */
  required?: boolean;
}

export interface ResponseDoc {
  description: string;
  /** A JSON body (`application/json`). */
  schema?: $ZodType;
  /** A body of another media type; its JSON Schema. */
  media?: { type: string; schema: Record<string, unknown> };
  headers?: Record<string, HeaderDoc>;
}

export interface OperationDoc {
  description?: string;
  /** Successful (and redirect) responses by status. */
  responses: Record<number, ResponseDoc>;
  /** Problems this operation answers beyond those every route of its kind answers. */
  problems?: ProblemSlug[];
  /**
   * The path parameters of a route whose function validates its own and so has no `handler.spec.params` (a file route
   * kept free of zod for its cold start); the function's checks and this schema must agree (a test holds them together).
   */
  params?: $ZodType;
  /** Text of the parameters of `handler.spec`, by name (common names have a default text). */
  parameters?: Record<string, string>;
  /** JSON Schema keywords that narrow a parameter's schema for clients (an enum, a pattern), by name (parameters.ts). */
  parameterSchemas?: Record<string, Record<string, unknown>>;
  /** Examples of parameters, by name, where the default one (parameters.ts PARAMETER_EXAMPLES) does not fit. */
  parameterExamples?: Record<string, unknown>;
  /** An example body; required for every operation that takes one, and checked against its schema. */
  requestExample?: unknown;
  /** PATCH/DELETE honouring `If-Match` (412 `precondition-failed` on a stale tag). */
  ifMatch?: boolean;
}

const ETAG: HeaderDoc = { description: 'Version tag of the resource, for `If-Match`.', required: true };
const location = (what: string): HeaderDoc => ({ description: `Path of the ${what}.`, required: true });

const LINK: HeaderDoc = { description: 'The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page.' };

/** A page of a list, with its `Link` to the next. */
const listResponse = <S extends $ZodType>(items: string, schema: S) =>
  ({
    description: `A page of ${items}, with \`total\` (all that match), \`count\` (returned here), \`offset\` (the position of the first) and \`next_cursor\` (null on the last page).`,
    schema,
    headers: { Link: LINK },
  }) satisfies ResponseDoc;
const sortText = (fields: readonly string[], fallback: string) =>
  `\`asc\` or \`desc\` (on \`${fallback}\`), or \`<field>\` / \`<field>:asc|desc\` with field one of ${fields
    .map((field) => `\`${field}\``)
    .join(', ')}. Text compares case-insensitively; ties go by \`id\`. Anything else: 400.`;

const userListParameters: Record<string, string> = {
  sort: `${sortText(USER_SORT_FIELDS, 'last_name')} A null \`last_login\` counts as older than any time.`,
  query:
    `Filters \`<attribute>:<value>\`, comma-separated, attribute one of ${USER_FILTER_ATTRIBUTES.map((a) => `\`${a}\``).join(', ')}: ` +
    `\`account_role\` exact (${ACCOUNT_ROLES.join(', ')}), \`last_name\` case-insensitive prefix, \`department_id\` exact. ` +
    'The same attribute twice means either value; different attributes must all hold.',
  activated: 'Only activated (`true`) or not activated (`false`) users.',
  last_login:
    '`never` (never logged in), `since:<ISO date or time>` or `before:<ISO date or time>` (these two match only users who have logged in).',
};

/** What every user list (listMemberUsers, listUsers, listDepartmentUsers) adds to its parameters for clients. */
const userList: Pick<OperationDoc, 'parameters' | 'parameterSchemas' | 'parameterExamples'> = {
  parameters: userListParameters,
  parameterSchemas: {
    sort: sortSchema(USER_SORT_FIELDS),
    query: {
      pattern: filterPattern({
        account_role: FILTER_VALUES.accountRole,
        last_name: FILTER_VALUES.prefix,
        department_id: FILTER_VALUES.id,
      }),
    },
    last_login: { pattern: LAST_LOGIN_PATTERN },
  },
  parameterExamples: {
    sort: 'last_name:desc',
    query: 'account_role:member,last_name:Lov',
    activated: 'true',
    last_login: 'since:2026-01-01',
  },
};

const namedList = (what: string): Pick<OperationDoc, 'parameters' | 'parameterSchemas' | 'parameterExamples'> => ({
  parameters: namedListParameters(what),
  parameterSchemas: { sort: sortSchema(NAMED_SORT_FIELDS), query: { pattern: filterPattern({ name: FILTER_VALUES.prefix }) } },
  parameterExamples: { sort: 'user_count:desc', query: 'name:Eng' },
});

const namedListParameters = (what: string): Record<string, string> => ({
  sort: sortText(NAMED_SORT_FIELDS, 'name'),
  query: `\`name:<prefix>\`: ${what} whose name starts with the prefix (case-insensitive); repeat for either of several prefixes.`,
});

const EMAIL_LIMIT = `A caller (the token's subject) may ask for at most ${EMAILED_REPORTS_PER_HOUR} e-mailed reports an hour; more: 429 \`too-many-requests\` with \`Retry-After\`. Reports without \`email\` are not counted.`;

const reportEmail: Pick<OperationDoc, 'parameters' | 'parameterSchemas' | 'parameterExamples' | 'problems'> = {
  parameters: {
    email: `1–${MAX_RECIPIENTS} comma-separated e-mail addresses to send the CSV to when it is complete, each in a domain the deployment allows (\`REPORT_EMAIL_DOMAINS\`; without it, none: 400).`,
  },
  parameterSchemas: { email: { pattern: RECIPIENTS_PATTERN } },
  parameterExamples: { email: 'reports@example.com' },
  // At most EMAILED_REPORTS_PER_HOUR reports with `email` per caller an hour (lib/reports/email-allowance.ts counts them).
  problems: ['too-many-requests'],
};

const report = (type: string) =>
  ({
    description: `The report job (${type}); poll its \`Location\` until \`status\` is \`complete\` or \`failed\`.`,
    schema: responses.report,
    headers: { Location: location('report') },
  }) satisfies ResponseDoc;

const getReport = {
  description: 'When the report is complete, `row_count` is set and `download_url` is a link (valid 15 minutes) to the CSV.',
  responses: { 200: { description: 'The report.', schema: responses.report } },
  problems: ['not-found'],
} satisfies OperationDoc;

const downloadReport = {
  description:
    'The link carries its own signature: a client that repeats `Authorization` on the redirect (Postman/newman, Prism, ' +
    'Python\'s urllib) is refused by S3 (400 "Only one auth mechanism allowed"). Such clients ask with `redirect=false` and ' +
    'fetch `download_url` without the header.',
  parameterExamples: { redirect: 'false' },
  parameters: {
    redirect:
      '`false`: answer 200 with the link as JSON instead of the 303 (for clients that repeat `Authorization` on redirects). Default `true`.',
  },
  responses: {
    200: {
      description: 'With `redirect=false`: the link to the CSV (valid 15 minutes) and when it expires.',
      schema: responses.reportDownload,
    },
    303: {
      description: 'See the CSV at `Location` (a link valid 15 minutes). Follow it without the `Authorization` header.',
      headers: { Location: { description: 'The CSV.', required: true } },
    },
  },
  problems: ['not-found', 'report-not-ready'],
} satisfies OperationDoc;

/** By operation name: every operation of the route table but SCIM's (lib/openapi/scim.ts). */
export const operationDocs = {
  // --- Service -----------------------------------------------------------
  health: { responses: { 200: { description: 'The service answers.', schema: responses.health } } },
  openapi: {
    description: 'This document: OpenAPI 3.1, generated from the route table and the request and response schemas.',
    responses: { 200: { description: 'The OpenAPI document.', schema: responses.openApiDocument } },
  },
  docs: {
    description: 'A page that renders this document with Redoc, served by the service itself (no CDN).',
    responses: { 200: { description: 'The page.', media: { type: 'text/html', schema: { type: 'string' } } } },
  },
  docsRenderer: {
    description: "Redoc's standalone bundle, as packaged on the npm registry; gzip-encoded when the client accepts it.",
    responses: { 200: { description: 'The script.', media: { type: 'text/javascript', schema: { type: 'string' } } } },
  },
  console: {
    description:
      'The admin console: a page that signs a person in (a pasted token, the link `npm start` prints, or the OAuth login of the deployment) and then uses this API as any client does. Its Content-Security-Policy allows nothing from elsewhere.',
    responses: { 200: { description: 'The page.', media: { type: 'text/html', schema: { type: 'string' } } } },
  },
  consoleAssets: {
    description: "One of the console's scripts or styles, named by its content hash; gzip-encoded when the client accepts it.",
    params: z.object({ asset: z.string().check(z.regex(CONSOLE_ASSET_NAME)) }),
    parameters: { asset: 'The file, as the console page links it.' },
    parameterExamples: { asset: 'index-Bx8k2Q1c.js' },
    responses: { 200: { description: 'The file.', media: { type: 'text/javascript', schema: { type: 'string' } } } },
    problems: ['not-found'],
  },

  // --- Users ---------------------------------------------------------------
  createUser: {
    description: '`email` is unique (compared case-insensitively); the server makes an `id` when none is given.',
    responses: { 201: { description: 'The new user.', schema: responses.user, headers: { Location: location('user'), ETag: ETAG } } },
    requestExample: {
      id: 'ada',
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      account_role: 'member',
      activated: true,
    },
  },
  listUsers: {
    description: 'Every user, in or out of a department. Same parameters as E1.',
    responses: { 200: listResponse('users', responses.userList) },
    ...userList,
  },
  getUser: {
    responses: { 200: { description: 'The user.', schema: responses.user, headers: { ETag: ETAG } } },
    problems: ['not-found'],
  },
  updateUser: {
    description:
      "A change of `account_role` or `activated` of a department member is checked against that department's quotas. `department_id` is not accepted: membership changes through E2–E5.",
    responses: { 200: { description: 'The user as changed.', schema: responses.user, headers: { ETag: ETAG } } },
    problems: ['not-found', 'quota-exceeded'],
    requestExample: { account_role: 'manager', activated: true },
    ifMatch: true,
  },
  deleteUser: {
    // Another user than the one the other examples read and change: a collection that runs every example in order keeps `ada`.
    parameterExamples: { user_id: 'leaver' },
    description: 'The user leaves its department and its groups.',
    responses: { 204: { description: 'Deleted.' } },
    problems: ['not-found'],
    ifMatch: true,
  },

  // --- Departments ---------------------------------------------------------
  createDepartment: {
    description: 'The server makes an `id` when none is given; `users` and `exports` cannot be department ids.',
    responses: {
      201: { description: 'The new department.', schema: responses.department, headers: { Location: location('department'), ETag: ETAG } },
    },
    requestExample: { id: 'eng', name: 'Engineering' },
  },
  listDepartments: {
    responses: { 200: listResponse('departments', responses.departmentList) },
    ...namedList('departments'),
  },
  getDepartment: {
    responses: { 200: { description: 'The department.', schema: responses.department, headers: { ETag: ETAG } } },
    problems: ['not-found'],
  },
  updateDepartment: {
    responses: { 200: { description: 'The department as renamed.', schema: responses.department, headers: { ETag: ETAG } } },
    problems: ['not-found'],
    requestExample: { name: 'Research and Development' },
    ifMatch: true,
  },
  listDepartmentUsers: {
    description: 'E1 restricted to one department.',
    responses: { 200: listResponse('users', responses.userList) },
    problems: ['not-found'],
    ...userList,
  },
  listMemberUsers: {
    description: 'Users that belong to any department.',
    responses: { 200: listResponse('users', responses.userList) },
    ...userList,
  },
  addDepartmentUser: {
    description:
      'No body. A user in another department moves: it leaves the old one in the same atomic step. Already a member: 200, nothing changes. An addition that would exceed any quota: 409 `quota-exceeded` with every quota it would exceed.',
    responses: {
      200: {
        description: 'The user, now in this department.',
        schema: responses.user,
        headers: { ETag: { description: 'Version tag of the user, for `If-Match`; none on a dry run.' } },
      },
    },
    problems: ['not-found', 'quota-exceeded'],
  },
  addDepartmentUsers: {
    description:
      'All or nothing: unknown users give 404 `not-found` with `missing_user_ids`, a quota that would be exceeded gives 409 `quota-exceeded`, and nothing changes. Repeated ids are ignored.',
    responses: { 200: { description: 'The users, in request order.', schema: responses.users } },
    problems: ['not-found', 'quota-exceeded'],
    requestExample: { user_ids: ['ada', 'grace'] },
  },
  removeDepartmentUser: {
    description: "The user's `department_id` becomes null.",
    responses: { 204: { description: 'Removed.' } },
    problems: ['not-found', 'not-a-member'],
  },
  removeDepartmentUsers: {
    description:
      'All or nothing: users that are not members of this department give 404 `not-a-member` with `user_ids`, and nothing changes.',
    responses: { 204: { description: 'Removed.' } },
    problems: ['not-found', 'not-a-member'],
    requestExample: { user_ids: ['ada', 'grace'] },
  },
  getDepartmentQuotas: {
    description: 'All six quotas in a fixed order: `users`, `activated_users`, `admins`, `managers`, `guests`, `seats`.',
    responses: { 200: { description: "The department's quotas.", schema: responses.departmentQuotas } },
    problems: ['not-found'],
  },
  setDepartmentQuota: {
    description:
      '`limit: null` removes the limit. A limit below the current usage is accepted: members stay, further additions fail. `seats` comes from the deployment: 403 `quota-not-editable`.',
    responses: { 200: { description: 'The quota.', schema: responses.quota } },
    problems: ['not-found', 'quota-not-editable'],
    requestExample: { name: 'users', limit: 10 },
  },
  deleteDepartment: {
    // Another department than `eng`, which the other examples use: an empty one that may go.
    parameterExamples: { department_id: 'closing' },
    description: 'Only an empty department can go: 409 `department-not-empty` (with `user_count`) while it has users.',
    responses: { 200: { description: 'Deleted.', schema: responses.departmentDeleted } },
    problems: ['not-found', 'department-not-empty'],
    ifMatch: true,
  },

  // --- Groups --------------------------------------------------------------
  getGroup: {
    description:
      'The group with its users, sorted by `last_name`, then `id`: every one when it has at most 1,000, else the first 1,000 and `users_next_cursor`, the `cursor` of `GET /v2/groups/{group_id}/users` (listGroupUsers) that continues after them (null when all are there). Every answer stays within the 6 MB a function can return.',
    responses: { 200: { description: 'The group.', schema: responses.group, headers: { ETag: ETAG } } },
    problems: ['not-found'],
  },
  listGroupUsers: {
    description:
      "A group's users, a page at a time, with E1's parameters. `sort=id` (or `id:desc`) pages straight from the group's member partition: a page costs its own users, at any depth, and takes no filter (400). `sort=last_name` (the default, G1's order, which `users_next_cursor` of G1 continues) and the filters are answered by reading every member of the group, up to 10,000 users, for each page. E1's other orders (`account_role`, `activated`, `last_login`) are not served: 400.",
    responses: { 200: listResponse('users', responses.userList) },
    problems: ['not-found'],
    ...userList,
    parameters: { ...userListParameters, sort: `${sortText(GROUP_USER_SORT_FIELDS, 'last_name')} Only \`id\` costs a page.` },
    parameterSchemas: { ...userList.parameterSchemas, sort: sortSchema(GROUP_USER_SORT_FIELDS) },
  },
  listGroups: {
    description: 'Groups without their users.',
    responses: { 200: listResponse('groups', responses.groupList) },
    ...namedList('groups'),
  },
  createGroup: {
    description:
      'The name is unique case-insensitively (409). All or nothing: unknown users give 404 `not-found` with `missing_user_ids`; more than 10,000 users give 409. `exports` cannot be a group id. ' +
      RULE_DOC +
      ' With a rule the group is created empty, `rule_status: applying`; `user_ids` with a rule give 409 `rule-managed`.',
    responses: {
      201: { description: 'The new group with its users.', schema: responses.group, headers: { Location: location('group'), ETag: ETAG } },
      200: {
        description: 'Dry run (`dry_run=true`): the group as it would be, with a rule its `rule_preview`; nothing was created.',
        schema: responses.group,
      },
    },
    problems: ['not-found', 'rule-managed'],
    requestExample: { id: 'designers', name: 'Designers', description: 'Product and brand design', user_ids: ['ada', 'grace'] },
  },
  addGroupUser: {
    description: `Already a member: 200, nothing changes. A group holds at most 10,000 users (409). A rule group's members are kept by its rule: 409 \`rule-managed\`.${GROUP_BUSY}`,
    responses: { 200: { description: 'The user.', schema: responses.user } },
    problems: ['not-found', 'rule-managed'],
  },
  removeGroupUser: {
    description: `A rule group's members are kept by its rule: 409 \`rule-managed\`.${GROUP_BUSY}`,
    responses: { 204: { description: 'Removed.' } },
    problems: ['not-found', 'not-a-member', 'rule-managed'],
  },
  deleteGroup: {
    parameterExamples: { group_id: 'old-group' },
    description: `Its users stay; only the memberships go.${GROUP_BUSY}`,
    responses: { 204: { description: 'Deleted.' } },
    problems: ['not-found'],
    ifMatch: true,
  },
  deleteGroups: {
    description: `All or nothing: any unknown group gives 404 \`not-found\` with \`missing_group_ids\`, and nothing is deleted.${GROUP_BUSY}`,
    responses: { 204: { description: 'Deleted.' } },
    problems: ['not-found'],
    // Not `designers`, which the other examples use.
    requestExample: { group_ids: ['reviewers', 'retired'] },
  },
  updateGroup: {
    description:
      'Give `name`, `description`, `external_id`, `rule` or any of them; a new name must be unique case-insensitively (409). An empty body changes nothing (200). ' +
      RULE_DOC +
      ' A new rule leaves the group `applying` until its joins and leaves are written; `rule: null` turns it back into a manual group, its members staying. ' +
      'With `dry_run=true` and a rule: the group as it is, with `rule_preview`; nothing changes.',
    responses: {
      200: {
        description: 'The group as changed (or, in a dry run, as it is with its `rule_preview`), with its users.',
        schema: responses.group,
        headers: { ETag: ETAG },
      },
    },
    problems: ['not-found'],
    requestExample: { name: 'Design', description: 'Product, brand and UX design' },
    ifMatch: true,
  },

  // --- Reports -------------------------------------------------------------
  createDepartmentsReport: {
    description: `One CSV row per department, with its usage and limits. Create → poll → download. ${EMAIL_LIMIT}`,
    responses: { 202: report('departments') },
    ...reportEmail,
  },
  getDepartmentsReport: { ...getReport, parameterExamples: { report_id: 'r-departments-example' } },
  downloadDepartmentsReport: {
    ...downloadReport,
    parameterExamples: { ...downloadReport.parameterExamples, report_id: 'r-departments-example' },
  },
  createGroupsReport: {
    description: `One CSV row per group and member (a group with no users has one row with the user cells empty). Create → poll → download. ${EMAIL_LIMIT}`,
    responses: { 202: report('groups') },
    ...reportEmail,
  },
  getGroupsReport: { ...getReport, parameterExamples: { report_id: 'r-groups-example' } },
  downloadGroupsReport: { ...downloadReport, parameterExamples: { ...downloadReport.parameterExamples, report_id: 'r-groups-example' } },
  downloadEmailedReport: {
    description:
      'The link a report e-mail carries when the CSV is too large to attach; it needs no token (its secret is in `token`) and works until the date the e-mail states (7 days). ' +
      'A wrong, tampered or expired `token`, or an unknown report, is 404 alike.',
    parameters: { token: 'The secret of the e-mailed link, as the e-mail gives it.' },
    parameterExamples: { report_id: 'r-departments-example', token: 'x0Qy1dVh2l5pQm3rT8kz6bWf9nJc4sA7eGu0oLi2Hd8' },
    responses: {
      303: {
        description: 'See the CSV at `Location` (a link valid 5 minutes).',
        headers: { Location: { description: 'The CSV.', required: true } },
      },
    },
    problems: ['not-found'],
  },

  // --- SCIM tokens -----------------------------------------------------------
  createScimToken: {
    description:
      'A token for an identity provider\'s SCIM connection (Okta, Entra ID: "Secret token"). The answer carries its secret, `token`, this once: the service keeps only a hash. Paste it in the identity provider with the SCIM base URL `{base_url}/scim/v2`. With `expires_at` (a time in the future) the token stops working at that time, to the millisecond on AWS too (each SCIM request checks it, whatever the authorizer\'s cache holds); without it, it works until it is deleted.',
    responses: { 201: { description: 'The token, with its secret.', schema: responses.scimTokenCreated } },
    requestExample: { description: 'Okta production' },
  },
  listScimTokens: {
    description: 'Every SCIM token, oldest first, without secrets; `last_used_at` is kept to the minute.',
    responses: { 200: { description: 'The tokens.', schema: responses.scimTokenList } },
  },
  deleteScimToken: {
    description:
      "The token stops working: locally at once; on AWS within the SCIM authorizer's cache time (5 minutes). Its provisioning keeps what it made.",
    responses: { 204: { description: 'Revoked.' } },
    problems: ['not-found'],
    parameters: { token_id: 'Id of the token (`id` of its creation).' },
  },

  // --- Webhooks ------------------------------------------------------------
  createWebhook: {
    description: `Every change the audit trail records that passes the filters is delivered to \`url\` as a Standard Webhooks POST of \`{"type": "change.recorded", "timestamp", "data": <audit entry>}\`, signed with the secret this answer shows once (\`whsec_…\`, for the \`standardwebhooks\` libraries' \`Webhook(secret).verify\`). \`url\` must be \`https\` and its host must not resolve to a loopback, private, link-local (cloud metadata) or otherwise internal address, checked now and at each delivery (a deployment with \`WEBHOOKS_ALLOW_LOCAL=true\`, the local stack, also takes \`http\` and loopback). Filters: \`resource_types\`, \`operations\` (as audit entries name them: a contract label such as \`E2\`, else the operation's name) and \`exclude_actors\` (a client leaves out its own changes); empty or absent: everything. At most ${MAX_WEBHOOKS} webhooks: one more is 409 \`conflict\` with \`limit\`.`,
    responses: {
      201: { description: 'The webhook, with its secret.', schema: responses.webhookCreated, headers: { Location: location('webhook') } },
    },
    requestExample: {
      url: 'https://203.0.113.10/directory-changes',
      description: 'HR system',
      resource_types: ['user', 'department'],
      exclude_actors: ['hr-sync'],
    },
  },
  listWebhooks: {
    description: 'Every webhook, oldest first, without secrets.',
    responses: { 200: { description: 'The webhooks.', schema: responses.webhookList } },
  },
  getWebhook: {
    description:
      '`status` is `active`, `paused`, or `disabled` (every delivery attempt failed for 24 hours: the service stopped it; `PATCH` `status: active` re-enables it).',
    responses: { 200: { description: 'The webhook.', schema: responses.webhook } },
    problems: ['not-found'],
  },
  updateWebhook: {
    description:
      'Give any of `url`, `description`, the filters and `status`. `paused`: nothing is delivered from now on; `active` again: what changed meanwhile is delivered then (nothing is lost), and a `disabled` webhook is enabled again (what changed while it was disabled is not sent: read it from `GET /v2/changes`). A filter replaces the old one; `[]` lets everything through.',
    responses: { 200: { description: 'The webhook as changed.', schema: responses.webhook } },
    problems: ['not-found'],
    requestExample: { status: 'paused' },
  },
  deleteWebhook: {
    parameterExamples: { webhook_id: 'wh-retired' },
    description: 'Nothing more is delivered; attempts already under way may still arrive once.',
    responses: { 204: { description: 'Deleted.' } },
    problems: ['not-found'],
  },
  rotateWebhookSecret: {
    description:
      'A new secret, shown this once. For 24 hours deliveries carry two signatures in `webhook-signature` (space-separated, as Standard Webhooks allows), one by each secret, so a receiver can switch secrets at any time within them; after that only the new one signs. A second rotation within the 24 hours ends the first old secret at once.',
    responses: { 200: { description: 'The new secret.', schema: responses.webhookSecret } },
    problems: ['not-found'],
  },
  testWebhook: {
    description:
      'Sends a `ping` event (`{"type": "ping", "timestamp", "data": {"webhook_id"}}`, signed like every delivery) to the endpoint now, whatever the status, and answers how that attempt went (it is in the delivery log too). An endpoint that does not answer within 10 seconds, answers a redirect, or resolves to a refused address: the attempt says so in `error`.',
    responses: { 200: { description: 'The attempt.', schema: responses.webhookDelivery } },
    problems: ['not-found'],
  },
  listWebhookDeliveries: {
    description:
      "The webhook's delivery attempts of the last 30 days, newest first: each change's attempts carry the change's id (the `webhook-id` the endpoint received), the answer's status code or the error, and when the next attempt is due. A change is attempted for more than 24 hours (after 5 seconds, 5 and 30 minutes, 2, 5, 10 and 10 hours), then recorded as failed.",
    responses: {
      200: {
        description: 'A page of attempts, newest first, with `count` and `next_cursor` (null on the last page).',
        schema: responses.webhookDeliveryList,
        headers: { Link: LINK },
      },
    },
    problems: ['not-found'],
  },

  // --- Audit ---------------------------------------------------------------
  listAudit: {
    description:
      'Every change, recorded in the same transaction as the change: who (the token subject), when, the operation id, the resource and what changed. For a membership change the resource is the department or group, and `changes` names the users.',
    responses: {
      200: {
        description:
          'A page of audit entries, newest first, with `count` and `next_cursor` (null on the last page). The trail only grows: it has no `total` and no `offset`.',
        schema: responses.auditList,
        headers: { Link: LINK },
      },
    },
    parameters: {
      query: `Filters \`<attribute>:<value>\`, comma-separated, attribute one of ${AUDIT_FILTER_ATTRIBUTES.map((a) => `\`${a}\``).join(', ')} (exact). The same attribute twice means either value; different attributes must all hold.`,
      since: 'Only entries at or after this time (ISO 8601).',
      before: 'Only entries before this time (ISO 8601).',
    },
    parameterSchemas: {
      query: {
        pattern: filterPattern(Object.fromEntries(AUDIT_FILTER_ATTRIBUTES.map((attribute) => [attribute, FILTER_VALUES.exact]))),
      },
    },
    parameterExamples: { query: 'resource_id:eng', since: '2026-11-01T00:00:00.000Z', before: '2026-12-01T00:00:00.000Z' },
  },
  listChanges: {
    description:
      "The audit trail in the order its entries reached the feed (oldest first), for systems that follow every change. Each entry is given its place after its change has committed, so a walk by cursor never skips and never repeats an entry, however long a change took to commit, and an entry appears within 10 seconds of its request's answer. `next_cursor` is never null: at the end it is where to continue later.",
    responses: {
      200: {
        description:
          'A page of audit entries, oldest first, with `count` and `next_cursor`. A page may hold fewer than `count` entries, or none, while more follow: keep the cursor and ask again.',
        schema: responses.changeList,
        headers: { Link: LINK },
      },
    },
    parameters: {
      since:
        "Start at this time (ISO 8601): the entries that reached the feed at or after it, which include every entry stamped (`at`) at or after it and may include a few stamped just before it whose changes committed after it. Or `now`: an empty page whose cursor starts at the end of the feed. Not with `cursor`.",
      resource_type: `Only entries of these resource types (${RESOURCE_TYPES.map((t) => `\`${t}\``).join(', ')}), comma-separated or repeated. A cursor keeps them.`,
      exclude_actor:
        'Not the entries of these actors (a consumer leaves out its own changes), comma-separated or repeated. A cursor keeps them.',
    },
    parameterExamples: { since: '2026-11-01T00:00:00.000Z', resource_type: 'user,department', exclude_actor: 'hr-sync' },
  },
} satisfies Record<Exclude<OperationName, OperationNameOf<'SCIM'>>, OperationDoc>;

type DocumentedResponses = { [Name in keyof typeof operationDocs]: (typeof operationDocs)[Name]['responses'] };

// Handlers' replies are typed by these responses (lib/http/response.ts ReplyOf): a type-only link, so no schema reaches a bundle.
declare module '../http/response' {
  interface OperationResponses extends DocumentedResponses {}
}
