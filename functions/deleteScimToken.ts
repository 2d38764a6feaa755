import { operation } from '../lib/http/operation';
import { scimTokenParams } from '../lib/schemas/scim-tokens';
import { revokeScimToken } from '../lib/scim/tokens';

/** The token stops working: at once locally; on AWS within the authorizer's cache time (5 minutes). */
export const handler = operation('deleteScimToken', { params: scimTokenParams }, async ({ params, ctx }) => {
  await revokeScimToken(ctx, params.token_id);
  return { status: 204 };
});
