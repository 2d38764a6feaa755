import { createUser } from '../lib/users/commands';
import { userRepresentation } from '../lib/users/user';
import { etagOf } from '../lib/http/etag';
import { operation } from '../lib/http/operation';
import { createUserBody } from '../lib/schemas/users';

export const handler = operation('createUser', { body: createUserBody }, async ({ body, ctx }) => {
  const user = await createUser(ctx, body);
  return { status: 201, body: userRepresentation(user), headers: { location: `/v2/users/${user.id}`, etag: etagOf(user.version) } };
});
