import { listUsers } from '../lib/lists/users';
import { userListRequest } from '../lib/http/list-params';
import { nextLink } from '../lib/http/link';
import { operation } from '../lib/http/operation';
import { departmentIdParams } from '../lib/schemas/common';
import { userListQuery } from '../lib/schemas/users';

/** listMemberUsers restricted to one department; 404 for an unknown department. */
export const handler = operation(
  'listDepartmentUsers',
  { params: departmentIdParams, query: userListQuery },
  async ({ params, query, path, rawQuery }) => {
    const page = await listUsers({ kind: 'department', departmentId: params.department_id }, userListRequest(query));
    return { body: page, headers: nextLink(path, rawQuery, page.next_cursor) };
  },
);
