/**
 * How every route function is built and run. The stack and the bundle-size
 * benchmark both read these, so a benchmark number describes what deploys.
 */
import { join } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { OPENAPI_FILE, RENDERER_FILE, RENDERER_SOURCE } from '../lib/openapi/assets';
import { FALLBACK_FUNCTION, ROUTE_KEYS_FILE } from '../lib/routes';
import { CONSOLE_BUNDLE_DIR } from '../lib/console/files';

export const FUNCTION_RUNTIME = Runtime.NODEJS_22_X;
export const FUNCTION_ARCHITECTURE = Architecture.ARM_64;
export const FUNCTION_MEMORY_MB = 512;
/** API Gateway gives up on an integration after 29 s; stay well below it. */
export const FUNCTION_TIMEOUT = Duration.seconds(10);

/**
 * An ESM bundle cannot `require`, yet some CommonJS dependencies pulled into
 * the bundle still do; this gives the module a working `require`.
 */
export const ESM_REQUIRE_BANNER = "import{createRequire}from'module';const require=createRequire(import.meta.url);";

/**
 * Files a function reads at run time besides its code, by handler: shell
 * commands that make them in the bundle's output directory once esbuild is
 * done (run in the project root on the machine that bundles). Data stays out
 * of the code: the function reads it on first use instead of parsing it at
 * every cold start.
 */
export const FUNCTION_FILES: Readonly<Record<string, (inputDir: string, outputDir: string) => string[]>> = {
  // The OpenAPI document of this checkout; fails the build when a route lacks its documentation.
  openapi: (inputDir, outputDir) => [`cd "${inputDir}" && node_modules/.bin/tsx infra/openapi.ts "${join(outputDir, OPENAPI_FILE)}"`],
  // The docs page's renderer, as the redoc package ships it.
  docsRenderer: (inputDir, outputDir) => [`cp "${join(inputDir, RENDERER_SOURCE)}" "${join(outputDir, RENDERER_FILE)}"`],
  // The console (console/, Vite): its page and hashed assets, built from this checkout for each of its two functions.
  console: (inputDir, outputDir) => [consoleBuild(inputDir, outputDir)],
  consoleAssets: (inputDir, outputDir) => [consoleBuild(inputDir, outputDir)],
  // The route keys of this checkout: the methods and paths the fallback tells 404 from 405 by.
  [FALLBACK_FUNCTION.handler]: (inputDir, outputDir) => [
    `cd "${inputDir}" && node_modules/.bin/tsx infra/route-keys.ts "${join(outputDir, ROUTE_KEYS_FILE)}"`,
  ],
};

function consoleBuild(inputDir: string, outputDir: string): string {
  const target = join(outputDir, CONSOLE_BUNDLE_DIR);
  return `cd "${inputDir}" && node_modules/.bin/vite build --config console/vite.config.ts --outDir "${target}" --emptyOutDir`;
}

export function functionBundling(handler?: string): BundlingOptions {
  const files = handler === undefined ? undefined : FUNCTION_FILES[handler];
  return {
    ...(files ? { commandHooks: { beforeBundling: () => [], beforeInstall: () => [], afterBundling: files } } : {}),
    format: OutputFormat.ESM,
    target: 'node22',
    minify: true,
    sourceMap: true,
    // Prefer the ESM build of dependencies so esbuild can tree-shake them.
    mainFields: ['module', 'main'],
    banner: ESM_REQUIRE_BANNER,
    // Bundle everything, the AWS SDK v3 included, so the SDK that runs is the
    // version in package-lock.json (the benchmark measures what that costs).
    externalModules: [],
  };
}
