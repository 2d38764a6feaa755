import { scimOperation } from '../lib/http/scim';
import { ifMatchVersion, resourceReply } from '../lib/scim/answers';
import { asScimUser, patchScimUser } from '../lib/scim/users';

/** Every operation of the PatchOp, or none (one transaction); answers the user as it is afterwards. */
export const handler = scimOperation('scimPatchUser', async ({ params, body, headers, base, query, ctx }) =>
  resourceReply(await asScimUser(await patchScimUser(ctx, params.user_id, body, ifMatchVersion(headers)), base), { query }),
);
