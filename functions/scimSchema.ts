import { scimOperation } from '../lib/http/scim';
import { ScimError } from '../lib/scim/errors';
import { SCHEMAS } from '../lib/scim/schema';

export const handler = scimOperation('scimSchema', async ({ params }) => {
  const found = SCHEMAS.find((schema) => schema.id.toLowerCase() === params.schema_id?.toLowerCase());
  if (!found) throw new ScimError(undefined, `There is no schema "${params.schema_id}".`, 404);
  return { body: found };
});
