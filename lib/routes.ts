/**
 * The route table: the only list of the service's operations.
 *
 * The CDK stack makes one Lambda function and one HTTP API route per entry,
 * the local gateway serves the same entries, and the OpenAPI document is
 * generated from them. The handler of an entry is `functions/<handler>.ts`.
 *
 * This module must stay free of runtime dependencies: CDK, the gateway and the
 * docs import it; handlers import only its types.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A method a route is served under: its own, and HEAD wherever it is GET. */
export type ServedMethod = HttpMethod | 'HEAD';

/**
 * `public`: no token; `read`: scope admin/read; `write`: scope admin/write
 * (both JWTs, checked by the JWT authorizer); `scim`: a SCIM token, checked by
 * the SCIM authorizer (lib/scim/tokens.ts), which opens no other route.
 */
export type Access = 'public' | 'read' | 'write' | 'scim';

/** OAuth scopes of the resource server `admin`, as they appear in access tokens. */
export const RESOURCE_SERVER_ID = 'admin';
export const SCOPE_NAMES = { read: 'read', write: 'write' } as const;

/** The JWT scope a route demands; `undefined` for a route open without a token or behind the SCIM authorizer. */
export function requiredScope(access: Access): string | undefined {
  return access === 'public' || access === 'scim' ? undefined : `${RESOURCE_SERVER_ID}/${SCOPE_NAMES[access]}`;
}

/** Where SCIM's resources live (the contract: `{base_url}/scim/v2`). */
export const SCIM_BASE_PATH = '/scim/v2';

/** Whether a request path is under SCIM's base path, where every answer follows SCIM's conventions. */
export const isScimPath = (path: string) => path === SCIM_BASE_PATH || path.startsWith(`${SCIM_BASE_PATH}/`);

export interface Route {
  /** Contract id (E1–E9, G1–G8) where the contract gives one, else a descriptive id. */
  operationId: string;
  method: HttpMethod;
  /** Path with `{param}` segments, as API Gateway writes it. */
  path: string;
  /** Further paths served by the same operation (E6 also answers without `/v2`). */
  aliases?: readonly string[];
  /** Module name under `functions/`. */
  handler: string;
  access: Access;
  /** `presign`: signs download links of the reports bucket (needs s3:GetObject there). */
  reportsBucket?: 'presign';
  /** Function timeout when the default (10 s) is too short; API Gateway waits at most 29 s. */
  timeoutSeconds?: number;
  summary: string;
  tag: 'Users' | 'Departments' | 'Groups' | 'Reports' | 'Audit' | 'Service' | 'SCIM tokens' | 'SCIM';
}

const ROUTE_TABLE = [
  {
    operationId: 'health',
    method: 'GET',
    path: '/v2/health',
    handler: 'health',
    access: 'public',
    summary: 'Health check',
    tag: 'Service',
  },
  {
    operationId: 'openapi',
    method: 'GET',
    path: '/v2/openapi.json',
    handler: 'openapi',
    access: 'public',
    summary: 'The OpenAPI 3.1 document of this API',
    tag: 'Service',
  },
  {
    operationId: 'docs',
    method: 'GET',
    path: '/docs',
    handler: 'docs',
    access: 'public',
    summary: 'The documentation page (HTML) that renders the OpenAPI document',
    tag: 'Service',
  },
  {
    operationId: 'docsRenderer',
    method: 'GET',
    path: '/docs/redoc.standalone.js',
    handler: 'docsRenderer',
    access: 'public',
    summary: 'The script of the documentation page (Redoc)',
    tag: 'Service',
  },

  {
    operationId: 'createUser',
    method: 'POST',
    path: '/v2/users',
    handler: 'createUser',
    access: 'write',
    summary: 'Create a user',
    tag: 'Users',
  },
  {
    operationId: 'listUsers',
    method: 'GET',
    path: '/v2/users',
    handler: 'listUsers',
    access: 'read',
    summary: 'List all users',
    tag: 'Users',
  },
  {
    operationId: 'getUser',
    method: 'GET',
    path: '/v2/users/{user_id}',
    handler: 'getUser',
    access: 'read',
    summary: 'Get a user',
    tag: 'Users',
  },
  {
    operationId: 'updateUser',
    method: 'PATCH',
    path: '/v2/users/{user_id}',
    handler: 'updateUser',
    access: 'write',
    summary: 'Update a user',
    tag: 'Users',
  },
  {
    operationId: 'deleteUser',
    method: 'DELETE',
    path: '/v2/users/{user_id}',
    handler: 'deleteUser',
    access: 'write',
    summary: 'Delete a user',
    tag: 'Users',
  },

  {
    operationId: 'createDepartment',
    method: 'POST',
    path: '/v2/departments',
    handler: 'createDepartment',
    access: 'write',
    summary: 'Create a department',
    tag: 'Departments',
  },
  {
    operationId: 'listDepartments',
    method: 'GET',
    path: '/v2/departments',
    handler: 'listDepartments',
    access: 'read',
    summary: 'List departments',
    tag: 'Departments',
  },
  {
    operationId: 'getDepartment',
    method: 'GET',
    path: '/v2/departments/{department_id}',
    handler: 'getDepartment',
    access: 'read',
    summary: 'Get a department',
    tag: 'Departments',
  },
  {
    operationId: 'updateDepartment',
    method: 'PATCH',
    path: '/v2/departments/{department_id}',
    handler: 'updateDepartment',
    access: 'write',
    summary: 'Rename a department',
    tag: 'Departments',
  },
  {
    operationId: 'listDepartmentUsers',
    method: 'GET',
    path: '/v2/departments/{department_id}/users',
    handler: 'listDepartmentUsers',
    access: 'read',
    summary: 'List the users of one department (E1 restricted to it)',
    tag: 'Departments',
  },
  {
    operationId: 'E1',
    method: 'GET',
    path: '/v2/departments/users',
    handler: 'listMemberUsers',
    access: 'read',
    summary: 'E1: list users that belong to any department',
    tag: 'Departments',
  },
  {
    operationId: 'E2',
    method: 'POST',
    path: '/v2/departments/{department_id}/users/{user_id}',
    handler: 'addDepartmentUser',
    access: 'write',
    summary: 'E2: add a user to a department (moving it out of any other)',
    tag: 'Departments',
  },
  {
    operationId: 'E3',
    method: 'POST',
    path: '/v2/departments/{department_id}/users',
    handler: 'addDepartmentUsers',
    access: 'write',
    // A bulk move of 1,000 users is up to ~110 transactions in a row (lib/departments/bulk-move/): ~13 s on DynamoDB Local.
    timeoutSeconds: 28,
    summary: 'E3: add up to 1,000 users to a department, all or nothing',
    tag: 'Departments',
  },
  {
    operationId: 'E4',
    method: 'DELETE',
    path: '/v2/departments/{department_id}/users/{user_id}',
    handler: 'removeDepartmentUser',
    access: 'write',
    summary: 'E4: remove a user from a department',
    tag: 'Departments',
  },
  {
    operationId: 'E5',
    method: 'DELETE',
    path: '/v2/departments/{department_id}/users',
    handler: 'removeDepartmentUsers',
    access: 'write',
    // The same bulk move as E3.
    timeoutSeconds: 28,
    summary: 'E5: remove up to 1,000 users from a department, all or nothing',
    tag: 'Departments',
  },
  {
    operationId: 'E6',
    method: 'GET',
    path: '/v2/departments/{department_id}/quotas',
    aliases: ['/departments/{department_id}/quotas'],
    handler: 'getDepartmentQuotas',
    access: 'read',
    summary: "E6: read a department's quotas",
    tag: 'Departments',
  },
  {
    operationId: 'E7',
    method: 'PUT',
    path: '/v2/departments/{department_id}/quotas',
    handler: 'setDepartmentQuota',
    access: 'write',
    summary: 'E7: set or remove one quota limit',
    tag: 'Departments',
  },
  {
    operationId: 'E8',
    method: 'DELETE',
    path: '/v2/departments/{department_id}',
    handler: 'deleteDepartment',
    access: 'write',
    summary: 'E8: delete an empty department',
    tag: 'Departments',
  },

  {
    operationId: 'G1',
    method: 'GET',
    path: '/v2/groups/{group_id}',
    handler: 'getGroup',
    access: 'read',
    summary: 'G1: get a group with every user',
    tag: 'Groups',
  },
  {
    operationId: 'G2',
    method: 'GET',
    path: '/v2/groups',
    handler: 'listGroups',
    access: 'read',
    summary: 'G2: list groups',
    tag: 'Groups',
  },
  {
    operationId: 'G3',
    method: 'POST',
    path: '/v2/groups',
    handler: 'createGroup',
    access: 'write',
    // 10,000 memberships are ~61,000 WCU: seconds, not milliseconds, on a cold table.
    timeoutSeconds: 28,
    summary: 'G3: create a group, optionally with up to 10,000 users (all or nothing)',
    tag: 'Groups',
  },
  {
    operationId: 'G4',
    method: 'POST',
    path: '/v2/groups/{group_id}/users/{user_id}',
    handler: 'addGroupUser',
    access: 'write',
    summary: 'G4: add a user to a group',
    tag: 'Groups',
  },
  {
    operationId: 'G5',
    method: 'DELETE',
    path: '/v2/groups/{group_id}/users/{user_id}',
    handler: 'removeGroupUser',
    access: 'write',
    summary: 'G5: remove a user from a group',
    tag: 'Groups',
  },
  {
    operationId: 'G6',
    method: 'DELETE',
    path: '/v2/groups/{group_id}',
    handler: 'deleteGroup',
    access: 'write',
    summary: 'G6: delete a group (its users stay)',
    tag: 'Groups',
  },
  {
    operationId: 'G7',
    method: 'DELETE',
    path: '/v2/groups',
    handler: 'deleteGroups',
    access: 'write',
    summary: 'G7: delete up to 100 groups, all or nothing',
    tag: 'Groups',
  },
  {
    operationId: 'updateGroup',
    method: 'PATCH',
    path: '/v2/groups/{group_id}',
    handler: 'updateGroup',
    access: 'write',
    summary: 'Rename or re-describe a group',
    tag: 'Groups',
  },

  {
    operationId: 'listAudit',
    method: 'GET',
    path: '/v2/audit',
    handler: 'listAudit',
    access: 'read',
    summary: 'The audit trail of every change, newest first',
    tag: 'Audit',
  },
  {
    operationId: 'E9',
    method: 'POST',
    path: '/v2/departments/exports',
    handler: 'createDepartmentsReport',
    access: 'write',
    summary: 'E9: start a departments report (CSV), optionally e-mailed',
    tag: 'Reports',
  },
  {
    operationId: 'getDepartmentsReport',
    method: 'GET',
    path: '/v2/departments/exports/{report_id}',
    handler: 'getDepartmentsReport',
    access: 'read',
    reportsBucket: 'presign',
    summary: 'Status of a departments report, with its download link once complete',
    tag: 'Reports',
  },
  {
    operationId: 'downloadDepartmentsReport',
    method: 'GET',
    path: '/v2/departments/exports/{report_id}/download',
    handler: 'downloadDepartmentsReport',
    access: 'read',
    reportsBucket: 'presign',
    summary: "Redirect (303) to a departments report's CSV",
    tag: 'Reports',
  },
  {
    operationId: 'G8',
    method: 'POST',
    path: '/v2/groups/exports',
    handler: 'createGroupsReport',
    access: 'write',
    summary: 'G8: start a groups report (CSV), optionally e-mailed',
    tag: 'Reports',
  },
  {
    operationId: 'getGroupsReport',
    method: 'GET',
    path: '/v2/groups/exports/{report_id}',
    handler: 'getGroupsReport',
    access: 'read',
    reportsBucket: 'presign',
    summary: 'Status of a groups report, with its download link once complete',
    tag: 'Reports',
  },
  {
    operationId: 'downloadGroupsReport',
    method: 'GET',
    path: '/v2/groups/exports/{report_id}/download',
    handler: 'downloadGroupsReport',
    access: 'read',
    reportsBucket: 'presign',
    summary: "Redirect (303) to a groups report's CSV",
    tag: 'Reports',
  },
  {
    operationId: 'createScimToken',
    method: 'POST',
    path: '/v2/scim/tokens',
    handler: 'createScimToken',
    access: 'write',
    summary: 'Make a SCIM token for an identity provider (its secret is shown once)',
    tag: 'SCIM tokens',
  },
  {
    operationId: 'listScimTokens',
    method: 'GET',
    path: '/v2/scim/tokens',
    handler: 'listScimTokens',
    access: 'read',
    summary: 'List SCIM tokens (without secrets)',
    tag: 'SCIM tokens',
  },
  {
    operationId: 'deleteScimToken',
    method: 'DELETE',
    path: '/v2/scim/tokens/{token_id}',
    handler: 'deleteScimToken',
    access: 'write',
    summary: 'Revoke a SCIM token',
    tag: 'SCIM tokens',
  },
  {
    operationId: 'scimServiceProviderConfig',
    method: 'GET',
    path: '/scim/v2/ServiceProviderConfig',
    handler: 'scimServiceProviderConfig',
    access: 'scim',
    summary: 'SCIM: what the service supports',
    tag: 'SCIM',
  },
  {
    operationId: 'scimResourceTypes',
    method: 'GET',
    path: '/scim/v2/ResourceTypes',
    handler: 'scimResourceTypes',
    access: 'scim',
    summary: 'SCIM: the resource types',
    tag: 'SCIM',
  },
  {
    operationId: 'scimResourceType',
    method: 'GET',
    path: '/scim/v2/ResourceTypes/{resource_type}',
    handler: 'scimResourceType',
    access: 'scim',
    summary: 'SCIM: one resource type',
    tag: 'SCIM',
  },
  {
    operationId: 'scimSchemas',
    method: 'GET',
    path: '/scim/v2/Schemas',
    handler: 'scimSchemas',
    access: 'scim',
    summary: 'SCIM: the schemas of the attributes the service keeps',
    tag: 'SCIM',
  },
  {
    operationId: 'scimSchema',
    method: 'GET',
    path: '/scim/v2/Schemas/{schema_id}',
    handler: 'scimSchema',
    access: 'scim',
    summary: 'SCIM: one schema',
    tag: 'SCIM',
  },
  {
    operationId: 'scimListUsers',
    method: 'GET',
    path: '/scim/v2/Users',
    handler: 'scimListUsers',
    access: 'scim',
    summary: 'SCIM: list or find users (filter, startIndex, count)',
    tag: 'SCIM',
  },
  {
    operationId: 'scimCreateUser',
    method: 'POST',
    path: '/scim/v2/Users',
    handler: 'scimCreateUser',
    access: 'scim',
    summary: 'SCIM: create a user',
    tag: 'SCIM',
  },
  {
    operationId: 'scimGetUser',
    method: 'GET',
    path: '/scim/v2/Users/{user_id}',
    handler: 'scimGetUser',
    access: 'scim',
    summary: 'SCIM: get a user',
    tag: 'SCIM',
  },
  {
    operationId: 'scimReplaceUser',
    method: 'PUT',
    path: '/scim/v2/Users/{user_id}',
    handler: 'scimReplaceUser',
    access: 'scim',
    summary: 'SCIM: replace a user',
    tag: 'SCIM',
  },
  {
    operationId: 'scimPatchUser',
    method: 'PATCH',
    path: '/scim/v2/Users/{user_id}',
    handler: 'scimPatchUser',
    access: 'scim',
    summary: 'SCIM: change a user (PatchOp, all operations or none)',
    tag: 'SCIM',
  },
  {
    operationId: 'scimDeleteUser',
    method: 'DELETE',
    path: '/scim/v2/Users/{user_id}',
    handler: 'scimDeleteUser',
    access: 'scim',
    summary: 'SCIM: delete a user',
    tag: 'SCIM',
  },
  {
    operationId: 'scimListGroups',
    method: 'GET',
    path: '/scim/v2/Groups',
    handler: 'scimListGroups',
    access: 'scim',
    summary: 'SCIM: list or find groups',
    tag: 'SCIM',
  },
  {
    operationId: 'scimCreateGroup',
    method: 'POST',
    path: '/scim/v2/Groups',
    handler: 'scimCreateGroup',
    access: 'scim',
    // A group of 10,000 members is written in steps (G3).
    timeoutSeconds: 28,
    summary: 'SCIM: create a group',
    tag: 'SCIM',
  },
  {
    operationId: 'scimGetGroup',
    method: 'GET',
    path: '/scim/v2/Groups/{group_id}',
    handler: 'scimGetGroup',
    access: 'scim',
    summary: 'SCIM: get a group',
    tag: 'SCIM',
  },
  {
    operationId: 'scimReplaceGroup',
    method: 'PUT',
    path: '/scim/v2/Groups/{group_id}',
    handler: 'scimReplaceGroup',
    access: 'scim',
    timeoutSeconds: 28,
    summary: 'SCIM: replace a group',
    tag: 'SCIM',
  },
  {
    operationId: 'scimPatchGroup',
    method: 'PATCH',
    path: '/scim/v2/Groups/{group_id}',
    handler: 'scimPatchGroup',
    access: 'scim',
    timeoutSeconds: 28,
    summary: 'SCIM: change a group and its members (PatchOp, all or nothing)',
    tag: 'SCIM',
  },
  {
    operationId: 'scimDeleteGroup',
    method: 'DELETE',
    path: '/scim/v2/Groups/{group_id}',
    handler: 'scimDeleteGroup',
    access: 'scim',
    summary: 'SCIM: delete a group',
    tag: 'SCIM',
  },
] as const satisfies readonly Route[];

export const routes: readonly Route[] = ROUTE_TABLE;

/** The id of every operation of the table: handlers are typed by it (`operation('E2', …)`). */
export type OperationId = (typeof ROUTE_TABLE)[number]['operationId'];

/**
 * Every concrete path a route answers on: its path, its aliases, and for
 * paths that end in a literal segment the `.json` form (not SCIM's). A path ending in a
 * parameter needs no second form: the parameter captures `id.json`, and the
 * request middleware strips the suffix (ids never contain a dot). Nor does a
 * path that already names a file (`/v2/openapi.json`, `/docs/redoc.standalone.js`).
 */
export function servedPaths(route: Route): string[] {
  const paths = [route.path, ...(route.aliases ?? [])];
  // SCIM's paths are SCIM's: no `.json` forms there.
  if (route.access === 'scim') return paths;
  return paths.flatMap((path) => (path.endsWith('}') || /\.[a-z]+$/.test(path) ? [path] : [path, `${path}.json`]));
}

/**
 * The methods a route is served under: its own, and HEAD for a GET (the contract:
 * HEAD is answered wherever GET is, by the same function, without the body).
 */
export function servedMethods(route: Route): ServedMethod[] {
  return route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];
}

/** A route key as API Gateway writes it: a served method, a space, a served path. */
export type RouteKey = `${ServedMethod} ${string}`;

/** Every route key (`GET /v2/users`, `HEAD /v2/users.json`, ...) a route is served under, as API Gateway writes them. */
export function routeKeys(route: Route): RouteKey[] {
  return servedMethods(route).flatMap((method) => servedPaths(route).map((path): RouteKey => `${method} ${path}`));
}

/**
 * The function that answers every request no route key matches: API
 * Gateway's `$default` route on AWS, and the local gateway's fallback. It
 * reads the route keys of this table (ROUTE_KEYS_FILE), so routes added to it
 * are covered with nothing more: 405 `method-not-allowed` with `Allow` on a
 * path some route serves, else 404.
 */
export const FALLBACK_FUNCTION = {
  name: 'Fallback',
  /** Module name under `functions/`. */
  handler: 'fallback',
  routeKey: '$default',
  summary: 'Answers requests no route matches: 404, or 405 with Allow on a path served with other methods',
} as const;

/**
 * The fallback function's data: `routes.flatMap(routeKeys)` as JSON, written
 * next to its bundle by the build (infra/bundling.ts), so the function
 * carries the methods and paths it needs as a file it reads on first use, not
 * the whole table (summaries, access, ...) as code loaded at every cold start.
 */
export const ROUTE_KEYS_FILE = 'route-keys.json';
