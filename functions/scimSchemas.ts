import { scimOperation } from '../lib/http/scim';
import { LIST_SCHEMA, SCHEMAS } from '../lib/scim/schema';

export const handler = scimOperation('scimSchemas', async () => ({
  body: { schemas: [LIST_SCHEMA], totalResults: SCHEMAS.length, startIndex: 1, itemsPerPage: SCHEMAS.length, Resources: SCHEMAS },
}));
