/**
 * What the service's functions write to stdout while a test file runs (their
 * log lines and the EMF lines of their metrics), one string per line.
 *
 * The functions run in this process today, so their stdout is this process's:
 * it is captured here (and kept out of the test output). When the gateway runs
 * each function elsewhere and hands its output to a callback, only this helper
 * changes.
 *
 * The tests turn metrics off (POWERTOOLS_METRICS_DISABLED, vitest.config.ts)
 * so that they do not fill the output; a file that captures them turns them
 * on for its own functions (their Powertools Metrics is made on the first metric).
 */
import { afterAll, beforeAll } from 'vitest';

export interface FunctionOutput {
  /** The lines written since the file started, or since the last `clear()`. */
  lines(): string[];
  clear(): void;
}

export function captureFunctionOutput(): FunctionOutput {
  let text = '';
  const write = process.stdout.write.bind(process.stdout);
  const disabled = process.env.POWERTOOLS_METRICS_DISABLED;
  beforeAll(() => {
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    process.stdout.write = ((chunk: string | Uint8Array) => {
      text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    }) as typeof process.stdout.write;
  });
  afterAll(() => {
    process.stdout.write = write;
    if (disabled === undefined) delete process.env.POWERTOOLS_METRICS_DISABLED;
    else process.env.POWERTOOLS_METRICS_DISABLED = disabled;
  });
  return {
    lines: () => text.split('\n').filter((line) => line !== ''),
    clear: () => {
      text = '';
    },
  };
}
