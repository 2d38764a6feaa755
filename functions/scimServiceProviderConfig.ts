import { scimDocument } from '../lib/http/scim-document';
import { SERVICE_PROVIDER_CONFIG } from '../lib/scim/schema';

/** What the service supports, truthfully: PATCH, filters, ETags; no bulk, sort or password change. */
export const handler = scimDocument('scimServiceProviderConfig', () => ({ document: SERVICE_PROVIDER_CONFIG }));
