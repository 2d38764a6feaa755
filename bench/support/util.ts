/** Small helpers shared by the benchmark sections: statistics, rounding, tables, logging, child processes. */
import { spawn, type SpawnOptions } from 'node:child_process';

/** Runs `node <args>` to its exit and answers its exit code and what it printed. */
export function runNode(
  args: string[],
  options: Pick<SpawnOptions, 'cwd' | 'env'>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk) => (out += chunk));
    child.stderr!.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

export const round = (value: number, digits = 1) => Number(value.toFixed(digits));

/** The median (mean of the two middle values for an even count). */
export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export const ratio = (value: number, base: number) => (base > 0 ? value / base : Number.POSITIVE_INFINITY);

/** A fixed-width text table; numbers are right-aligned. */
export function table(headers: string[], rows: Array<Array<string | number>>): string {
  if (rows.some((row) => row.length !== headers.length)) throw new Error(`table: rows must have ${headers.length} cells`);
  const cells = [headers, ...rows.map((row) => row.map((cell) => (typeof cell === 'number' ? String(cell) : cell)))];
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
export async function pool<T>(items: readonly T[], concurrency: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await task(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}

/** The DynamoDB commands a request sent, as `GetItem Query×2`: each name once, with its count. */
export function summarize(commands: string[]): string {
  const counts = new Map<string, number>();
  for (const command of commands) {
    const name = command.replace(/Command$/, '');
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, n]) => (n > 1 ? `${name}×${n}` : name)).join(' ');
}
