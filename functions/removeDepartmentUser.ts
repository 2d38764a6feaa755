import { removeUserFromDepartment } from '../lib/departments/membership';
import { operation } from '../lib/http/operation';
import { departmentUserParams } from '../lib/schemas/common';

/** E4: remove a user from a department; it then belongs to none. */
export const handler = operation('E4', { params: departmentUserParams }, async ({ params, ctx }) => {
  await removeUserFromDepartment(ctx, params.department_id, params.user_id);
  return { status: 204 };
});
