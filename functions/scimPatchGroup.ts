import { groupAfterChange } from '../lib/groups/groups';
import { scimOperation } from '../lib/http/scim';
import { ifMatchVersion, projection, resourceReply } from '../lib/scim/answers';
import { asScimGroup, patchScimGroup } from '../lib/scim/groups';
import { wantsMembers } from '../lib/scim/resources';

/**
 * All operations or none. Answers the group, its members only when asked
 * for with `attributes` (a group of thousands is not read back for every
 * member an identity provider adds), else 204 as Entra expects.
 */
async function answer(group: Parameters<typeof asScimGroup>[0], base: string, query: Record<string, string>) {
  const { attributes, excluded } = projection('Group', query);
  if (!attributes) return { status: 204, headers: { etag: `W/"${group.version}"` } };
  return resourceReply(await asScimGroup(group, base, wantsMembers(attributes, excluded)), { query });
}

export const handler = scimOperation(
  'scimPatchGroup',
  async ({ params, body, headers, base, query, ctx }) =>
    answer(await patchScimGroup(ctx, params.group_id, body, ifMatchVersion(headers)), base, query),
  // A repeat once a change that answered 202 is complete: the group as it now is.
  async ({ params, base, query }) => answer(await groupAfterChange(params.group_id), base, query),
);
