import { listUsers } from '../lib/domain/user-list';
import { operation } from '../lib/http/operation';
import { departmentIdParams } from '../lib/schemas/common';
import { userListQuery } from '../lib/schemas/users';

/** E1 restricted to one department; 404 for an unknown department. */
export const handler = operation(
  { operationId: 'listDepartmentUsers', params: departmentIdParams, query: userListQuery },
  async ({ params, query }) => ({ body: await listUsers({ kind: 'department', departmentId: params.department_id }, query) }),
);
