import { removeUserFromGroup } from '../lib/groups/members';
import { operation } from '../lib/http/operation';
import { groupUserParams } from '../lib/schemas/groups';

/** Remove a user from a group. */
export const handler = operation('removeGroupUser', { params: groupUserParams }, async ({ params, ctx }) => {
  await removeUserFromGroup(ctx, params.group_id, params.user_id);
  return { status: 204 };
});
