import { listUsers } from '../lib/domain/user-list';
import { operation } from '../lib/http/operation';
import { userListQuery } from '../lib/schemas/users';

/** E1: users that belong to any department. */
export const handler = operation({ operationId: 'E1', query: userListQuery }, async ({ query }) => ({
  body: await listUsers({ kind: 'in-department' }, query),
}));
