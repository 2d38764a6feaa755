import { scimDocument } from '../lib/http/scim-document';
import { LIST_SCHEMA, RESOURCE_TYPES } from '../lib/scim/schema';

export const handler = scimDocument('scimResourceTypes', () => ({
  document: {
    schemas: [LIST_SCHEMA],
    totalResults: RESOURCE_TYPES.length,
    startIndex: 1,
    itemsPerPage: RESOURCE_TYPES.length,
    Resources: RESOURCE_TYPES,
  },
}));
