/**
 * One Lambda function of the service (a route's or a background one):
 * bundled from `functions/<handler>.ts`, with its own log group or the one
 * given (the route functions share one: see infra/stack.ts), X-Ray active
 * tracing (its AWS SDK calls are subsegments: lib/tracing.ts), and a role of
 * its own holding exactly the table access it is given (and what its caller
 * adds with addToRolePolicy).
 */
import { join } from 'node:path';
import type { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type CfnFunction, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { type ILogGroup, LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { TableStatement } from './access';
import { tablePolicyStatements } from './function-roles';
import { FUNCTION_ARCHITECTURE, FUNCTION_MEMORY_MB, FUNCTION_RUNTIME, FUNCTION_TIMEOUT, functionBundling } from './bundling';

export const LOG_RETENTION = RetentionDays.ONE_MONTH;

/**
 * Template metadata naming the module under functions/ a function bundles:
 * how the local runner (infra/local/deployment.ts) finds each function's
 * environment and role in the synthesized template.
 */
export const SOURCE_METADATA = 'DeptAdmin:Source';

export interface ServiceFunctionProps {
  /** Module name under `functions/`. */
  handler: string;
  description: string;
  /** What it may and may not do on the table (infra/access.ts; none: no access). */
  tableStatements: readonly TableStatement[];
  /** Defaults to FUNCTION_TIMEOUT (route functions answer within API Gateway's limit). */
  timeout?: Duration;
  /** A log group shared with other functions; without one the function gets its own. */
  logGroup?: ILogGroup;
  /** Directory holding `functions/` and the lock file; esbuild runs from here. */
  projectRoot: string;
  environment: Record<string, string>;
  table: ITable;
}

export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;

  constructor(
    scope: Construct,
    id: string,
    { handler, description, tableStatements, timeout, logGroup: sharedLogGroup, projectRoot, environment, table }: ServiceFunctionProps,
  ) {
    super(scope, id);
    // An explicit log group, rather than the `logRetention` option, avoids a
    // custom-resource Lambda and lets the retention live in the template.
    const logGroup = sharedLogGroup ?? new LogGroup(this, 'Logs', { retention: LOG_RETENTION });

    this.function = new NodejsFunction(this, 'Function', {
      description,
      projectRoot,
      entry: join(projectRoot, 'functions', `${handler}.ts`),
      depsLockFilePath: join(projectRoot, 'package-lock.json'),
      handler: 'handler',
      runtime: FUNCTION_RUNTIME,
      architecture: FUNCTION_ARCHITECTURE,
      memorySize: FUNCTION_MEMORY_MB,
      timeout: timeout ?? FUNCTION_TIMEOUT,
      bundling: functionBundling(handler),
      environment,
      logGroup,
      // Adds xray:PutTraceSegments and xray:PutTelemetryRecords to the role (X-Ray has no resource-level permissions).
      tracing: Tracing.ACTIVE,
    });

    (this.function.node.defaultChild as CfnFunction).addMetadata(SOURCE_METADATA, handler);

    for (const statement of tablePolicyStatements(table, tableStatements)) this.function.addToRolePolicy(statement);
  }
}
