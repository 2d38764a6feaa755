/**
 * Bundle bytes per function: every function of the stack bundled as the
 * stack bundles it (test/support/measure/bundle-floors.ts over infra/build.ts, the
 * build the local runner runs too: one esbuild call with infra/bundling.ts's
 * options, then the floors), each against
 *
 * - the bytes goal, exactly: ≤ 1.335× its floor (a bundle of a trivial handler
 *   using the same AWS clients), or, with no client, ≤ the floor + 4 KB;
 * - the figure committed in bundle-bytes.json, within 1% or 1 KiB (the
 *   larger): ordinary edits move a bundle by a few hundred bytes, so a
 *   tighter bound would fail on every change of lib/; a new dependency or
 *   AWS client adds tens of KB and fails here.
 *
 * After an intended change, update the figures:
 *   UPDATE_BUNDLE_BYTES=1 npx vitest run test/infra/bundle-size.test.ts
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleStack, type BundledFunction } from '../support/measure/bundle-floors';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
const EXPECTED_FILE = fileURLToPath(new URL('./bundle-bytes.json', import.meta.url));
const tolerance = (bytes: number) => Math.max(1024, Math.round(bytes * 0.01));
const work = mkdtempSync(join(tmpdir(), 'bundle-size-'));
let bundled: BundledFunction[] = [];

beforeAll(async () => {
  bundled = await bundleStack(projectRoot, work);
  if (process.env.UPDATE_BUNDLE_BYTES) {
    const figures = Object.fromEntries(bundled.map((b) => [b.fn.handler, b.bytes]).sort(([a], [b]) => String(a).localeCompare(String(b))));
    writeFileSync(EXPECTED_FILE, `${JSON.stringify(figures, null, 2)}\n`);
  }
}, 240_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('bundle bytes per function', () => {
  it('meets the bytes goal against its floor', () => {
    const over = bundled
      .filter((b) => b.bytes > b.bytes_limit)
      .map((b) => `${b.fn.handler}: ${b.bytes} bytes, limit ${b.bytes_limit} (${b.bytes_goal} of ${b.baseline} ${b.baseline_bytes})`);
    expect(over, 'functions over their bytes goal').toEqual([]);
  });

  it('stays at the committed figures (bundle-bytes.json)', () => {
    const expected = JSON.parse(readFileSync(EXPECTED_FILE, 'utf8')) as Record<string, number>;
    const changed = bundled.flatMap((b) => {
      const figure = expected[b.fn.handler];
      if (figure === undefined) return [`${b.fn.handler}: ${b.bytes} bytes, no committed figure`];
      return Math.abs(b.bytes - figure) > tolerance(figure)
        ? [`${b.fn.handler}: ${b.bytes} bytes, committed ${figure} (${b.bytes > figure ? '+' : ''}${b.bytes - figure})`]
        : [];
    });
    const gone = Object.keys(expected).filter((handler) => !bundled.some((b) => b.fn.handler === handler));
    expect(
      [...changed, ...gone.map((handler) => `${handler}: committed but no longer a function`)],
      'bundles that changed by more than 1% or 1 KiB; if intended: UPDATE_BUNDLE_BYTES=1 npx vitest run test/infra/bundle-size.test.ts',
    ).toEqual([]);
  });
});
