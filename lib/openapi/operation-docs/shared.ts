/**
 * What an operation's documentation holds (OperationDoc), and what the docs of several tags share: the ETag and
 * Location headers, a list's page with its Link, and the parameters of every user list and named list.
 */
import type { $ZodType } from 'zod/v4/core';
import type { ProblemSlug } from '../../problems';
import { applying as responsesApplying } from '../../schemas/responses';
import { NAMED_SORT_FIELDS, USER_FILTER_ATTRIBUTES, USER_SORT_FIELDS, ACCOUNT_ROLES } from '../../schemas/enums';
import { FILTER_VALUES, filterPattern, LAST_LOGIN_PATTERN, sortSchema } from '../parameters';

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

export const ETAG: HeaderDoc = { description: 'Version tag of the resource, for `If-Match`.', required: true };
export const location = (what: string): HeaderDoc => ({ description: `Path of the ${what}.`, required: true });

/** A slow change's answer (lib/slow-changes.ts): committed, completing in the background. */
export const APPLYING = (what: string): ResponseDoc => ({
  description:
    `The change has committed but would outlast the request (a large change on a loaded host): it completes in the background. ` +
    `Poll the resource named by \`resource\` and \`Location\` (${what}). A repeat with the same Idempotency-Key answers the final result once it is there.`,
  schema: responsesApplying,
  headers: { Location: { description: 'Path of the resource that shows the change completing.', required: true } },
});

export const LINK: HeaderDoc = {
  description: 'The next page (RFC 8288 `rel="next"`), the same request with `cursor`; absent on the last page.',
};

/** A page of a list, with its `Link` to the next. */
export const listResponse = <S extends $ZodType>(items: string, schema: S) =>
  ({
    description: `A page of ${items}, with \`total\` (all that match), \`count\` (returned here), \`offset\` (the position of the first) and \`next_cursor\` (null on the last page).`,
    schema,
    headers: { Link: LINK },
  }) satisfies ResponseDoc;
export const sortText = (fields: readonly string[], fallback: string) =>
  `\`asc\` or \`desc\` (on \`${fallback}\`), or \`<field>\` / \`<field>:asc|desc\` with field one of ${fields
    .map((field) => `\`${field}\``)
    .join(', ')}. Text compares case-insensitively; ties go by \`id\`. Anything else: 400.`;

export const userListParameters: Record<string, string> = {
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
export const userList: Pick<OperationDoc, 'parameters' | 'parameterSchemas' | 'parameterExamples'> = {
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

export const namedList = (what: string): Pick<OperationDoc, 'parameters' | 'parameterSchemas' | 'parameterExamples'> => ({
  parameters: namedListParameters(what),
  parameterSchemas: { sort: sortSchema(NAMED_SORT_FIELDS), query: { pattern: filterPattern({ name: FILTER_VALUES.prefix }) } },
  parameterExamples: { sort: 'user_count:desc', query: 'name:Eng' },
});

const namedListParameters = (what: string): Record<string, string> => ({
  sort: sortText(NAMED_SORT_FIELDS, 'name'),
  query: `\`name:<prefix>\`: ${what} whose name starts with the prefix (case-insensitive); repeat for either of several prefixes.`,
});
