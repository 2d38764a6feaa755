import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { SERVICE_NAME } from './config';

let loading: Promise<Logger> | undefined;
let instance: Logger | undefined;
let lambdaContext: Context | undefined;

/**
 * Structured JSON logs (Powertools Logger; level from POWERTOOLS_LOG_LEVEL, the
 * tests set it to SILENT). The service logs only when something goes wrong,
 * so the Logger module is imported and made on the first log line rather
 * than evaluated at every cold start (~2.5 ms measured in isolation;
 * docs/performance.md). In a bundle esbuild keeps the module but defers running
 * it until this `import()`.
 */
function logger(): Promise<Logger> {
  loading ??= import('@aws-lambda-powertools/logger').then(({ Logger }) => {
    instance = new Logger({ serviceName: SERVICE_NAME });
    if (lambdaContext) instance.addContext(lambdaContext);
    return instance;
  });
  return loading;
}

export type LogLevel = 'info' | 'warn' | 'error';

/** Writes one structured log line; resolves once it is written. */
export async function log(level: LogLevel, message: string, fields: Record<string, unknown>): Promise<void> {
  (await logger())[level](message, fields);
}

/** Remembers the invocation's context for every log line, without loading the Logger before it is needed. */
export function useLambdaContext(context: Context): void {
  lambdaContext = context;
  instance?.addContext(context);
}
