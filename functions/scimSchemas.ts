import { scimDocument } from '../lib/http/scim-document';
import { LIST_SCHEMA, SCHEMAS } from '../lib/scim/schema';

export const handler = scimDocument('scimSchemas', () => ({
  document: { schemas: [LIST_SCHEMA], totalResults: SCHEMAS.length, startIndex: 1, itemsPerPage: SCHEMAS.length, Resources: SCHEMAS },
}));
