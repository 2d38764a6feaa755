/**
 * The Node.js the function sandboxes and the bench use for the Lambda runtime
 * (tools/lambda-node, infra/lambda-node.ts) is the one the stack deploys, and
 * the suite runs on the Node CI asked for (.ci/run: EXPECT_NODE_MAJOR).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FUNCTION_RUNTIME } from '../../infra/bundling';
import { binaryPackage } from '../../infra/lambda-node';

const root = join(import.meta.dirname, '..', '..');
const project = join(root, 'tools', 'lambda-node');
const lambdaMajor = Number(/^nodejs(\d+)\.x$/.exec(FUNCTION_RUNTIME.name)?.[1]);

interface Manifest {
  version: string;
  optionalDependencies: Record<string, string>;
}

describe('the Lambda runtime for tests and bench', () => {
  const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as Manifest;
  const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; integrity?: string; optionalDependencies?: Record<string, string> }>;
  };

  it('pins one exact version of Node of the runtime the stack deploys, for every platform it lists', () => {
    expect(lambdaMajor).toBeGreaterThanOrEqual(20);
    const versions = new Set(Object.values(manifest.optionalDependencies));
    expect([...versions]).toEqual([manifest.version]);
    expect(manifest.version).toMatch(new RegExp(`^${lambdaMajor}\\.\\d+\\.\\d+$`));
    // The packages the `node` package of the registry would install, named the same way.
    for (const name of Object.keys(manifest.optionalDependencies)) {
      const [, platform, arch] = /^node(?:-bin)?-(\w+)-(\w+)$/.exec(name)!;
      expect(binaryPackage(platform, arch)).toBe(name);
    }
    expect(Object.keys(manifest.optionalDependencies)).toContain(binaryPackage('linux', 'x64'));
  });

  it('installs them from its lock file, each with its integrity', () => {
    expect(lock.packages['']?.optionalDependencies).toEqual(manifest.optionalDependencies);
    for (const [name, version] of Object.entries(manifest.optionalDependencies)) {
      expect(lock.packages[`node_modules/${name}`]?.version).toBe(version);
      expect(lock.packages[`node_modules/${name}`]?.integrity).toMatch(/^sha512-/);
    }
  });

  it('runs on the Node this run was asked to run on', () => {
    const expected = process.env.EXPECT_NODE_MAJOR;
    const actual = process.versions.node.split('.')[0];
    expect(expected === undefined || expected === actual, `EXPECT_NODE_MAJOR=${expected}, running on Node ${process.versions.node}`).toBe(
      true,
    );
  });
});
