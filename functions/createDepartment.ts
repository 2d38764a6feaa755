import { createDepartment, departmentRepresentation } from '../lib/departments/departments';
import { etagOf } from '../lib/http/etag';
import { operation } from '../lib/http/operation';
import { createDepartmentBody } from '../lib/schemas/departments';

export const handler = operation('createDepartment', { body: createDepartmentBody }, async ({ body, ctx }) => {
  const department = await createDepartment(ctx, body);
  return {
    status: 201,
    body: departmentRepresentation(department),
    headers: { location: `/v2/departments/${department.id}`, etag: etagOf(department.version) },
  };
});
