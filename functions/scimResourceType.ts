import { scimOperation } from '../lib/http/scim';
import { ScimError } from '../lib/scim/errors';
import { RESOURCE_TYPES } from '../lib/scim/schema';

export const handler = scimOperation('scimResourceType', async ({ params }) => {
  const found = RESOURCE_TYPES.find((type) => type.id.toLowerCase() === params.resource_type?.toLowerCase());
  if (!found) throw new ScimError(undefined, `There is no resource type "${params.resource_type}".`, 404);
  return { body: found };
});
