/**
 * The Cognito user pool's pre-token-generation trigger (V2_0 event): takes
 * out of a person's access token every admin scope their groups do not give
 * (lib/auth/group-scopes.ts). Cognito sends V2_0 events for sign-ins and
 * refreshes of people only, never for the machine client's client-credentials
 * grant, whose tokens keep the scopes that client is allowed.
 */
import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { withheldScopes } from '../lib/auth/group-scopes';

export const handler = async (event: PreTokenGenerationV2TriggerEvent): Promise<PreTokenGenerationV2TriggerEvent> => {
  const groups = event.request.groupConfiguration.groupsToOverride ?? [];
  event.response = { claimsAndScopeOverrideDetails: { accessTokenGeneration: { scopesToSuppress: withheldScopes(groups) } } };
  return event;
};
