import { deleteUser } from '../lib/users/commands';
import { expectedVersion } from '../lib/http/etag';
import { operation } from '../lib/http/operation';
import { userIdParams } from '../lib/schemas/common';

export const handler = operation('deleteUser', { params: userIdParams }, async ({ params, headers, ctx }) => {
  await deleteUser(ctx, params.user_id, expectedVersion(headers['if-match']));
  return { status: 204 };
});
