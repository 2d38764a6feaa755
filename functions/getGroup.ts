import { getGroupWithUsers } from '../lib/groups/groups';
import { withUsers } from '../lib/groups/member-list';
import { etagOf } from '../lib/http/etag';
import { operation } from '../lib/http/operation';
import { groupIdParams } from '../lib/schemas/groups';

/** The group with its users, sorted by last name, then id: the first 1,000, and the cursor of the rest. */
export const handler = operation('getGroup', { params: groupIdParams }, async ({ params }) => {
  const { group, users } = await getGroupWithUsers(params.group_id);
  return { body: withUsers(group, users), headers: { etag: etagOf(group.version) } };
});
