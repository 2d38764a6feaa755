import { departmentRepresentation, renameDepartment } from '../lib/departments/departments';
import { etagOf, expectedVersion } from '../lib/http/etag';
import { operation } from '../lib/http/operation';
import { departmentIdParams } from '../lib/schemas/common';
import { updateDepartmentBody } from '../lib/schemas/departments';

export const handler = operation(
  'updateDepartment',
  { params: departmentIdParams, body: updateDepartmentBody },
  async ({ params, body, headers, ctx }) => {
    const department = await renameDepartment(ctx, params.department_id, body.name, expectedVersion(headers['if-match']));
    return { body: departmentRepresentation(department), headers: { etag: etagOf(department.version) } };
  },
);
