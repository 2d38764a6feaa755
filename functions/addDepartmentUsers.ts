import { addUsersToDepartment, usersAfterMove } from '../lib/departments/bulk-membership';
import { operation } from '../lib/http/operation';
import { departmentIdParams, dryRunQuery } from '../lib/schemas/common';
import { bulkUserIdsBody } from '../lib/schemas/departments';

/** Add up to 1,000 users to a department, all or nothing; answers them in request order. */
export const handler = operation(
  'addDepartmentUsers',
  { params: departmentIdParams, query: dryRunQuery, body: bulkUserIdsBody },
  async ({ params, query, body, ctx }) => ({
    body: { users: await addUsersToDepartment(ctx, params.department_id, body.user_ids, { dryRun: query.dry_run === 'true' }) },
  }),
  // A repeat once a move that answered 202 is complete: the users as they now are.
  { settled: async ({ params, body }) => ({ body: { users: await usersAfterMove(params.department_id, body.user_ids) } }) },
);
