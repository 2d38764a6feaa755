import { scimDocument } from '../lib/http/scim-document';
import { SCHEMAS } from '../lib/scim/schema';

export const handler = scimDocument('scimSchema', ({ schema_id: id }) => {
  const found = SCHEMAS.find((schema) => schema.id.toLowerCase() === id?.toLowerCase());
  return found ? { document: found } : { missing: `There is no schema "${id}".` };
});
