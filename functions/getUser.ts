import { getUser, userRepresentation } from '../lib/domain/users';
import { etagOf } from '../lib/http/etag';
import { operation } from '../lib/http/operation';
import { userIdParams } from '../lib/schemas/common';

export const handler = operation({ operationId: 'getUser', params: userIdParams }, async ({ params }) => {
  const user = await getUser(params.user_id);
  return { body: userRepresentation(user), headers: { etag: etagOf(user.version) } };
});
