import { listDepartments } from '../lib/domain/departments';
import { operation } from '../lib/http/operation';
import { departmentListQuery } from '../lib/schemas/departments';

export const handler = operation({ operationId: 'listDepartments', query: departmentListQuery }, async ({ query }) => ({
  body: await listDepartments(query),
}));
