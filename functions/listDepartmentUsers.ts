import { listUsers } from '../lib/lists/users';
import { userListRequest } from '../lib/http/list-params';
import { operation } from '../lib/http/operation';
import { departmentIdParams } from '../lib/schemas/common';
import { userListQuery } from '../lib/schemas/users';

/** E1 restricted to one department; 404 for an unknown department. */
export const handler = operation(
  'listDepartmentUsers',
  { params: departmentIdParams, query: userListQuery },
  async ({ params, query }) => ({
    body: await listUsers({ kind: 'department', departmentId: params.department_id }, userListRequest(query)),
  }),
);
