/**
 * Cold start: every function of the stack bundled as the stack bundles it, next to its floor (both from
 * test/support/measure/bundle-floors.ts); bytes, and fresh-process import times, function and floor alternating.
 * Which clients and why: docs/performance.md "Cold start".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BYTES_GOALS, bundleStack, type BundledFunction } from '../test/support/measure/bundle-floors';
import { median, progress, ratio, round, runNode } from './support/util';

export const COLD_START_GOALS = { ...BYTES_GOALS, import: 1.25 };

const IMPORT_SCRIPT =
  'const c = process.cpuUsage(); const t = performance.now(); await import(process.env.BENCH_BUNDLE); const ms = performance.now() - t; ' +
  'const u = process.cpuUsage(c); process.stdout.write(`${ms} ${(u.user + u.system) / 1000}`);';

/** What a Lambda environment sets that the bundles read on import. */
const LAMBDA_ENV = {
  ...{ AWS_REGION: 'us-east-1', AWS_LAMBDA_FUNCTION_NAME: 'bench', TABLE_NAME: 'bench' },
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};
/** Wall and CPU time (user + system) of the import, in ms. */
type ImportTime = { ms: number; cpu: number };

/** Imports the bundle in a fresh Node process started in the bundle's own directory, with a bare environment. */
async function importOnce(file: string): Promise<ImportTime> {
  const { code, out, err } = await runNode(['--input-type=module', '-e', IMPORT_SCRIPT], {
    cwd: join(file, '..'),
    env: { PATH: process.env.PATH ?? '', BENCH_BUNDLE: pathToFileURL(file).href, ...LAMBDA_ENV },
  });
  const [ms, cpu] = out.split(' ').map(Number);
  if (code !== 0 || !Number.isFinite(ms) || !Number.isFinite(cpu))
    throw new Error(`importing ${file} failed (${code}): ${err.slice(0, 500)}`);
  return { ms, cpu };
}

type PairedSamples = { file: ImportTime[]; baseline_file: ImportTime[] };

/** `runs` fresh-process imports of each function and of its floor, taken back to back. */
async function pairedImports(bundled: BundledFunction[], runs: number, label: string): Promise<PairedSamples[]> {
  const samples = bundled.map((): PairedSamples => ({ file: [], baseline_file: [] }));
  for (let run = 0; run < runs; run++) {
    progress(`cold start: ${label} run ${run + 1}/${runs} over ${bundled.length} functions and their floors`);
    for (const [i, b] of bundled.entries()) {
      // Alternate which goes first, so neither always runs right after the other's page-cache work.
      for (const side of (run + i) % 2 === 0 ? (['file', 'baseline_file'] as const) : (['baseline_file', 'file'] as const)) {
        samples[i][side].push(await importOnce(b[side]));
      }
    }
  }
  return samples;
}

export async function measureColdStart(projectRoot: string, options: { runs: number; only?: string[] }) {
  const work = mkdtempSync(join(tmpdir(), 'dept-admin-bench-bundles-'));
  try {
    progress("cold start: bundling every function and its floor with the stack's esbuild options");
    const bundled = await bundleStack(projectRoot, work, options.only);
    // Warm the file cache and the node binary once, uncounted.
    await importOnce(bundled[0].file);
    const samples = await pairedImports(bundled, options.runs, 'import');
    const pairedRatio = (pairs: PairedSamples, key: keyof ImportTime) =>
      median(pairs.file.map((t, run) => ratio(t[key], pairs.baseline_file[run][key])));
    // A function over the import goal gets a confirmation round of twice the runs, on its own: a miss in the first
    // round is as often a moment of the shared machine as the function (the same function met it in the run before),
    // and the larger, later sample decides. Both rounds are reported.
    const missed = bundled.flatMap((b, i) => (pairedRatio(samples[i], 'ms') > COLD_START_GOALS.import ? [i] : []));
    const confirmations = new Map<number, PairedSamples>();
    if (missed.length > 0) {
      const label = `confirmation of ${missed.map((i) => bundled[i].fn.name).join(', ')}`;
      const retried = missed.map((i) => bundled[i]);
      const again = await pairedImports(retried, options.runs * 2, label);
      missed.forEach((i, k) => confirmations.set(i, again[k]));
    }
    return bundled.map(({ fn, file: _file, baseline_file: _floor, no_client: _none, ...b }, i) => {
      const middle = (side: 'file' | 'baseline_file', key: keyof ImportTime) => median(samples[i][side].map((t) => t[key]));
      // Paired: each run's import next to its floor's, taken back to back, so that what slows the machine for a
      // moment slows both; the median of those ratios, not the ratio of two medians taken at different moments.
      const paired = (key: keyof ImportTime) => pairedRatio(samples[i], key);
      const [importMs, baselineMs] = [middle('file', 'ms'), middle('baseline_file', 'ms')];
      const [importCpu, baselineCpu] = [middle('file', 'cpu'), middle('baseline_file', 'cpu')];
      const confirmation = confirmations.get(i);
      const confirmedRatio = confirmation ? pairedRatio(confirmation, 'ms') : undefined;
      const importRatio = confirmedRatio ?? paired('ms');
      return {
        ...{ name: fn.name, handler: fn.handler, kind: fn.kind, ...b },
        bytes_ratio: round(ratio(b.bytes, b.baseline_bytes), 2),
        // Medians of the imports' wall and CPU time (user + system), and the floor's.
        ...{ import_ms: round(importMs, 1), baseline_import_ms: round(baselineMs, 1), import_ratio: round(paired('ms'), 2) },
        ...{ import_cpu_ms: round(importCpu, 1), baseline_import_cpu_ms: round(baselineCpu, 1), import_cpu_ratio: round(paired('cpu'), 2) },
        runs: options.runs,
        ...(confirmation && { confirmation_import_ratio: round(confirmedRatio!, 2), confirmation_runs: confirmation.file.length }),
        meets_goal: b.bytes <= b.bytes_limit && importRatio <= COLD_START_GOALS.import,
      };
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
