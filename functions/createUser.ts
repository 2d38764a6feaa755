import { createUser } from '../lib/domain/user-commands';
import { userRepresentation } from '../lib/domain/users';
import { etagOf } from '../lib/http/etag';
import { operation } from '../lib/http/operation';
import { createUserBody } from '../lib/schemas/users';

export const handler = operation({ operationId: 'createUser', body: createUserBody }, async ({ body, ctx }) => {
  const user = await createUser(ctx, body);
  return { status: 201, body: userRepresentation(user), headers: { location: `/v2/users/${user.id}`, etag: etagOf(user.version) } };
});
