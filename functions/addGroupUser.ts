import { addUserToGroup } from '../lib/groups/members';
import { userRepresentation } from '../lib/users/user';
import { etagOf } from '../lib/http/etag';
import { operation } from '../lib/http/operation';
import { groupUserParams } from '../lib/schemas/groups';

/** Add a user to a group; already a member → 200, nothing changes. */
export const handler = operation('addGroupUser', { params: groupUserParams }, async ({ params, ctx }) => {
  const user = await addUserToGroup(ctx, params.group_id, params.user_id);
  return { body: userRepresentation(user), headers: { etag: etagOf(user.version) } };
});
