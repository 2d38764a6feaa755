import { groupAfterChange } from '../lib/groups/groups';
import { resourceId } from '../lib/http/applying';
import { scimOperation } from '../lib/http/scim';
import { projection, resourceReply } from '../lib/scim/answers';
import { asScimGroup, createScimGroup } from '../lib/scim/groups';
import { wantsMembers } from '../lib/scim/resources';

async function answer(group: Parameters<typeof asScimGroup>[0], base: string, query: Record<string, string>) {
  const { attributes, excluded } = projection('Group', query);
  return resourceReply(await asScimGroup(group, base, wantsMembers(attributes, excluded)), { created: true, query });
}

export const handler = scimOperation(
  'scimCreateGroup',
  async ({ body, base, query, ctx }) => answer(await createScimGroup(ctx, body), base, query),
  // A repeat once a large create that answered 202 is complete: the group as it now is.
  async ({ base, query }, resource) => answer(await groupAfterChange(resourceId(resource)), base, query),
);
