import { getGroupWithUsers, withUsers } from '../lib/groups/groups';
import { etagOf } from '../lib/http/etag';
import { operation } from '../lib/http/operation';
import { groupIdParams } from '../lib/schemas/groups';

/** The group with every user, sorted by last name, then id. */
export const handler = operation('getGroup', { params: groupIdParams }, async ({ params }) => {
  const { group, users } = await getGroupWithUsers(params.group_id);
  return { body: withUsers(group, users), headers: { etag: etagOf(group.version) } };
});
