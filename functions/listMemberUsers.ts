import { listUsers } from '../lib/lists/users';
import { userListRequest } from '../lib/http/list-params';
import { operation } from '../lib/http/operation';
import { userListQuery } from '../lib/schemas/users';

/** E1: users that belong to any department. */
export const handler = operation('E1', { query: userListQuery }, async ({ query }) => ({
  body: await listUsers({ kind: 'in-department' }, userListRequest(query)),
}));
