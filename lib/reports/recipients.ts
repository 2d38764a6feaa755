/**
 * The `email` option of E9/G8: 1–10 comma-separated addresses, each a plain
 * `local@domain` (no display names, quotes, spaces or line breaks, so no
 * header can be injected), in REPORT_EMAIL_DOMAINS when that is set.
 */
import { config } from '../config';
import { validationError } from '../problems';

export const MAX_RECIPIENTS = 10;
// Deliberately narrower than RFC 5322: what admins type, and nothing a mail header could misread.
export const ADDRESS =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function parseRecipients(raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  const addresses = raw.split(',').map((part) => part.trim());
  const fail = (message: string) => validationError([{ field: 'email', message }], 'The e-mail option is not valid.');
  if (addresses.length > MAX_RECIPIENTS) throw fail(`must list at most ${MAX_RECIPIENTS} addresses`);
  const domains = config().reportEmailDomains;
  for (const address of addresses) {
    if (!ADDRESS.test(address)) throw fail(`"${address.slice(0, 100)}" is not an e-mail address`);
    const domain = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
    if (domains.length > 0 && !domains.includes(domain)) throw fail(`"${address}" is not in an allowed domain (${domains.join(', ')})`);
  }
  return [...new Set(addresses)];
}
