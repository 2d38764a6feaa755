import { scimOperation } from '../lib/http/scim';
import { ifMatchVersion, resourceReply } from '../lib/scim/answers';
import { asScimUser, replaceScimUser } from '../lib/scim/users';

export const handler = scimOperation('scimReplaceUser', async ({ params, body, headers, base, query, ctx }) =>
  resourceReply(await asScimUser(await replaceScimUser(ctx, params.user_id, body, ifMatchVersion(headers)), base), { query }),
);
