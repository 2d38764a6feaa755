/**
 * What the local runner needs before any function runs: the bundles
 * (infra/build.ts) and the synthesized deployment (deployment.ts), each cached
 * by a hash of what goes into it, so that `npm start` and a test run after
 * no change to the code reuse the last build and synth
 * (building all functions takes ~25 s and a synth ~10 s on a 2-core machine).
 *
 * The cache is keyed by content, not by time: every file under functions/,
 * lib/ and infra/, package-lock.json, cdk.json and tsconfig.json (esbuild reads
 * it), and for the deployment the stack context too.
 */
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildFunctions } from '../build';
import { synthesizeDeployment, type Deployment, type StackContext } from './deployment';

const SOURCE_DIRS = ['functions', 'lib', 'infra', 'console'];
/** Build output inside a source directory (console/dist, from a `vite build` by hand): not source. */
const NOT_SOURCE = new Set(['dist', 'node_modules']);
const SOURCE_FILES = ['package-lock.json', 'cdk.json', 'tsconfig.json'];
const KEPT_BUILDS = 3;
const runFile = promisify(execFile);

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? (NOT_SOURCE.has(entry.name) ? [] : filesUnder(join(dir, entry.name))) : [join(dir, entry.name)],
  );
}

/**
 * Where a checkout's builds are cached: outside its tree, so that a bundle cannot find the project's node_modules
 * by walking up from its directory (a Lambda has none: what the bundle lacks must fail here too).
 */
export function buildCacheDir(projectRoot: string): string {
  return join(tmpdir(), 'dept-admin-build', createHash('sha256').update(resolve(projectRoot)).digest('hex').slice(0, 12));
}

/**
 * Hashes of every file the bundles (`bundles`) and the template and its reading (`deployment`) are made from, in
 * one walk: the local runner's own files (infra/local/) change the deployment's reading, not a bundle.
 */
export function sourceHashes(projectRoot: string): { bundles: string; deployment: string } {
  const bundles = createHash('sha256');
  const deployment = createHash('sha256');
  const files = [
    ...SOURCE_DIRS.flatMap((dir) => filesUnder(join(projectRoot, dir))),
    ...SOURCE_FILES.map((file) => join(projectRoot, file)),
  ];
  const local = join(projectRoot, 'infra', 'local');
  for (const file of files.sort()) {
    const name = relative(projectRoot, file);
    const content = readFileSync(file);
    deployment.update(name).update('\0').update(content).update('\0');
    if (!file.startsWith(local)) bundles.update(name).update('\0').update(content).update('\0');
  }
  return { bundles: bundles.digest('hex').slice(0, 16), deployment: deployment.digest('hex').slice(0, 16) };
}

export interface PreparedBundles {
  /** `<bundlesDir>/<handler>/index.mjs` and its run-time files, per function. */
  bundlesDir: string;
  /** How long the build took; 0 when the cache had it. */
  buildMs: number;
}

/**
 * The bundles of these functions for the code as it is, built into `<cacheDir>/bundles-<hash>` unless there
 * already; older builds there are removed.
 */
export async function prepareBundles(
  projectRoot: string,
  cacheDir: string,
  handlers: readonly string[],
  hash: string,
): Promise<PreparedBundles> {
  const bundlesDir = join(cacheDir, `bundles-${hash}`);
  const complete = (dir: string) => handlers.every((handler) => existsSync(join(dir, handler, 'index.mjs')));
  if (existsSync(bundlesDir) && complete(bundlesDir)) return { bundlesDir, buildMs: 0 };
  mkdirSync(cacheDir, { recursive: true });
  const started = performance.now();
  // Built aside and moved in place whole, so that a build another process makes at the same time is never read half done.
  const staging = join(cacheDir, `staging-${randomUUID()}`);
  try {
    await buildFunctions(projectRoot, staging, handlers);
    rmSync(bundlesDir, { recursive: true, force: true });
    renameSync(staging, bundlesDir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!complete(bundlesDir)) throw error;
  }
  // The few latest builds stay: an `npm start` of a moment ago may still run from one.
  const older = readdirSync(cacheDir)
    .filter((entry) => entry.startsWith('bundles-'))
    .map((entry) => ({ dir: join(cacheDir, entry), modified: statSync(join(cacheDir, entry)).mtimeMs }))
    .sort((a, b) => b.modified - a.modified)
    .slice(KEPT_BUILDS);
  for (const { dir } of older) rmSync(dir, { recursive: true, force: true });
  return { bundlesDir, buildMs: Math.round(performance.now() - started) };
}

export interface PreparedDeployment {
  deployment: Deployment;
  /** How long the synth took; 0 when the cache had it. */
  synthMs: number;
}

/** A stack context as one string, whatever the order of its keys: two contexts deploy alike when theirs are equal. */
export function contextKey(context: StackContext): string {
  return JSON.stringify(Object.entries(context).sort(([a], [b]) => a.localeCompare(b)));
}

function deploymentFile(cacheDir: string, context: StackContext, hash: string): string {
  const key = createHash('sha256').update(contextKey(context)).digest('hex').slice(0, 12);
  return join(cacheDir, `deployment-${hash}-${key}.json`);
}

const synthesizing = new Map<string, Promise<Deployment>>();

/**
 * prepareDeployment in a child process (infra/local/synthesize.ts): this process's event loop keeps running, e.g.
 * a gateway that serves requests meanwhile. One synth per context at a time.
 */
export function synthesizeInBackground(projectRoot: string, cacheDir: string, context: StackContext, hash: string): Promise<Deployment> {
  const file = deploymentFile(cacheDir, context, hash);
  let deployment = synthesizing.get(file);
  if (!deployment) {
    deployment = (async () => {
      if (!existsSync(file)) {
        const tsx = join(projectRoot, 'node_modules', '.bin', 'tsx');
        await runFile(tsx, ['infra/local/synthesize.ts', cacheDir, hash, JSON.stringify(context)], { cwd: projectRoot });
      }
      return JSON.parse(readFileSync(file, 'utf8')) as Deployment;
    })();
    deployment.catch(() => synthesizing.delete(file));
    synthesizing.set(file, deployment);
  }
  return deployment;
}

/** The stack synthesized with this context for the code as it is, from `<cacheDir>/deployment-<hash>-<context>.json` when there. */
export function prepareDeployment(projectRoot: string, cacheDir: string, context: StackContext, hash: string): PreparedDeployment {
  const file = deploymentFile(cacheDir, context, hash);
  if (existsSync(file)) return { deployment: JSON.parse(readFileSync(file, 'utf8')) as Deployment, synthMs: 0 };
  const started = performance.now();
  const deployment = synthesizeDeployment(context, projectRoot);
  const synthMs = Math.round(performance.now() - started);
  mkdirSync(cacheDir, { recursive: true });
  const staging = `${file}.${randomUUID()}`;
  writeFileSync(staging, JSON.stringify(deployment));
  renameSync(staging, file);
  for (const entry of readdirSync(cacheDir)) {
    const modified = statSync(join(cacheDir, entry)).mtimeMs;
    // A day old: a run of another checkout state no longer needs it.
    if (entry.startsWith('deployment-') && !entry.startsWith(`deployment-${hash}-`) && Date.now() - modified > 86_400_000) {
      rmSync(join(cacheDir, entry), { force: true });
    }
  }
  return { deployment, synthMs };
}

/**
 * Every function's bundle and the stack synthesized with this context, from the cache when the code has not
 * changed; `summary` says what each took.
 */
export async function prepareStack(projectRoot: string, context: StackContext) {
  const { bundles: bundlesHash, deployment: hash } = sourceHashes(projectRoot);
  const cacheDir = buildCacheDir(projectRoot);
  const handlers = readdirSync(join(projectRoot, 'functions'))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => file.slice(0, -3));
  // esbuild works in its own process while the synth holds this one.
  const building = prepareBundles(projectRoot, cacheDir, handlers, bundlesHash);
  building.catch(() => {});
  const { deployment, synthMs } = prepareDeployment(projectRoot, cacheDir, context, hash);
  const { bundlesDir, buildMs } = await building;
  const missing = deployment.functions.filter((fn) => !handlers.includes(fn.handler));
  if (missing.length > 0)
    throw new Error(`the template has functions without a functions/ module: ${missing.map((fn) => fn.handler).join(', ')}`);
  const took = (ms: number) => (ms === 0 ? 'cached' : `${ms} ms`);
  return { deployment, bundlesDir, hash, cacheDir, buildMs, synthMs, summary: `build ${took(buildMs)}, synth ${took(synthMs)}` };
}
