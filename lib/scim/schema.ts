/**
 * What the service publishes about its SCIM resources (RFC 7643): the
 * schemas of exactly the attributes it keeps, the resource types, and the
 * service provider configuration. The same tables drive the handling of
 * requests: attribute names are matched case-insensitively against them
 * (`name.FamilyName` is `name.familyName`), their types coerce Entra's
 * string booleans, and what they do not list is accepted and not kept.
 */

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ENTERPRISE_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** Most results a list answers per request (`count` above it is lowered to it). */
export const MAX_RESULTS = 200;

type AttributeType = 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime';

export interface Attribute {
  name: string;
  type: AttributeType;
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned: 'always' | 'default' | 'never' | 'request';
  uniqueness: 'none' | 'server' | 'global';
  subAttributes?: Attribute[];
  canonicalValues?: string[];
  referenceTypes?: string[];
}

const attribute = (name: string, type: AttributeType, description: string, options: Partial<Attribute> = {}): Attribute => ({
  name,
  type,
  multiValued: false,
  description,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...options,
});

/** `id`: the service's, read-only, always returned. */
const idAttribute = (what: string) =>
  /* @__PURE__ */ attribute('id', 'string', `The service's id of the ${what}.`, {
    caseExact: true,
    mutability: 'readOnly',
    returned: 'always',
    uniqueness: 'server',
  });

const USER_ATTRIBUTES: Attribute[] = [
  /* @__PURE__ */ idAttribute('user'),
  /* @__PURE__ */ attribute('externalId', 'string', "The identity provider's id of the user (the service's `external_id`).", {
    caseExact: true,
  }),
  /* @__PURE__ */ attribute('userName', 'string', 'Sign-in name (`user_name`), unique case-insensitively.', {
    required: true,
    uniqueness: 'server',
  }),
  /* @__PURE__ */ attribute('name', 'complex', "The user's name.", {
    subAttributes: [
      /* @__PURE__ */ attribute('givenName', 'string', 'First name (`first_name`).'),
      /* @__PURE__ */ attribute('familyName', 'string', 'Last name (`last_name`); when absent, the display name or the user name is used.'),
    ],
  }),
  attribute(
    'emails',
    'complex',
    'E-mail addresses; the service keeps one (`email`): the primary one, else the first work one, else the first.',
    {
      multiValued: true,
      subAttributes: [
        /* @__PURE__ */ attribute('value', 'string', 'The address.'),
        /* @__PURE__ */ attribute('type', 'string', 'Its kind; answered as `work`.', { canonicalValues: ['work', 'home', 'other'] }),
        /* @__PURE__ */ attribute('primary', 'boolean', 'Whether it is the address the service keeps; answered true.'),
      ],
    },
  ),
  /* @__PURE__ */ attribute(
    'active',
    'boolean',
    'Whether the account is activated (`activated`); false deprovisions it, and the user stays.',
  ),
  /* @__PURE__ */ attribute(
    'roles',
    'complex',
    'The account role (`account_role`): the primary value, else the first, of admin, manager, member, guest.',
    {
      multiValued: true,
      subAttributes: [
        /* @__PURE__ */ attribute('value', 'string', 'The role.', { canonicalValues: ['admin', 'manager', 'member', 'guest'] }),
        /* @__PURE__ */ attribute('primary', 'boolean', 'Whether it is the role the service keeps; answered true.'),
      ],
    },
  ),
];

const ENTERPRISE_ATTRIBUTES: Attribute[] = [
  attribute(
    'department',
    'string',
    "The user's department: on input the one whose id equals it, else whose name equals it case-insensitively, else a new one of that name; answered as the department's name. Empty: no department.",
  ),
];

const GROUP_ATTRIBUTES: Attribute[] = [
  /* @__PURE__ */ idAttribute('group'),
  /* @__PURE__ */ attribute('externalId', 'string', "The identity provider's id of the group (`external_id`), unique when set.", {
    caseExact: true,
  }),
  /* @__PURE__ */ attribute('displayName', 'string', 'The group name (`name`), unique case-insensitively.', {
    required: true,
    uniqueness: 'server',
  }),
  /* @__PURE__ */ attribute('members', 'complex', 'The users of the group (at most 10,000).', {
    multiValued: true,
    subAttributes: [
      /* @__PURE__ */ attribute('value', 'string', 'The user id.', { caseExact: true, mutability: 'immutable' }),
      /* @__PURE__ */ attribute('display', 'string', "The user's user name; answered, ignored on input.", { mutability: 'readOnly' }),
      /* @__PURE__ */ attribute('$ref', 'reference', 'The URI of the user.', { mutability: 'readOnly', referenceTypes: ['User'] }),
    ],
  }),
];

const schemaResource = (id: string, name: string, description: string, attributes: Attribute[]) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
  id,
  name,
  description,
  attributes,
  meta: { resourceType: 'Schema', location: `/Schemas/${id}` },
});

export const SCHEMAS = [
  /* @__PURE__ */ schemaResource(USER_SCHEMA, 'User', 'User Account', USER_ATTRIBUTES),
  /* @__PURE__ */ schemaResource(ENTERPRISE_SCHEMA, 'EnterpriseUser', 'Enterprise User', ENTERPRISE_ATTRIBUTES),
  /* @__PURE__ */ schemaResource(GROUP_SCHEMA, 'Group', 'Group', GROUP_ATTRIBUTES),
];

export const RESOURCE_TYPES = [
  {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'User Account',
    schema: USER_SCHEMA,
    schemaExtensions: [{ schema: ENTERPRISE_SCHEMA, required: false }],
    meta: { resourceType: 'ResourceType', location: '/ResourceTypes/User' },
  },
  {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: 'Group',
    name: 'Group',
    endpoint: '/Groups',
    description: 'Group',
    schema: GROUP_SCHEMA,
    schemaExtensions: [],
    meta: { resourceType: 'ResourceType', location: '/ResourceTypes/Group' },
  },
];

export const SERVICE_PROVIDER_CONFIG = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
  documentationUri: '/docs#tag/SCIM',
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: MAX_RESULTS },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: true },
  authenticationSchemes: [
    {
      type: 'oauthbearertoken',
      name: 'SCIM token',
      description: 'A long-lived bearer token made with POST /v2/scim/tokens: Authorization: Bearer <token>.',
      primary: true,
    },
  ],
  meta: { resourceType: 'ServiceProviderConfig', location: '/ServiceProviderConfig' },
};

// --- attribute paths ------------------------------------------------------------

/** A canonical attribute path: the attribute, a sub-attribute, and the schema it belongs to. */
export interface AttributePath {
  schema: string;
  attribute: Attribute;
  sub?: Attribute;
  /** `name.familyName`, `urn:…:enterprise:2.0:User:department`. */
  canonical: string;
}

const ATTRIBUTES_OF: Record<'User' | 'Group', Array<{ schema: string; attributes: Attribute[] }>> = {
  User: [
    { schema: USER_SCHEMA, attributes: USER_ATTRIBUTES },
    { schema: ENTERPRISE_SCHEMA, attributes: ENTERPRISE_ATTRIBUTES },
  ],
  Group: [{ schema: GROUP_SCHEMA, attributes: GROUP_ATTRIBUTES }],
};

/** The `meta` sub-attributes a filter may name. */
const META = /* @__PURE__ */ attribute('meta', 'complex', 'Resource metadata.', {
  mutability: 'readOnly',
  subAttributes: [
    /* @__PURE__ */ attribute('created', 'dateTime', 'Creation time.'),
    /* @__PURE__ */ attribute('lastModified', 'dateTime', 'Last change.'),
    /* @__PURE__ */ attribute('version', 'string', 'The ETag.', { caseExact: true }),
    /* @__PURE__ */ attribute('resourceType', 'string', 'User or Group.', { caseExact: true }),
  ],
});

const findIn = (list: Attribute[] | undefined, name: string) => list?.find((a) => a.name.toLowerCase() === name.toLowerCase());

/**
 * Resolves a path as a client may write it — any case, with or without its
 * schema URN prefix — to the attribute the service keeps; undefined when it
 * keeps no such attribute.
 */
export function resolvePath(resource: 'User' | 'Group', path: string): AttributePath | undefined {
  for (const { schema, attributes } of ATTRIBUTES_OF[resource]) {
    let rest = path;
    const prefix = `${schema}:`;
    if (path.toLowerCase().startsWith(prefix.toLowerCase())) rest = path.slice(prefix.length);
    else if (schema === ENTERPRISE_SCHEMA) continue; // the extension's attributes are always named with their URN
    const [name, subName, ...more] = rest.split('.');
    if (more.length > 0) return undefined;
    const found = findIn(attributes, name) ?? (name.toLowerCase() === 'meta' && schema !== ENTERPRISE_SCHEMA ? META : undefined);
    if (!found) continue;
    if (subName === undefined)
      return { schema, attribute: found, canonical: schema === ENTERPRISE_SCHEMA ? `${schema}:${found.name}` : found.name };
    const sub = findIn(found.subAttributes, subName);
    if (!sub) return undefined;
    return { schema, attribute: found, sub, canonical: `${found.name}.${sub.name}` };
  }
  return undefined;
}

/**
 * RFC 7643's attributes (§4.1, §4.2, §4.3) that the service does not keep,
 * lowercased: accepted in a PATCH path, and ignored. Made when asked, not at
 * import: esbuild keeps a module-level list built with a call or templates in
 * every bundle of this module, and the discovery routes' bundles never use it.
 */
function standardUnkept(resource: 'User' | 'Group'): string[] {
  if (resource === 'Group') return [];
  return [
    'displayName',
    'nickName',
    'profileUrl',
    'title',
    'userType',
    'preferredLanguage',
    'locale',
    'timezone',
    'password',
    'phoneNumbers',
    'ims',
    'photos',
    'addresses',
    'entitlements',
    'x509Certificates',
    `${ENTERPRISE_SCHEMA}:employeeNumber`,
    `${ENTERPRISE_SCHEMA}:costCenter`,
    `${ENTERPRISE_SCHEMA}:organization`,
    `${ENTERPRISE_SCHEMA}:division`,
    `${ENTERPRISE_SCHEMA}:manager`,
  ].map((name) => name.toLowerCase());
}

/**
 * Whether a path that resolvePath does not know is still one an identity
 * provider may rightly send: an attribute of RFC 7643 the service does not
 * keep (`title`, `phoneNumbers[type eq "work"].value`), a sub-attribute of
 * one it keeps (`name.formatted`), or an attribute of another extension
 * (`urn:…:CustomExtension:2.0:User:costCode`). Anything else is a typo or
 * a path of no schema: 400 `invalidPath`.
 */
export function isStandardButUnkept(resource: 'User' | 'Group', path: string): boolean {
  const lower = path.toLowerCase();
  const ours = ATTRIBUTES_OF[resource].map(({ schema }) => `${schema.toLowerCase()}:`);
  if (lower.startsWith('urn:') && !ours.some((prefix) => lower.startsWith(prefix))) return true;
  const core = ATTRIBUTES_OF[resource][0].schema.toLowerCase() + ':';
  const unprefixed = lower.startsWith(core) ? lower.slice(core.length) : lower;
  // The attribute itself, without its value filter or sub-attribute (`urn:…:2.0:User:manager.value` → `urn:…:2.0:User:manager`).
  const named = unprefixed.split('[')[0];
  const colon = named.lastIndexOf(':');
  const top = named.slice(0, colon + 1) + named.slice(colon + 1).split('.')[0];
  if (standardUnkept(resource).includes(top)) return true;
  return resolvePath(resource, top) !== undefined && top !== unprefixed;
}

/** The attribute a path names, or its sub-attribute. */
export const leafOf = (path: AttributePath): Attribute => path.sub ?? path.attribute;
