import { listDepartments } from '../lib/departments/departments';
import { namedListRequest } from '../lib/http/list-params';
import { nextLink } from '../lib/http/link';
import { operation } from '../lib/http/operation';
import { departmentListQuery } from '../lib/schemas/departments';

export const handler = operation('listDepartments', { query: departmentListQuery }, async ({ query, path, rawQuery }) => {
  const page = await listDepartments(namedListRequest(query));
  return { body: page, headers: nextLink(path, rawQuery, page.next_cursor) };
});
