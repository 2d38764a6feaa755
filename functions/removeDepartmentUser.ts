import { removeUserFromDepartment } from '../lib/departments/membership';
import { operation } from '../lib/http/operation';
import { departmentUserParams } from '../lib/schemas/common';

/** Remove a user from a department; it then belongs to none. */
export const handler = operation('removeDepartmentUser', { params: departmentUserParams }, async ({ params, ctx }) => {
  await removeUserFromDepartment(ctx, params.department_id, params.user_id);
  return { status: 204 };
});
