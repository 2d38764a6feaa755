import { scimOperation } from '../lib/http/scim';
import { LIST_SCHEMA, RESOURCE_TYPES } from '../lib/scim/schema';

export const handler = scimOperation('scimResourceTypes', async () => ({
  body: {
    schemas: [LIST_SCHEMA],
    totalResults: RESOURCE_TYPES.length,
    startIndex: 1,
    itemsPerPage: RESOURCE_TYPES.length,
    Resources: RESOURCE_TYPES,
  },
}));
