import { deleteGroup } from '../lib/groups/cleanup';
import { expectedVersion } from '../lib/http/etag';
import { operation } from '../lib/http/operation';
import { groupIdParams } from '../lib/schemas/groups';

/** Delete a group; its users stay, only the memberships go. */
export const handler = operation('deleteGroup', { params: groupIdParams }, async ({ params, headers, ctx }) => {
  await deleteGroup(ctx, params.group_id, expectedVersion(headers['if-match']));
  return { status: 204 };
});
