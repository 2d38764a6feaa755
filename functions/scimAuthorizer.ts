import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import type { ScimAuthorizerContext } from '../lib/http/scim-wire';
import { verifyScimToken } from '../lib/scim/tokens';

/**
 * The Lambda REQUEST authorizer of the SCIM routes (simple responses, cached
 * per Authorization header for 5 minutes). It hands on the id of a live SCIM
 * token and its expiry, and an empty id for anything else: the route then
 * answers 401 as a SCIM error, which identity providers expect and which API
 * Gateway's own refusal (403 `{"message":"Forbidden"}`) is not. No route
 * touches the table without a live token's id; each route checks the expiry
 * again (lib/http/scim-wire.ts), since a cached answer may outlive it.
 */
export const handler = async (
  event: APIGatewayRequestAuthorizerEventV2,
): Promise<APIGatewaySimpleAuthorizerWithContextResult<ScimAuthorizerContext>> => {
  const token = await verifyScimToken(event.headers?.authorization);
  return { isAuthorized: true, context: { tokenId: token?.id ?? '', expiresAt: token?.expires_at ?? '' } };
};
