/** Small helpers shared by the benchmark sections: statistics, tables, child processes (and the measuring kit's). */
import { spawn, type SpawnOptions } from 'node:child_process';
import { projectRoot } from '../../test/support/measure/util';

/** The kit's own helpers, for the sections to import from one place. */
export { chunks, pad, pool, progress, projectRoot, round, sleep, summarize, timed } from '../../test/support/measure/util';

/** Runs `node <args>` (or `node`) in the project's root (or `cwd`) to its exit; `show` its stderr or all its output live. */
export function runNode(
  args: string[],
  options: Pick<SpawnOptions, 'cwd' | 'env'> & { node?: string; show?: 'progress' | 'all' },
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const stdio: SpawnOptions['stdio'] = options.show === 'all' ? 'inherit' : ['ignore', 'pipe', options.show ? 2 : 'pipe'];
    const child = spawn(options.node ?? process.execPath, args, { env: options.env, cwd: options.cwd ?? projectRoot, stdio });
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk) => (out += chunk));
    child.stderr?.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), out, err }));
  });
}

/** Runs `bench/<script>` in a fresh process with `env` added, and answers the JSON its last line of output holds. */
export async function jsonChild<T>(script: string, env: Record<string, string>, show?: 'progress'): Promise<T> {
  const { code, out, err } = await runNode(['--import', 'tsx', `bench/${script}`], { env: { ...process.env, ...env }, show });
  const line = out.trim().split('\n').pop() ?? '';
  if (code !== 0 || !/^[[{]/.test(line)) throw new Error(`bench/${script} failed (exit ${code}): ${out.slice(-500)} ${err.slice(-1500)}`);
  return JSON.parse(line) as T;
}

/** The median (mean of the two middle values for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The value at or below which `p`% of `values` lie (nearest rank); null for none. */
export function percentile(values: number[], p: number): number | null {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? Math.round(sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]) : null;
}

/** The p50, p99 and largest of `values` (ms), as the latency tables show them. */
export const latencies = (values: number[]) => ({
  ...{ p50_ms: percentile(values, 50), p99_ms: percentile(values, 99), max_ms: values.length ? Math.max(...values) : null },
});

export const ratio = (value: number, base: number) => (base > 0 ? value / base : Number.POSITIVE_INFINITY);

/** A dataset size as the tables name it: 10000 as 10k. */
export const sizeLabel = (n: number) => (n % 1000 === 0 ? `${n / 1000}k` : String(n));

/** A fixed-width text table; numbers are right-aligned. */
export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((row) => row.map(String))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  const numeric = headers.map((_, column) => rows.every((row) => typeof row[column] === 'number' || row[column] === '-'));
  const line = (row: string[]) =>
    row.map((cell, column) => (numeric[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join('  ');
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

/** A script's last line: `work`'s error printed, and exit code 1. */
export function exitOnError(work: Promise<unknown>): void {
  work.catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
