import { scimOperation } from '../lib/http/scim';
import { ifMatchVersion, projection, resourceReply } from '../lib/scim/answers';
import { asScimGroup, replaceScimGroup } from '../lib/scim/groups';
import { wantsMembers } from '../lib/scim/resources';

export const handler = scimOperation('scimReplaceGroup', async ({ params, body, headers, base, query, ctx }) => {
  const { attributes, excluded } = projection('Group', query);
  const group = await replaceScimGroup(ctx, params.group_id, body, ifMatchVersion(headers));
  return resourceReply(await asScimGroup(group, base, wantsMembers(attributes, excluded)), { query });
});
