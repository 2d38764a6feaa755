import { scimOperation } from '../lib/http/scim';
import { projection, resourceReply } from '../lib/scim/answers';
import { asScimGroup, createScimGroup } from '../lib/scim/groups';
import { wantsMembers } from '../lib/scim/resources';

export const handler = scimOperation('scimCreateGroup', async ({ body, base, query, ctx }) => {
  const { attributes, excluded } = projection('Group', query);
  const group = await createScimGroup(ctx, body);
  return resourceReply(await asScimGroup(group, base, wantsMembers(attributes, excluded)), { created: true, query });
});
