import { scimOperation } from '../lib/http/scim';
import { listParams, listResponse } from '../lib/scim/answers';
import { listScimUsers } from '../lib/scim/users';

/** GET /Users: the look-ups identity providers send by key, indexed filters by page, others by reading the list. */
export const handler = scimOperation('scimListUsers', async ({ query, base, ctx }) => {
  const params = listParams('User', query);
  const { resources, total } = await listScimUsers({ ...params, client: ctx.actor }, base);
  return { body: listResponse(resources, total, params.startIndex, params) };
});
