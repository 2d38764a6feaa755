import { removeUsersFromDepartment, usersAfterMove } from '../lib/departments/bulk-membership';
import { operation } from '../lib/http/operation';
import { departmentIdParams } from '../lib/schemas/common';
import { bulkUserIdsBody } from '../lib/schemas/departments';

/** Remove up to 1,000 users from a department, all or nothing. */
export const handler = operation(
  'removeDepartmentUsers',
  { params: departmentIdParams, body: bulkUserIdsBody },
  async ({ params, body, ctx }) => {
    await removeUsersFromDepartment(ctx, params.department_id, body.user_ids);
    return { status: 204 };
  },
  {
    // A repeat once a move that answered 202 is complete.
    settled: async ({ params, body }) => {
      await usersAfterMove(params.department_id, body.user_ids);
      return { status: 204 };
    },
  },
);
