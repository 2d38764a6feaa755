/** The SCIM token routes (the admin API's; SCIM's own routes: lib/openapi/scim.ts). */
import type { OperationNameOf } from '../../routes';
import * as responses from '../../schemas/responses';
import type { OperationDoc } from './shared';

export const scimTokenDocs = {
  createScimToken: {
    description:
      'A token for an identity provider\'s SCIM connection (Okta, Entra ID: "Secret token"). The answer carries its secret, `token`, this once: the service keeps only a hash. Paste it in the identity provider with the SCIM base URL `{base_url}/scim/v2`. With `expires_at` (a time in the future) the token stops working at that time, to the millisecond on AWS too (each SCIM request checks it, whatever the authorizer\'s cache holds); without it, it works until it is deleted.',
    responses: { 201: { description: 'The token, with its secret.', schema: responses.scimTokenCreated } },
    requestExample: { description: 'Okta production' },
  },
  listScimTokens: {
    description: 'Every SCIM token, oldest first, without secrets; `last_used_at` is kept to the minute.',
    responses: { 200: { description: 'The tokens.', schema: responses.scimTokenList } },
  },
  deleteScimToken: {
    description:
      "The token stops working: locally at once; on AWS within the SCIM authorizer's cache time (5 minutes). Its provisioning keeps what it made.",
    responses: { 204: { description: 'Revoked.' } },
    problems: ['not-found'],
    parameters: { token_id: 'Id of the token (`id` of its creation).' },
  },
} satisfies Record<OperationNameOf<'SCIM tokens'>, OperationDoc>;
