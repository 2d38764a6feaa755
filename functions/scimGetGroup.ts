import { scimOperation } from '../lib/http/scim';
import { projection, resourceReply } from '../lib/scim/answers';
import { asScimGroup, getScimGroup } from '../lib/scim/groups';
import { wantsMembers } from '../lib/scim/resources';

/** With `excludedAttributes=members` the members are not even read. */
export const handler = scimOperation('scimGetGroup', async ({ params, base, query }) => {
  const { attributes, excluded } = projection('Group', query);
  return resourceReply(await asScimGroup(await getScimGroup(params.group_id), base, wantsMembers(attributes, excluded)), { query });
});
