import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { SERVICE_NAME } from './config';

let instance: Logger | undefined;
let lambdaContext: Context | undefined;

/**
 * Structured JSON logs (Powertools Logger; level from POWERTOOLS_LOG_LEVEL, the
 * tests set it to SILENT). Made on first use: constructing the Logger costs
 * ~3 ms of every cold start (bench/, issue 7), and most requests log nothing.
 */
export function logger(): Logger {
  if (!instance) {
    instance = new Logger({ serviceName: SERVICE_NAME });
    if (lambdaContext) instance.addContext(lambdaContext);
  }
  return instance;
}

/** Remembers the invocation's context for every log line, without making the Logger before it is needed. */
export function useLambdaContext(context: Context): void {
  lambdaContext = context;
  instance?.addContext(context);
}
