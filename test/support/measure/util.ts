/**
 * Small helpers of the measuring kit (what npm test and the bench both measure with): rounding, timing, progress on
 * stderr, bounded concurrency.
 */
import { join } from 'node:path';

export const projectRoot = join(import.meta.dirname, '..', '..', '..');

export const round = (value: number, digits = 1) => Number(value.toFixed(digits));
export const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Wall and CPU time (user + system, of this process) of `work`, in ms. */
export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = await work();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { result, ms, cpu: (used.user + used.system) / 1000 };
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
