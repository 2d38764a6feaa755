import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { callReport, formatCallReport, readCallRecord } from '../../infra/local/call-record';
import { prepareStack } from '../../infra/local/prepare';
import { PATIENT_START_TIMEOUT_MS, startLocalServices } from '../../infra/local/services';
import { TEST_CONTEXT } from './functions';

export interface ProvidedServices {
  endpoints: { dynamodb: string; s3: string; ses: string; sqs: string };
  env: Record<string, string>;
  sesInboxUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    services: ProvidedServices;
    /** The directory each file's AWS call checker writes its record to (the `log` of infra/local/aws-calls.ts). */
    awsCallLog: string;
  }
}

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Where the run's report of AWS calls against the roles goes. */
export const AWS_CALL_REPORT = fileURLToPath(new URL('../../.local/test-reports/aws-calls.md', import.meta.url));

/**
 * Once for the whole integration run: starts the local services, builds every function's bundle as the stack
 * does and synthesizes the stack with the tests' settings (both cached by content between runs: infra/local/prepare.ts).
 * At its end, reads the record of AWS calls: any call a role refused fails the run, and with CHECK_UNUSED_GRANTS=1
 * (the whole suite, `npm test`) so does any granted action no function used that infra/unused-grants.ts does not justify.
 */
export default async function setup(project: TestProject) {
  const started = performance.now();
  const servicesStarting = startLocalServices({ startTimeoutMs: PATIENT_START_TIMEOUT_MS });
  // Never left unhandled while the build and synth run; awaited below.
  servicesStarting.catch(() => {});
  const { deployment, bundlesDir, hash, cacheDir, summary } = await prepareStack(projectRoot, TEST_CONTEXT);
  const services = await servicesStarting;
  console.log(`functions: ${summary}; global setup ${Math.round(performance.now() - started)} ms`);
  const awsCallLog = mkdtempSync(join(tmpdir(), 'dept-admin-aws-calls-'));
  project.provide('services', { endpoints: services.endpoints, env: services.env, sesInboxUrl: services.sesInboxUrl });
  project.provide('functions', { bundlesDir, deployment, hash, cacheDir });
  project.provide('awsCallLog', awsCallLog);
  return async () => {
    await services.stop();
    try {
      checkAwsCalls(awsCallLog, process.env.CHECK_UNUSED_GRANTS === '1');
    } finally {
      rmSync(awsCallLog, { recursive: true, force: true });
    }
  };
}

function checkAwsCalls(directory: string, unusedGrants: boolean) {
  const record = readCallRecord(directory);
  const report = callReport(record);
  mkdirSync(join(AWS_CALL_REPORT, '..'), { recursive: true });
  writeFileSync(AWS_CALL_REPORT, formatCallReport(report));
  const problems: string[] = [];
  if (report.denied.length > 0) problems.push(`${report.denied.length} AWS call(s) refused by the calling function's role`);
  if (unusedGrants) {
    if (record.functions.length === 0) problems.push('no AWS call was recorded: no function ran through the AWS call checker');
    const unjustified = report.roles.flatMap((role) => role.unjustified.map((action) => `${action} (${role.handlers.join(', ')})`));
    if (unjustified.length > 0) {
      problems.push(`granted but used by no function, and not justified in infra/unused-grants.ts: ${unjustified.join('; ')}`);
    }
  }
  if (problems.length > 0) {
    // Vitest only logs an error of a global teardown ("error during close") and keeps the exit code of the tests.
    process.exitCode = 1;
    throw new Error(`${problems.join('\n')}\nThe report: ${AWS_CALL_REPORT}`);
  }
}
