import { scimDocument } from '../lib/http/scim-document';
import { RESOURCE_TYPES } from '../lib/scim/schema';

export const handler = scimDocument('scimResourceType', ({ resource_type: name }) => {
  const found = RESOURCE_TYPES.find((type) => type.id.toLowerCase() === name?.toLowerCase());
  return found ? { document: found } : { missing: `There is no resource type "${name}".` };
});
