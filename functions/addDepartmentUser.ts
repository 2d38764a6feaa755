import { addUserToDepartment } from '../lib/domain/membership';
import { userRepresentation } from '../lib/domain/users';
import { etagOf } from '../lib/http/etag';
import { operation } from '../lib/http/operation';
import { departmentUserParams } from '../lib/schemas/common';

/** E2: add a user to a department (moving it out of any other). */
export const handler = operation({ operationId: 'E2', params: departmentUserParams }, async ({ params, ctx }) => {
  const user = await addUserToDepartment(ctx, params.department_id, params.user_id);
  return { body: userRepresentation(user), headers: { etag: etagOf(user.version) } };
});
