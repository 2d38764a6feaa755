/**
 * What the service's functions write to their logs while a test file runs
 * (their log lines and the EMF lines of their metrics), one string per line:
 * each function runs from its bundle in a sandbox of its own
 * (infra/local/functions.ts), whose output the test's functions collect
 * (test/support/functions.ts) instead of printing it.
 */
import type { TestApi } from './api';

export interface FunctionOutput {
  /** The lines written since the file started, or since the last `clear()`. */
  lines(): string[];
  clear(): void;
}

export function captureFunctionOutput(api: TestApi): FunctionOutput {
  return {
    lines: () => api.functions!.output(),
    clear: () => api.functions!.clearOutput(),
  };
}
