/**
 * At most EMAILED_REPORTS_PER_HOUR e-mailed reports per caller (the audit's actor: the token's subject) in each
 * clock hour. The count is one more write of the transaction that creates the report job (jobs.ts), so it holds
 * under any concurrency and only reports that exist are counted; reports without e-mail are not.
 */
import { tooManyRequests } from '../problems';
import { countEmailedReport } from '../store/report-email-counts';
import type { Write } from '../db/transact';
import { EMAILED_REPORTS_PER_HOUR } from './recipients';

const HOUR_MS = 3600 * 1000;
/** The counter outlives its hour a little, for whoever looks at it; then TTL removes it. */
const KEEP_AFTER_HOUR_SECONDS = 3600;

/** The write that uses one of `actor`'s e-mailed reports of the hour of `now`; refused with 429 when none is left. */
export function useEmailAllowance(actor: string, now: number): Write {
  const hourStart = Math.floor(now / HOUR_MS) * HOUR_MS;
  const hourEnd = hourStart + HOUR_MS;
  return countEmailedReport(
    actor,
    new Date(hourStart).toISOString(),
    EMAILED_REPORTS_PER_HOUR,
    hourEnd / 1000 + KEEP_AFTER_HOUR_SECONDS,
    () =>
      tooManyRequests(
        `At most ${EMAILED_REPORTS_PER_HOUR} e-mailed reports an hour; this caller has had them. Retry after ${new Date(hourEnd).toISOString()}, or ask without email.`,
        (hourEnd - now) / 1000,
      ),
  );
}
