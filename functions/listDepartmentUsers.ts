import { getDepartment } from '../lib/domain/departments';
import { listUsers } from '../lib/domain/user-list';
import { operation } from '../lib/http/operation';
import { departmentIdParams } from '../lib/schemas/common';
import { userListQuery } from '../lib/schemas/users';

export const handler = operation(
  { operationId: 'listDepartmentUsers', params: departmentIdParams, query: userListQuery },
  async ({ params, query }) => {
    await getDepartment(params.department_id); // 404 for an unknown department
    return { body: await listUsers({ kind: 'department', departmentId: params.department_id }, query) };
  },
);
