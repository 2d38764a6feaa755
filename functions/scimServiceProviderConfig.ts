import { scimOperation } from '../lib/http/scim';
import { SERVICE_PROVIDER_CONFIG } from '../lib/scim/schema';

/** What the service supports, truthfully (API.md): PATCH, filters, ETags; no bulk, sort or password change. */
export const handler = scimOperation('scimServiceProviderConfig', async () => ({ body: SERVICE_PROVIDER_CONFIG }));
