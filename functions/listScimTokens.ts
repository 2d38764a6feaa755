import { operation } from '../lib/http/operation';
import { scimTokens } from '../lib/scim/tokens';

export const handler = operation('listScimTokens', {}, async () => ({ body: { tokens: await scimTokens() } }));
