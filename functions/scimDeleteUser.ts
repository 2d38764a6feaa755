import { scimOperation } from '../lib/http/scim';
import { ifMatchVersion } from '../lib/scim/answers';
import { deleteScimUser } from '../lib/scim/users';

export const handler = scimOperation('scimDeleteUser', async ({ params, headers, ctx }) => {
  await deleteScimUser(ctx, params.user_id, ifMatchVersion(headers));
  return { status: 204 };
});
