import { listUsers } from '../lib/domain/user-list';
import { operation } from '../lib/http/operation';
import { userListQuery } from '../lib/schemas/users';

export const handler = operation({ operationId: 'listUsers', query: userListQuery }, async ({ query }) => ({
  body: await listUsers({ kind: 'all' }, query),
}));
