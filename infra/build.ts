/**
 * The functions' build, as the stack's: one esbuild call over every entry with
 * infra/bundling.ts's options, then each function's run-time files made by the
 * same commands as the stack's afterBundling hooks (FUNCTION_FILES), into that
 * function's own output directory. The local runner (infra/local/functions.ts)
 * runs these bundles, the benchmark and test/infra/bundle-size.test.ts measure
 * them: what they run and measure is what deploys, and a function that reads a
 * file at run time the stack would not ship fails locally too.
 */
import { exec } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { FUNCTION_FILES, functionBundling } from './bundling';

/** One built function: `dir` holds its `index.mjs`, source map and run-time files, and nothing else. */
export interface BuiltBundle {
  dir: string;
  file: string;
  bytes: number;
  mapBytes: number;
  /** Output bytes per package (service code per top folder: lib/http, lib/store, ...). */
  packages: Map<string, number>;
}

const run = promisify(exec);

function packageOf(input: string): string {
  const index = input.lastIndexOf('node_modules/');
  if (index < 0) return input.includes('/baselines/') ? 'baseline' : input.split('/').slice(0, 2).join('/');
  const rest = input.slice(index + 'node_modules/'.length).split('/');
  return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
}

function packageBytes(output: Metafile['outputs'][string]): Map<string, number> {
  const byPackage = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const name = packageOf(input);
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
  }
  return byPackage;
}

/**
 * Bundles the entries (output name → source file) into `<outDir>/<name>/index.mjs` with the stack's options: one
 * esbuild call, no code splitting (the bundles a call each would make). An entry named after a handler of
 * FUNCTION_FILES gets its run-time files too, made by the stack's own commands.
 */
export async function bundleFunctions(
  projectRoot: string,
  outDir: string,
  entries: Record<string, string>,
): Promise<Map<string, BuiltBundle>> {
  const options = functionBundling();
  const result = await build({
    entryPoints: Object.fromEntries(Object.entries(entries).map(([name, file]) => [`${name}/index`, file])),
    ...{ outdir: outDir, outExtension: { '.js': '.mjs' }, bundle: true },
    platform: 'node',
    format: options.format === 'esm' ? 'esm' : 'cjs',
    ...{ target: options.target, minify: options.minify, sourcemap: options.sourceMap, mainFields: options.mainFields },
    banner: options.banner ? { js: options.banner } : undefined,
    external: options.externalModules,
    ...{ nodePaths: [join(projectRoot, 'node_modules')], absWorkingDir: projectRoot, metafile: true },
    logLevel: 'error',
  });
  await Promise.all(
    Object.keys(entries).flatMap((name) => {
      const files = FUNCTION_FILES[name];
      if (!files) return [];
      // The hooks run one after another in a shell, as cdk runs a function's afterBundling commands.
      return [
        (async () => {
          for (const command of files(projectRoot, join(outDir, name))) await run(command, { cwd: projectRoot });
        })(),
      ];
    }),
  );
  const built = new Map<string, BuiltBundle>();
  for (const name of Object.keys(entries)) {
    const dir = join(outDir, name);
    const file = join(dir, 'index.mjs');
    const relative = Object.keys(result.metafile.outputs).find((path) => path.endsWith(`/${name}/index.mjs`))!;
    built.set(name, {
      dir,
      file,
      bytes: statSync(file).size,
      mapBytes: statSync(`${file}.map`).size,
      packages: packageBytes(result.metafile.outputs[relative]),
    });
  }
  return built;
}

/** Builds `functions/<handler>.ts` for each handler into `<outDir>/<handler>/`. */
export function buildFunctions(projectRoot: string, outDir: string, handlers: readonly string[]): Promise<Map<string, BuiltBundle>> {
  return bundleFunctions(
    projectRoot,
    outDir,
    Object.fromEntries(handlers.map((handler) => [handler, join(projectRoot, 'functions', `${handler}.ts`)])),
  );
}
