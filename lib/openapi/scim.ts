/**
 * What the OpenAPI document says about the SCIM routes (access `scim`). They
 * follow SCIM's conventions, not the admin API's: `application/scim+json`
 * bodies, SCIM errors (RFC 7644 §3.12) instead of problem details, a SCIM
 * token as bearer, and request bodies that SCIM itself defines (a resource, a
 * PatchOp) and that lib/scim validates attribute by attribute against the
 * published schemas (lib/scim/schema.ts), not through a zod schema. So their
 * operations are written here, from the same constants the handlers answer
 * with (the schema URNs, the maximum page size); their bodies' schemas are in
 * lib/openapi/scim-schemas.ts.
 *
 * Docs-only, like operations.ts: no route function imports it.
 */
import { SCIM_CONTENT_TYPE } from '../http/scim-wire';
import type { Route } from '../routes';
import { ENTERPRISE_SCHEMA, GROUP_SCHEMA, MAX_RESULTS, PATCH_SCHEMA, USER_SCHEMA } from '../scim/schema';
import { ref, SCIM_SECURITY_SCHEME, text } from './scim-schemas';
import type { Json } from './schemas';

const scimContent = (schema: string) => ({ [SCIM_CONTENT_TYPE]: { schema: ref(schema) } });
const ETAG = { ETag: { description: 'The version of the resource (`meta.version`), for `If-Match`.', required: true, schema: text } };
const LOCATION = { Location: { description: 'The new resource (`meta.location`).', required: true, schema: text } };

/** A slow change's answer (lib/slow-changes.ts): committed, its members written in the background. */
const APPLYING = {
  description:
    'The change has committed but would outlast the request (many members on a loaded host): its members are written in the background. ' +
    'Poll the group named by `resource` and `Location`; a repeat with the same Idempotency-Key answers the final result once it is there.',
  headers: { Location: { description: 'The group to poll.', required: true, schema: text } },
  content: {
    [SCIM_CONTENT_TYPE]: {
      schema: {
        type: 'object',
        required: ['status', 'resource'],
        additionalProperties: false,
        properties: { status: { type: 'string', enum: ['applying'] }, resource: text },
      },
    },
  },
};

const error = (description: string) => ({ description, content: scimContent('ScimError') });

const parameter = (
  name: string,
  location: 'path' | 'query' | 'header',
  description: string,
  example: unknown,
  schema: Json = text,
): Json => ({
  name,
  in: location,
  required: location === 'path',
  description,
  schema,
  example,
});

const PROJECTION = [
  parameter('attributes', 'query', 'Only these attributes (comma-separated; `id`, `schemas` and `meta` always).', 'userName,active'),
  parameter(
    'excludedAttributes',
    'query',
    'All attributes but these (comma-separated): `members` spares reading a large group.',
    'members',
  ),
];
const IF_MATCH = parameter(
  'If-Match',
  'header',
  'Change only if the resource still has this version (`W/"<n>"`; `*`: any); otherwise 412.',
  '*',
);

interface ScimDoc {
  description: string;
  parameters?: Json[];
  body?: { schema: string; example: unknown };
  responses: Record<number, Json>;
  /** Error statuses beyond 401 and 500. */
  errors: Record<number, string>;
}

const userExample = {
  schemas: [USER_SCHEMA, ENTERPRISE_SCHEMA],
  userName: 'hopper@example.com',
  externalId: '00u1ab2cd3',
  name: { givenName: 'Grace', familyName: 'Hopper' },
  emails: [{ value: 'hopper@example.com', type: 'work', primary: true }],
  active: true,
  [ENTERPRISE_SCHEMA]: { department: 'Engineering' },
};
/** A PUT replaces a user that exists (`ada`): its own new name and address, not the creation example's. */
const replaceUserExample = {
  ...userExample,
  userName: 'ada.lovelace@example.com',
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  emails: [{ value: 'ada.lovelace@example.com', type: 'work', primary: true }],
  externalId: '00u9zy8xw7',
};
const groupExample = { schemas: [GROUP_SCHEMA], displayName: 'Engineering leads', externalId: 'grp-42', members: [{ value: 'grace' }] };

const listParameters = (filters: string, filterExample: string) => [
  parameter(
    'filter',
    'query',
    `A SCIM filter (RFC 7644 §3.4.2.2): at most 2,000 characters, no control characters. ${filters}`,
    filterExample,
  ),
  parameter('startIndex', 'query', '1-based index of the first result (below 1 is 1).', 1, { type: 'integer' }),
  parameter('count', 'query', `Results per page (0–${MAX_RESULTS}; more is ${MAX_RESULTS}).`, 100, { type: 'integer' }),
  ...PROJECTION,
];

const USER_ID = parameter('user_id', 'path', 'The `id` of the user.', 'ada');
const GROUP_ID = parameter('group_id', 'path', 'The `id` of the group.', 'designers');

const definitions = (what: string, schema: string, path?: Json): ScimDoc => ({
  description: `${what} (RFC 7643), as the service publishes it: what an identity provider reads when it connects.`,
  ...(path ? { parameters: [path] } : {}),
  responses: { 200: { description: what, content: scimContent(schema) } },
  errors: path ? { 404: 'No such definition.' } : {},
});

/** What a group change may conflict with (lib/groups/bulk-change.ts holds a group while it applies a large change). */
const GROUP_CONFLICT =
  '`uniqueness`: the displayName or externalId is taken; the group would pass 10,000 members; or a large change of its members is being applied (retry in a few seconds).';

const DOCS: Record<string, ScimDoc> = {
  scimServiceProviderConfig: definitions('The service provider configuration', 'ScimDefinition'),
  scimResourceTypes: definitions('The resource types', 'ScimDefinitionList'),
  scimResourceType: definitions('One resource type', 'ScimDefinition', parameter('resource_type', 'path', '`User` or `Group`.', 'User')),
  scimSchemas: definitions('The schemas', 'ScimDefinitionList'),
  scimSchema: definitions('One schema', 'ScimDefinition', parameter('schema_id', 'path', 'The schema URN.', USER_SCHEMA)),
  scimListUsers: {
    description:
      'Identity providers find a user by `userName eq "..."` (case-insensitive) or `externalId eq "..."`: answered from a unique claim, one read. `id`, `emails[type eq "work"].value` / `emails.value`, `active`, `roles.value` and `name.familyName sw` are indexed too; any other filter reads the list. `startIndex` pages: sequential pages continue where the last one ended.',
    parameters: listParameters('Operators eq, ne, co, sw, ew, gt, ge, lt, le, pr, and, or, not.', 'userName eq "ada@example.com"'),
    responses: { 200: { description: 'A page of users.', content: scimContent('ScimUserList') } },
    errors: { 400: 'A filter the service cannot parse or an attribute it does not know (`invalidFilter`).' },
  },
  scimCreateUser: {
    description:
      "Makes a user. The enterprise extension's `department` names a department (by id or name); an unknown one is created with that name (a 400 `invalidValue` where the deployment sets `SCIM_CREATE_DEPARTMENTS=false`). The user's department quota holds as for E3.",
    parameters: PROJECTION,
    body: { schema: 'ScimUserRequest', example: userExample },
    responses: { 201: { description: 'The user.', headers: { ...ETAG, ...LOCATION }, content: scimContent('ScimUser') } },
    errors: {
      400: 'A missing or invalid attribute.',
      409: '`uniqueness`: the userName, externalId or e-mail is taken; or a full department.',
    },
  },
  scimGetUser: {
    description: 'One user, deactivated or not.',
    parameters: [USER_ID, ...PROJECTION],
    responses: { 200: { description: 'The user.', headers: ETAG, content: scimContent('ScimUser') } },
    errors: { 404: 'No such user.' },
  },
  scimReplaceUser: {
    description: 'Replaces the attributes the service keeps (PUT: what the body leaves out is cleared where it may be).',
    parameters: [USER_ID, IF_MATCH, ...PROJECTION],
    body: { schema: 'ScimUserRequest', example: replaceUserExample },
    responses: { 200: { description: 'The user.', headers: ETAG, content: scimContent('ScimUser') } },
    errors: { 400: 'An invalid attribute.', 404: 'No such user.', 409: '`uniqueness`, or a full department.', 412: 'A stale `If-Match`.' },
  },
  scimPatchUser: {
    description:
      'Okta\'s and Entra\'s PATCH dialects (paths or a value object; `"False"` for false; `op` in any case). `active: false` deprovisions: the user stays, not activated.',
    parameters: [USER_ID, IF_MATCH, ...PROJECTION],
    body: {
      schema: 'ScimPatchOp',
      example: { schemas: [PATCH_SCHEMA], Operations: [{ op: 'replace', path: 'active', value: false }] },
    },
    responses: { 200: { description: 'The user.', headers: ETAG, content: scimContent('ScimUser') } },
    errors: {
      400: 'An invalid path or value.',
      404: 'No such user.',
      409: '`uniqueness`, or a full department.',
      412: 'A stale `If-Match`.',
    },
  },
  scimDeleteUser: {
    description: 'Deletes the user, and takes them out of their department and groups.',
    parameters: [USER_ID, IF_MATCH],
    responses: { 204: { description: 'Deleted.' } },
    errors: { 404: 'No such user.', 412: 'A stale `If-Match`.' },
  },
  scimListGroups: {
    description:
      'Identity providers find a group by `displayName eq "..."` (case-insensitive) or `externalId eq "..."`: one read. Members are read only when asked for (`excludedAttributes=members` spares them), and only for the groups of the page; a page holds groups up to 10,000 members together (at least one group), so it may hold fewer than `count` (`itemsPerPage` says how many).',
    parameters: listParameters('Operators eq, ne, co, sw, ew, gt, ge, lt, le, pr, and, or, not.', 'displayName eq "Designers"'),
    responses: { 200: { description: 'A page of groups.', content: scimContent('ScimGroupList') } },
    errors: { 400: 'A filter the service cannot parse (`invalidFilter`).' },
  },
  scimCreateGroup: {
    description: 'Makes a group, with its members.',
    parameters: PROJECTION,
    body: { schema: 'ScimGroupRequest', example: groupExample },
    responses: { 201: { description: 'The group.', headers: { ...ETAG, ...LOCATION }, content: scimContent('ScimGroup') }, 202: APPLYING },
    errors: { 400: 'An invalid attribute or an unknown member.', 409: '`uniqueness`: the displayName or externalId is taken.' },
  },
  scimGetGroup: {
    description: 'One group.',
    parameters: [GROUP_ID, ...PROJECTION],
    responses: { 200: { description: 'The group.', headers: ETAG, content: scimContent('ScimGroup') } },
    errors: { 404: 'No such group.' },
  },
  scimReplaceGroup: {
    description: 'Replaces the group: its name, externalId and its members.',
    parameters: [GROUP_ID, IF_MATCH, ...PROJECTION],
    body: { schema: 'ScimGroupRequest', example: { ...groupExample, displayName: 'Designers', externalId: 'grp-43' } },
    responses: { 200: { description: 'The group.', headers: ETAG, content: scimContent('ScimGroup') }, 202: APPLYING },
    errors: { 400: 'An invalid attribute or an unknown member.', 404: 'No such group.', 409: GROUP_CONFLICT, 412: 'A stale `If-Match`.' },
  },
  scimPatchGroup: {
    description:
      'Adds and removes members (`members[value eq "id"]` paths, or value lists), renames: all operations or none. Answers 204, or the group when `attributes` asks for it. ' +
      'Up to 30 members added or removed are one transaction; more (a PUT counts the difference with the members there) are decided at once and applied in parts within seconds.',
    parameters: [GROUP_ID, IF_MATCH, ...PROJECTION],
    body: {
      schema: 'ScimPatchOp',
      example: { schemas: [PATCH_SCHEMA], Operations: [{ op: 'add', path: 'members', value: [{ value: 'grace' }] }] },
    },
    responses: {
      200: { description: 'The group (with `attributes`).', headers: ETAG, content: scimContent('ScimGroup') },
      204: { description: 'Changed.', headers: ETAG },
      202: APPLYING,
    },
    errors: { 400: 'An invalid path, value or member.', 404: 'No such group.', 409: GROUP_CONFLICT, 412: 'A stale `If-Match`.' },
  },
  scimDeleteGroup: {
    description: 'Deletes the group (its members stay).',
    parameters: [GROUP_ID, IF_MATCH],
    responses: { 204: { description: 'Deleted.' } },
    errors: {
      404: 'No such group.',
      409: 'A large change of its members is being applied: retry in a few seconds.',
      412: 'A stale `If-Match`.',
    },
  },
};

/** What any route that takes a body answers for one it does not read (lib/http/parse.ts). */
const BODY_ERRORS: Record<number, string> = {
  413: 'The body is over 1 MiB.',
  415: 'A body that is not `application/scim+json` or `application/json`.',
};

/** The operation object of a SCIM route; `problems` collects what keeps it from being documented. */
export function scimOperationObject(route: Route, problems: string[]): Json {
  const doc = DOCS[route.name];
  if (!doc) {
    problems.push(`${route.name}: a SCIM route with no documentation (lib/openapi/scim.ts)`);
    return { operationId: route.name, summary: route.summary, tags: [route.tag], responses: {} };
  }
  const errors: Record<number, string> = {
    401: 'No SCIM token, or one that is unknown or revoked.',
    ...doc.errors,
    ...(doc.body ? BODY_ERRORS : {}),
    500: 'An unexpected error.',
    503: 'The service is overloaded (DynamoDB throttled): retry.',
  };
  const responses: Record<string, Json> = {};
  for (const [status, response] of Object.entries(doc.responses)) responses[status] = response;
  for (const [status, description] of Object.entries(errors)) responses[status] = error(description);
  const operation: Json = {
    operationId: route.name,
    summary: route.summary,
    description: doc.description,
    tags: [route.tag],
    security: [{ [SCIM_SECURITY_SCHEME]: [] }],
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
  };
  if (doc.parameters?.length) operation.parameters = doc.parameters;
  if (doc.body) {
    operation.requestBody = {
      required: true,
      content: {
        [SCIM_CONTENT_TYPE]: { schema: ref(doc.body.schema), example: doc.body.example },
        'application/json': { schema: ref(doc.body.schema), example: doc.body.example },
      },
    };
  }
  return operation;
}

/** Operation ids documented here, for the check that every one is a route. */
export const SCIM_DOCUMENTED = Object.keys(DOCS);
