import { Logger } from '@aws-lambda-powertools/logger';
import { SERVICE_NAME } from './config';

/** Structured JSON logs; level from POWERTOOLS_LOG_LEVEL (the tests set it to SILENT). */
export const logger = new Logger({ serviceName: SERVICE_NAME });
