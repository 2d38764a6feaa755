import { listGroups } from '../lib/domain/groups';
import { operation } from '../lib/http/operation';
import { groupListQuery } from '../lib/schemas/groups';

/** G2: groups without their users. */
export const handler = operation({ operationId: 'G2', query: groupListQuery }, async ({ query }) => ({ body: await listGroups(query) }));
