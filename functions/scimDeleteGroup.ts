import { scimOperation } from '../lib/http/scim';
import { ifMatchVersion } from '../lib/scim/answers';
import { deleteScimGroup } from '../lib/scim/groups';

export const handler = scimOperation('scimDeleteGroup', async ({ params, headers, ctx }) => {
  await deleteScimGroup(ctx, params.group_id, ifMatchVersion(headers));
  return { status: 204 };
});
