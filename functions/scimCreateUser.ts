import { scimOperation } from '../lib/http/scim';
import { resourceReply } from '../lib/scim/answers';
import { asScimUser, createScimUser } from '../lib/scim/users';

export const handler = scimOperation('scimCreateUser', async ({ body, base, query, ctx }) =>
  resourceReply(await asScimUser(await createScimUser(ctx, body), base), { created: true, query }),
);
