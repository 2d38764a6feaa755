/**
 * The JSON Schemas of the document, from the zod schemas: request schemas
 * inline (their bounds and messages come from the schemas that validate
 * requests), response schemas as named components with references between
 * them, one per problem slug.
 */
import * as z from 'zod/mini';
import { toJSONSchema, type $ZodType } from 'zod/v4/core';
import { PROBLEM_STATUS, PROBLEM_TITLE, type ProblemSlug } from '../problems';
import * as responses from '../schemas/responses';

export type Json = Record<string, unknown>;

/** Problem slugs the contract names; each is a component schema whether or not an operation answers it today. */
export const ALL_SLUGS = Object.keys(PROBLEM_STATUS) as ProblemSlug[];

const pascal = (text: string) => text.replace(/(^|[-_])([a-z])/g, (_, __, letter: string) => letter.toUpperCase());
export const problemComponent = (slug: ProblemSlug) => `${pascal(slug)}Problem`;

/** Response schemas that become named components, by name. */
const RESPONSE_COMPONENTS: Record<string, $ZodType> = {
  User: responses.user,
  Department: responses.department,
  Quota: responses.quota,
  DepartmentQuotas: responses.departmentQuotas,
  DepartmentDeleted: responses.departmentDeleted,
  GroupSummary: responses.groupSummary,
  Group: responses.group,
  Users: responses.users,
  UserList: responses.userList,
  DepartmentList: responses.departmentList,
  GroupList: responses.groupList,
  Report: responses.report,
  AuditEntry: responses.auditEntry,
  AuditList: responses.auditList,
  ChangeList: responses.changeList,
  Health: responses.health,
  OpenApiDocument: responses.openApiDocument,
  ...Object.fromEntries(ALL_SLUGS.map((slug) => [problemComponent(slug), responses.problems[slug]])),
};

const COMPONENT_DESCRIPTIONS: Record<string, string> = {
  User: '`account_role` defaults to `member`, `activated` to false, `last_login` and `department_id` to null.',
  Quota:
    '`usage` counts the members the quota applies to; `limit` null means no limit; `seats` is set by the deployment and not `editable`.',
  Report: '`status` goes `pending` → `running` → `complete` or `failed`; `email` is null when no e-mail was asked for.',
  ...Object.fromEntries(
    ALL_SLUGS.map((slug) => [problemComponent(slug), `${PROBLEM_TITLE[slug]} (\`${slug}\`, ${PROBLEM_STATUS[slug]}).`]),
  ),
};

export function stripDialect(schema: Json): Json {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/** A request schema (what a caller may send), inline. */
export function requestSchema(schema: $ZodType): Json {
  return stripDialect(toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw' }) as Json);
}

/** The response components, with references between them (pruneUnused drops those no operation needs). */
export function componentSchemas(): { schemas: Record<string, Json>; nameOf: Map<$ZodType, string> } {
  const registry = z.registry<{ id: string }>();
  const nameOf = new Map<$ZodType, string>();
  for (const [name, schema] of Object.entries(RESPONSE_COMPONENTS)) {
    registry.add(schema, { id: name });
    nameOf.set(schema, name);
  }
  const converted = toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'throw',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Json> };
  const schemas: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(converted.schemas)) {
    const description = COMPONENT_DESCRIPTIONS[name];
    schemas[name] = { ...(description ? { description } : {}), ...stripDialect(schema) };
  }
  return { schemas, nameOf };
}

/** Query and path schemas: a value parsed into a number is documented as that number, with its bounds and default. */
export function parameterSchemas(schema: $ZodType): { properties: Record<string, Json>; required: string[] } {
  const input = requestSchema(schema) as { properties?: Record<string, Json>; required?: string[] };
  const output = stripDialect(toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as Json) as {
    properties?: Record<string, Json>;
  };
  const properties: Record<string, Json> = {};
  for (const [name, property] of Object.entries(input.properties ?? {})) {
    const parsed = output.properties?.[name];
    const numeric = parsed && (parsed.type === 'integer' || parsed.type === 'number');
    properties[name] = property.type === 'string' && numeric ? parsed : property;
  }
  return { properties, required: input.required ?? [] };
}
