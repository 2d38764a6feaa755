import { listGroups } from '../lib/groups/groups';
import { namedListRequest } from '../lib/http/list-params';
import { nextLink } from '../lib/http/link';
import { operation } from '../lib/http/operation';
import { groupListQuery } from '../lib/schemas/groups';

/** Groups without their users. */
export const handler = operation('listGroups', { query: groupListQuery }, async ({ query, path, rawQuery }) => {
  const page = await listGroups(namedListRequest(query));
  return { body: page, headers: nextLink(path, rawQuery, page.next_cursor) };
});
