/**
 * The Node.js of the Lambda runtime (infra/bundling.ts FUNCTION_RUNTIME), on which the local function sandboxes and
 * the bench run: from the binary package tools/lambda-node pins (not a root dependency, or npm would put its `node`
 * first in every script's PATH), or `LAMBDA_NODE`. Light (no lib/, no CDK).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

export const LAMBDA_NODE_PROJECT = join(projectRoot, 'tools', 'lambda-node');

/** The binary's absolute path, its version without the v, and where it came from (the npm package, or LAMBDA_NODE). */
export type LambdaNode = { path: string; version: string; source: string };

/** The package of the registry that holds Node's binary for this machine (the `node` package's own naming). */
export function binaryPackage(platform: string = process.platform, arch: string = process.arch): string {
  const os = platform === 'win32' ? 'win' : platform;
  return `${platform === 'darwin' && arch === 'arm64' ? 'node-bin' : 'node'}-${os}-${arch}`;
}

function versionOf(path: string): string | undefined {
  const result = spawnSync(path, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim().replace(/^v/, '') : undefined;
}

/** The Lambda runtime's Node binary, or the reason it is missing (`npm ci` installs it). */
export function findLambdaNode(): { node?: LambdaNode; reason?: string } {
  const override = process.env.LAMBDA_NODE;
  if (override) {
    const version = versionOf(override);
    return version
      ? { node: { path: override, version, source: 'LAMBDA_NODE' } }
      : { reason: `LAMBDA_NODE=${override} does not run (\`${override} --version\` failed)` };
  }
  const name = binaryPackage();
  let manifest: string;
  try {
    manifest = createRequire(join(LAMBDA_NODE_PROJECT, 'package.json')).resolve(`${name}/package.json`);
  } catch {
    const pinned = JSON.parse(readFileSync(join(LAMBDA_NODE_PROJECT, 'package.json'), 'utf8')) as {
      optionalDependencies?: Record<string, string>;
    };
    return {
      reason: pinned.optionalDependencies?.[name]
        ? `${name} is not installed in ${relative(projectRoot, LAMBDA_NODE_PROJECT)}: run \`npm ci\` (its postinstall installs it) or \`npm ci --prefix tools/lambda-node\``
        : `tools/lambda-node pins no binary package for ${process.platform}/${process.arch} (${name}): set LAMBDA_NODE to a Node.js of the Lambda runtime's version`,
    };
  }
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string; bin: { node: string } };
  const path = join(dirname(manifest), pkg.bin.node);
  if (!existsSync(path)) return { reason: `${path} is missing: run \`npm ci --prefix tools/lambda-node\`` };
  const version = versionOf(path);
  if (!version) return { reason: `${path} does not run` };
  return { node: { path, version, source: `${name}@${pkg.version} (npm, tools/lambda-node)` } };
}

export const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);
