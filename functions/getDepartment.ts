import { departmentRepresentation, getDepartment } from '../lib/departments/departments';
import { etagOf } from '../lib/http/etag';
import { operation } from '../lib/http/operation';
import { departmentIdParams } from '../lib/schemas/common';

export const handler = operation('getDepartment', { params: departmentIdParams }, async ({ params }) => {
  const department = await getDepartment(params.department_id);
  return { body: departmentRepresentation(department), headers: { etag: etagOf(department.version) } };
});
