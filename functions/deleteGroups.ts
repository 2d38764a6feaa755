import { deleteGroups } from '../lib/groups/cleanup';
import { operation } from '../lib/http/operation';
import { deleteGroupsBody } from '../lib/schemas/groups';

/** Delete up to 100 groups; any unknown → 404 with missing_group_ids, nothing deleted. */
export const handler = operation('deleteGroups', { body: deleteGroupsBody }, async ({ body, ctx }) => {
  await deleteGroups(ctx, body.group_ids);
  return { status: 204 };
});
