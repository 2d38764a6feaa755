import { listDepartments } from '../lib/departments/departments';
import { namedListRequest } from '../lib/http/list-params';
import { operation } from '../lib/http/operation';
import { departmentListQuery } from '../lib/schemas/departments';

export const handler = operation('listDepartments', { query: departmentListQuery }, async ({ query }) => ({
  body: await listDepartments(namedListRequest(query)),
}));
