import { listGroups } from '../lib/groups/groups';
import { namedListRequest } from '../lib/http/list-params';
import { operation } from '../lib/http/operation';
import { groupListQuery } from '../lib/schemas/groups';

/** G2: groups without their users. */
export const handler = operation('G2', { query: groupListQuery }, async ({ query }) => ({
  body: await listGroups(namedListRequest(query)),
}));
