/**
 * An event handler that awaits its work (a call to the API, then what follows it on the screen). The browser ignores
 * what a handler returns, so the promise is held here: a failure goes to `onFailure` — where the screen shows its
 * problems, for work that calls the API itself — or, for work whose calls cannot throw (a change through
 * useChange), to the browser's report of uncaught errors; never to a rejection that nobody handles.
 */
export function asyncHandler<A extends unknown[]>(
  work: (...args: A) => Promise<unknown>,
  onFailure: (error: unknown) => void = reportError,
): (...args: A) => void {
  return (...args) => {
    work(...args).catch(onFailure);
  };
}
