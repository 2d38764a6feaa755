import { addUserToDepartment } from '../lib/departments/membership';
import { userRepresentation } from '../lib/users/user';
import { etagOf } from '../lib/http/etag';
import { operation } from '../lib/http/operation';
import { departmentUserParams, dryRunQuery } from '../lib/schemas/common';

/** Add a user to a department (moving it out of any other). */
export const handler = operation(
  'addDepartmentUser',
  { params: departmentUserParams, query: dryRunQuery },
  async ({ params, query, ctx }) => {
    const dryRun = query.dry_run === 'true';
    const user = await addUserToDepartment(ctx, params.department_id, params.user_id, { dryRun });
    // A dry run's version is hypothetical: no ETag for a state that does not exist.
    return { body: userRepresentation(user), headers: dryRun ? undefined : { etag: etagOf(user.version) } };
  },
);
