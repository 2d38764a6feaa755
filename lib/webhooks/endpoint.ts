/**
 * Where a webhook may point: an `https` URL (`http` too where the deployment
 * allows local endpoints) without credentials in it, whose host resolves
 * only to addresses the SSRF guard allows (lib/webhooks/address-guard.ts).
 * Checked when a webhook is registered or its URL changes (a 400 that says
 * why), and again before each delivery (a failed attempt that says why).
 */
import { validationError } from '../problems';
import { checkedAddress, hostOf, RefusedAddressError, type ResolvedAddress, type Resolver } from './address-guard';

export interface EndpointPolicy {
  /** WEBHOOKS_ALLOW_LOCAL (lib/config.ts): `http` and loopback are allowed too. */
  allowLocal: boolean;
  resolver: Resolver;
}

/** Why a URL's form is refused, or undefined. */
function refusedForm(url: URL, allowLocal: boolean): string | undefined {
  if (url.protocol !== 'https:' && !(allowLocal && url.protocol === 'http:'))
    return allowLocal ? 'must be an http or https URL' : 'must be an https URL';
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  return undefined;
}

/** The address a delivery to `url` connects to; a RefusedAddressError says why there is none. */
export async function deliveryAddress(url: URL, policy: EndpointPolicy): Promise<ResolvedAddress> {
  const form = refusedForm(url, policy.allowLocal);
  if (form) throw new RefusedAddressError(`the URL ${form}`);
  return checkedAddress(hostOf(url), { resolver: policy.resolver, allowLoopback: policy.allowLocal });
}

/** A URL a webhook may be registered with, as given; a 400 on `url` otherwise. */
export async function checkEndpoint(url: string, policy: EndpointPolicy): Promise<string> {
  const parsed = new URL(url);
  const form = refusedForm(parsed, policy.allowLocal);
  if (form) throw validationError([{ field: 'url', message: form }]);
  try {
    await checkedAddress(hostOf(parsed), { resolver: policy.resolver, allowLoopback: policy.allowLocal });
  } catch (error) {
    if (!(error instanceof RefusedAddressError)) throw error;
    throw validationError([{ field: 'url', message: `is refused: ${error.message}` }]);
  }
  return url;
}
