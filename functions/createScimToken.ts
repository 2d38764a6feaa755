import { operation } from '../lib/http/operation';
import { createScimTokenBody } from '../lib/schemas/scim-tokens';
import { createScimToken } from '../lib/scim/tokens';

/** A token for an identity provider; its secret is in this answer only. */
export const handler = operation('createScimToken', { body: createScimTokenBody }, async ({ body, ctx }) => ({
  status: 201,
  body: await createScimToken(ctx, body),
}));
