/**
 * How every route function is built and run. The stack and the bundle-size
 * benchmark both read these, so a benchmark number describes what deploys.
 */
import { Duration } from 'aws-cdk-lib';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';

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

export function functionBundling(): BundlingOptions {
  return {
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
