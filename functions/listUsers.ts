import { listUsers } from '../lib/lists/users';
import { userListRequest } from '../lib/http/list-params';
import { operation } from '../lib/http/operation';
import { userListQuery } from '../lib/schemas/users';

export const handler = operation('listUsers', { query: userListQuery }, async ({ query }) => ({
  body: await listUsers({ kind: 'all' }, userListRequest(query)),
}));
