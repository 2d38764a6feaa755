import { deleteDepartment } from '../lib/departments/departments';
import { expectedVersion } from '../lib/http/etag';
import { operation } from '../lib/http/operation';
import { departmentIdParams } from '../lib/schemas/common';

export const handler = operation('deleteDepartment', { params: departmentIdParams }, async ({ params, headers, ctx }) => {
  await deleteDepartment(ctx, params.department_id, expectedVersion(headers['if-match']));
  return { body: { id: params.department_id, deleted: true } };
});
