import { scimOperation } from '../lib/http/scim';
import { listParams, listResponse } from '../lib/scim/answers';
import { listScimGroups } from '../lib/scim/groups';
import { wantsMembers } from '../lib/scim/resources';

export const handler = scimOperation('scimListGroups', async ({ query, base }) => {
  const params = listParams('Group', query);
  const { resources, total } = await listScimGroups({ ...params, withMembers: wantsMembers(params.attributes, params.excluded) }, base);
  return { body: listResponse(resources, total, params.startIndex, params) };
});
