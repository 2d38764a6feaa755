import { listUsers } from '../lib/lists/users';
import { userListRequest } from '../lib/http/list-params';
import { nextLink } from '../lib/http/link';
import { operation } from '../lib/http/operation';
import { userListQuery } from '../lib/schemas/users';

/** Users that belong to any department. */
export const handler = operation('listMemberUsers', { query: userListQuery }, async ({ query, path, rawQuery }) => {
  const page = await listUsers({ kind: 'in-department' }, userListRequest(query));
  return { body: page, headers: nextLink(path, rawQuery, page.next_cursor) };
});
