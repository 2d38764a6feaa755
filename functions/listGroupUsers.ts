import { listGroupUsers } from '../lib/groups/member-list';
import { groupUserListRequest } from '../lib/http/list-params';
import { nextLink } from '../lib/http/link';
import { operation } from '../lib/http/operation';
import { groupIdParams } from '../lib/schemas/groups';
import { userListQuery } from '../lib/schemas/users';

/** A group's users, a page at a time (G1 answers the first 1,000 and the cursor of the rest); 404 for an unknown group. */
export const handler = operation(
  'listGroupUsers',
  { params: groupIdParams, query: userListQuery },
  async ({ params, query, path, rawQuery }) => {
    const page = await listGroupUsers(params.group_id, groupUserListRequest(query));
    return { body: page, headers: nextLink(path, rawQuery, page.next_cursor) };
  },
);
