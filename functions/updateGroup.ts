import { getGroupWithUsers } from '../lib/groups/groups';
import { withUsers } from '../lib/groups/member-list';
import { updateGroup } from '../lib/groups/update';
import { etagOf, expectedVersion } from '../lib/http/etag';
import { operation } from '../lib/http/operation';
import { groupIdParams, updateGroupBody } from '../lib/schemas/groups';

/** Rename and/or re-describe a group; answers the whole group, users included, as getGroup does. */
export const handler = operation(
  'updateGroup',
  { params: groupIdParams, body: updateGroupBody },
  async ({ params, body, headers, ctx }) => {
    await updateGroup(ctx, params.group_id, body, expectedVersion(headers['if-match']));
    const { group, users } = await getGroupWithUsers(params.group_id);
    return { body: withUsers(group, users), headers: { etag: etagOf(group.version) } };
  },
);
