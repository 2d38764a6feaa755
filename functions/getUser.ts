import { getUser, userRepresentation } from '../lib/users/user';
import { etagOf } from '../lib/http/etag';
import { operation } from '../lib/http/operation';
import { userIdParams } from '../lib/schemas/common';

export const handler = operation('getUser', { params: userIdParams }, async ({ params }) => {
  const user = await getUser(params.user_id);
  return { body: userRepresentation(user), headers: { etag: etagOf(user.version) } };
});
