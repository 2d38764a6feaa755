/**
 * The SCIM routes' security scheme and the component schemas of their bodies (RFC 7643's resources, a PatchOp, a
 * list, an error), written from the same constants the handlers answer with. Their operations: lib/openapi/scim.ts.
 *
 * Docs-only: no route function imports it.
 */
import { ERROR_SCHEMA } from '../http/scim-wire';
import { ACCOUNT_ROLES } from '../schemas/enums';
import { ENTERPRISE_SCHEMA, GROUP_SCHEMA, LIST_SCHEMA, PATCH_SCHEMA, USER_SCHEMA } from '../scim/schema';
import type { Json } from './schemas';

export const SCIM_SECURITY_SCHEME = 'scimToken';

export const SCIM_SECURITY: Json = {
  type: 'http',
  scheme: 'bearer',
  description:
    'A SCIM token (`scim_<id>.<secret>`) made with `POST /v2/scim/tokens`: what an identity provider calls its "secret token" or "API token". It opens the SCIM routes only; an admin JWT does not open them.',
};

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const text = { type: 'string' };
const time = { type: 'string', format: 'date-time' };
const urns = (...values: string[]) => ({ type: 'array', items: { type: 'string', enum: values }, minItems: 1 });

const meta = (resourceType: string) => ({
  type: 'object',
  additionalProperties: false,
  required: ['resourceType', 'location'],
  properties: {
    resourceType: { const: resourceType },
    created: time,
    lastModified: time,
    version: { type: 'string', description: 'The resource\'s ETag (`W/"<n>"`), for `If-Match`.' },
    location: { type: 'string' },
  },
});

/** The component schemas of SCIM's bodies, by name. Resources may be projected (`attributes`), so only what is always returned is required. */
export const SCIM_SCHEMAS: Record<string, Json> = {
  ScimUser: {
    type: 'object',
    description: `A user as SCIM sees it (\`${USER_SCHEMA}\`, with \`${ENTERPRISE_SCHEMA}\` when the user is in a department). userName is unique (case-insensitive), externalId too.`,
    additionalProperties: false,
    required: ['schemas', 'id', 'meta'],
    properties: {
      schemas: urns(USER_SCHEMA, ENTERPRISE_SCHEMA),
      id: text,
      externalId: text,
      userName: text,
      name: {
        type: 'object',
        additionalProperties: false,
        properties: { givenName: text, familyName: text },
      },
      emails: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          properties: { value: text, type: text, primary: { type: 'boolean' } },
        },
      },
      active: { type: 'boolean', description: '`activated` of the user.' },
      roles: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          properties: { value: { type: 'string', enum: [...ACCOUNT_ROLES] }, primary: { type: 'boolean' } },
        },
      },
      [ENTERPRISE_SCHEMA]: {
        type: 'object',
        additionalProperties: false,
        properties: { department: { type: 'string', description: "The name of the user's department." } },
      },
      meta: meta('User'),
    },
  },
  ScimGroup: {
    type: 'object',
    description: `A group as SCIM sees it (\`${GROUP_SCHEMA}\`). displayName is unique (case-insensitive); members are users only, every one of them (SCIM pages no members). An answer whose members would pass 4 MB with \`display\` (thousands of members with very long user names) carries them without it, within the 6 MB a function can return.`,
    additionalProperties: false,
    required: ['schemas', 'id', 'meta'],
    properties: {
      schemas: urns(GROUP_SCHEMA),
      id: text,
      externalId: text,
      displayName: text,
      members: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['value'],
          properties: { value: text, display: text, $ref: text },
        },
      },
      meta: meta('Group'),
    },
  },
  ScimUserRequest: {
    type: 'object',
    description:
      'A user as an identity provider sends it: `userName` and the attributes of ScimUser; attributes of RFC 7643 the service does not keep (`displayName`, `title`, `password`, …) are accepted and not kept.',
    required: ['userName'],
    properties: {
      schemas: { type: 'array', items: text },
      userName: text,
      externalId: text,
      name: { type: 'object' },
      emails: { type: 'array', items: { type: 'object' } },
      active: { type: ['boolean', 'string'], description: 'A boolean, or `"True"` / `"False"` as Entra sends it.' },
      roles: { type: 'array', items: { type: 'object' } },
      [ENTERPRISE_SCHEMA]: { type: 'object', properties: { department: { type: 'string', description: 'A department id or name.' } } },
    },
  },
  ScimGroupRequest: {
    type: 'object',
    description: 'A group as an identity provider sends it; `members[].display` is ignored.',
    required: ['displayName'],
    properties: {
      schemas: { type: 'array', items: text },
      displayName: text,
      externalId: text,
      members: { type: 'array', items: { type: 'object', required: ['value'], properties: { value: text } } },
    },
  },
  ScimPatchOp: {
    type: 'object',
    description: 'RFC 7644 §3.5.2: operations applied in order, all or none. `op` in any case (Entra writes `Replace`).',
    required: ['schemas', 'Operations'],
    properties: {
      schemas: urns(PATCH_SCHEMA),
      Operations: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['op'],
          properties: { op: { type: 'string', description: '`add`, `remove` or `replace`, in any case.' }, path: text, value: {} },
        },
      },
    },
  },
  ScimError: {
    type: 'object',
    description: 'RFC 7644 §3.12. `scimType` says which SCIM error it is where one applies.',
    additionalProperties: false,
    required: ['schemas', 'status', 'detail'],
    properties: {
      schemas: urns(ERROR_SCHEMA),
      status: { type: 'string', pattern: '^[45][0-9]{2}$' },
      scimType: {
        type: 'string',
        enum: [
          'invalidFilter',
          'tooMany',
          'uniqueness',
          'mutability',
          'invalidSyntax',
          'invalidPath',
          'noTarget',
          'invalidValue',
          'invalidVers',
          'sensitive',
        ],
      },
      detail: text,
    },
  },
  ScimUserList: listOf('ScimUser'),
  ScimGroupList: listOf('ScimGroup'),
  ScimDefinition: {
    type: 'object',
    description: 'A published SCIM schema, resource type or the service provider configuration (RFC 7643 §5–7).',
    required: ['schemas'],
    properties: { schemas: { type: 'array', items: text }, id: text },
  },
  ScimDefinitionList: listOf('ScimDefinition'),
};

function listOf(item: string): Json {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['schemas', 'totalResults', 'startIndex', 'itemsPerPage', 'Resources'],
    properties: {
      schemas: urns(LIST_SCHEMA),
      totalResults: { type: 'integer', minimum: 0 },
      startIndex: { type: 'integer', minimum: 1 },
      itemsPerPage: { type: 'integer', minimum: 0 },
      Resources: { type: 'array', items: ref(item) },
    },
  };
}
