import { groupAfterChange } from '../lib/groups/groups';
import { scimOperation } from '../lib/http/scim';
import { ifMatchVersion, projection, resourceReply } from '../lib/scim/answers';
import { asScimGroup, replaceScimGroup } from '../lib/scim/groups';
import { wantsMembers } from '../lib/scim/resources';

async function answer(group: Parameters<typeof asScimGroup>[0], base: string, query: Record<string, string>) {
  const { attributes, excluded } = projection('Group', query);
  return resourceReply(await asScimGroup(group, base, wantsMembers(attributes, excluded)), { query });
}

export const handler = scimOperation(
  'scimReplaceGroup',
  async ({ params, body, headers, base, query, ctx }) =>
    answer(await replaceScimGroup(ctx, params.group_id, body, ifMatchVersion(headers)), base, query),
  // A repeat once a change that answered 202 is complete: the group as it now is.
  async ({ params, base, query }) => answer(await groupAfterChange(params.group_id), base, query),
);
