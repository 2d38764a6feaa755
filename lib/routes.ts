/**
 * The route table: the only list of the service's operations.
 *
 * The CDK stack makes one Lambda function and one HTTP API route per entry,
 * the local gateway serves the same entries, and the OpenAPI document is
 * generated from them. The handler of an entry is `functions/<handler>.ts`.
 *
 * This module must stay free of runtime dependencies: CDK, the gateway and the
 * docs import it, and no handler does.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `public`: no token; `read`: scope admin/read; `write`: scope admin/write. */
export type Access = 'public' | 'read' | 'write';

export interface Route {
  /** Contract id (E1–E9, G1–G8) where API.md gives one, else a descriptive id. */
  operationId: string;
  method: HttpMethod;
  /** Path with `{param}` segments, as API Gateway writes it. */
  path: string;
  /** Further paths served by the same operation (E6 also answers without `/v2`). */
  aliases?: string[];
  /** Module name under `functions/`. */
  handler: string;
  access: Access;
  summary: string;
  tag: 'Users' | 'Departments' | 'Groups' | 'Reports' | 'Audit' | 'Service';
}

export const routes: readonly Route[] = [
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
];

/**
 * Every concrete path a route answers on: its path, its aliases, and for
 * paths that end in a literal segment the `.json` form. A path ending in a
 * parameter needs no second form: the parameter captures `id.json`, and the
 * request middleware strips the suffix (ids never contain a dot).
 */
export function servedPaths(route: Route): string[] {
  const paths = [route.path, ...(route.aliases ?? [])];
  return paths.flatMap((path) => (path.endsWith('}') ? [path] : [path, `${path}.json`]));
}
