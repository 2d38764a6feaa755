import { updateUser } from '../lib/users/commands';
import { userRepresentation } from '../lib/users/user';
import { etagOf, expectedVersion } from '../lib/http/etag';
import { operation } from '../lib/http/operation';
import { userIdParams } from '../lib/schemas/common';
import { updateUserBody } from '../lib/schemas/users';

export const handler = operation('updateUser', { params: userIdParams, body: updateUserBody }, async ({ params, body, headers, ctx }) => {
  const user = await updateUser(ctx, params.user_id, body, expectedVersion(headers['if-match']));
  return { body: userRepresentation(user), headers: { etag: etagOf(user.version) } };
});
