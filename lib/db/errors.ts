/**
 * What the database layer answers besides results, in one place: a lost
 * optimistic race (read again), contention or throttling that outlasted the
 * retries (lib/http/problem.ts maps these two to 409 and 503), and signals,
 * the failed conditions a caller handles itself instead of failing.
 */

/** A conditional write lost a race against a concurrent change: read again (withFreshRead). */
export class StaleReadError extends Error {
  constructor() {
    super('stale read');
    this.name = 'StaleReadError';
  }
}

/** Other transactions kept winning over the same items, retries included. `cause`: the last cancellation, for the log. */
export class ContentionError extends Error {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(detail, options);
    this.name = 'ContentionError';
  }
}

/** The database kept throttling or deferring the work, retries included. `cause`: the last refusal, for the log. */
export class DatabaseBusyError extends Error {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(detail, options);
    this.name = 'DatabaseBusyError';
  }
}

/**
 * A failed condition that means something to the caller (a membership that is
 * already there, a bulk-move part already applied): thrown by the write's
 * `explain`, caught by the code that wrote it, never answered as such.
 */
export class Signal<R extends string = string> extends Error {
  constructor(readonly reason: R) {
    super(reason);
    this.name = 'Signal';
  }
}

export const signal = <R extends string>(reason: R) => new Signal(reason);

export const isSignal = <R extends string>(error: unknown, reason: R): error is Signal<R> =>
  error instanceof Signal && error.reason === reason;
