/**
 * E-mailed reports per caller and hour: `REPORTMAILS#<actor>` / `<start of the hour>`, a counter `n` that the
 * report's own transaction adds to under the condition that it is below the limit, so concurrent requests can
 * never pass it, and a refused or failed request counts nothing. A counter item of no defined kind (written by
 * ADD alone, like the login counters); DynamoDB's TTL removes it once its hour is long over.
 */
import { Update } from '../db/expression';
import { TTL_ATTRIBUTE, type Key } from '../db/table';
import { update, type Explain, type Write } from '../db/transact';

const emailCountKey = (actor: string, hourStart: string): Key => ({ pk: `REPORTMAILS#${actor}`, sk: hourStart });

/** Counts one e-mailed report of `actor` in the hour starting `hourStart`; its condition fails at `limit`. */
export function countEmailedReport(actor: string, hourStart: string, limit: number, expiresAt: number, explain: Explain): Write {
  const changes = new Update().add('n', 1).set(TTL_ATTRIBUTE, expiresAt);
  const count = changes.name('n');
  changes.when(`attribute_not_exists(${count}) OR ${count} < ${changes.value(limit)}`);
  return update(emailCountKey(actor, hourStart), changes, { explain });
}
