/**
 * The `email` option of E9/G8: 1–10 comma-separated addresses, each a plain
 * `local@domain` (no display names, quotes, spaces or line breaks, so no
 * header can be injected), in a domain REPORT_EMAIL_DOMAINS allows.
 *
 * Secure by default: without that setting report e-mail goes to no one
 * (the stack passes its `reportEmailDomains` context, empty when absent);
 * `*` allows any domain, as the local stack does. The worker's SES
 * permission carries the same list (infra/background.ts).
 */
import { config } from '../config';
import { validationError } from '../problems';

export const MAX_RECIPIENTS = 10;
/** E-mailed reports one caller may ask for in an hour (email-allowance.ts counts them): the directory is not a mailing list. */
export const EMAILED_REPORTS_PER_HOUR = 20;
// Deliberately narrower than RFC 5322: what admins type, and nothing a mail header could misread.
export const ADDRESS =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

const invalid = (message: string) => validationError([{ field: 'email', message }], 'The e-mail option is not valid.');

/**
 * The addresses of the option, checked for form only; null when it is absent. Domains are lower-cased (they
 * are case-insensitive), so the SES permission's case-sensitive `ses:Recipients` patterns see what this checked.
 */
export function parseRecipients(raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  const addresses = raw.split(',').map((part) => part.trim());
  if (addresses.length > MAX_RECIPIENTS) throw invalid(`must list at most ${MAX_RECIPIENTS} addresses`);
  for (const address of addresses) {
    if (!ADDRESS.test(address)) throw invalid(`"${address.slice(0, 100)}" is not an e-mail address`);
  }
  const normalized = addresses.map((address) => {
    const at = address.lastIndexOf('@');
    return address.slice(0, at + 1) + address.slice(at + 1).toLowerCase();
  });
  return [...new Set(normalized)];
}

/** The recipients a report may be e-mailed to: well-formed (parseRecipients) and in a domain the deployment allows. */
export function allowedRecipients(raw: string | undefined): string[] | null {
  const recipients = parseRecipients(raw);
  if (recipients === null) return null;
  const domains = config().reportEmailDomains;
  if (domains === '*') return recipients;
  if (domains.length === 0) {
    throw invalid('report e-mail is off: this deployment sets no REPORT_EMAIL_DOMAINS (the domains it may go to, or * for any)');
  }
  for (const address of recipients) {
    const domain = address.slice(address.lastIndexOf('@') + 1);
    if (!domains.includes(domain)) throw invalid(`"${address}" is not in an allowed domain (${domains.join(', ')})`);
  }
  return recipients;
}
