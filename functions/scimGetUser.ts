import { scimOperation } from '../lib/http/scim';
import { resourceReply } from '../lib/scim/answers';
import { asScimUser, getScimUser } from '../lib/scim/users';

/** A deactivated user is answered like any other (Entra reads it back after `active: false`). */
export const handler = scimOperation('scimGetUser', async ({ params, base, query }) =>
  resourceReply(await asScimUser(await getScimUser(params.user_id), base), { query }),
);
