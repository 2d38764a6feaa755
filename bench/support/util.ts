/** Small helpers shared by the benchmark sections: statistics, rounding, tables, logging, child processes. */
import { spawn, type SpawnOptions } from 'node:child_process';
import { join } from 'node:path';

export const projectRoot = join(import.meta.dirname, '..', '..');

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

export const round = (value: number, digits = 1) => Number(value.toFixed(digits));
export const pad = (n: number, width: number) => String(n).padStart(width, '0');

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

/** Wall and CPU time (user + system, of this process) of `work`, in ms. */
export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = await work();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { result, ms, cpu: (used.user + used.system) / 1000 };
}

/** A fixed-width text table; numbers are right-aligned. */
export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((row) => row.map(String))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  const numeric = headers.map((_, column) => rows.every((row) => typeof row[column] === 'number' || row[column] === '-'));
  const line = (row: string[]) =>
    row.map((cell, column) => (numeric[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join('  ');
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

const started = Date.now();

/** Progress on stderr, so stdout holds only the tables. */
export function progress(message: string): void {
  if (process.env.BENCH_QUIET) return;
  process.stderr.write(`[bench +${round((Date.now() - started) / 1000, 0)}s] ${message}\n`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `task` over `items`, at most `concurrency` at a time. */
export async function pool<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}

/** `items` in slices of `size`. */
export const chunks = <T>(items: readonly T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));

/** The DynamoDB commands a request sent, as `GetItem Query×2`: each name once, with its count. */
export function summarize(commands: string[]): string {
  const counts = new Map<string, number>();
  for (const name of commands.map((command) => command.replace(/Command$/, ''))) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name}×${n}` : name)).join(' ');
}

/** A script's last line: `work`'s error printed, and exit code 1. */
export function exitOnError(work: Promise<unknown>): void {
  work.catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
