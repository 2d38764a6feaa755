/**
 * The deployed functions for a test file: each from the bundle the global
 * setup built, with the environment of the deployment it synthesized,
 * resolved to the file's own table (infra/local/functions.ts).
 */
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { awsCallChecker, type DeniedCall } from '../../infra/local/aws-calls';
import { resolveDeployment, resolveQueues, type Deployment, type LocalFunction, type StackContext } from '../../infra/local/deployment';
import { startFunctionHost, type Endpoints, type FunctionHost } from '../../infra/local/functions';
import type { LambdaHandler } from '../../infra/local/gateway';
import { contextKey, synthesizeInBackground } from '../../infra/local/prepare';
import { createQueues } from '../../infra/local/queues';
import { FALLBACK_FUNCTION } from '../../lib/routes';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The tests' stack settings, as `npm start`'s: report e-mail may go anywhere (it only reaches the SES stand-in). */
export const TEST_CONTEXT: StackContext = { reportEmailDomains: '*' };

export interface ProvidedFunctions {
  bundlesDir: string;
  /** The stack synthesized with TEST_CONTEXT. */
  deployment: Deployment;
  /** The source hash and cache directory of the build (infra/local/prepare.ts), for synths with other settings. */
  hash: string;
  cacheDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    functions: ProvidedFunctions;
  }
}

/** What a deployment is made of: the stack's settings, the table, the API's URL, and the endpoints of the functions' AWS clients. */
export interface DeploySettings {
  /** The whole stack context (default TEST_CONTEXT); a synth per distinct context, cached for the run. */
  context?: StackContext;
  /** Default: the file's table (process.env.TABLE_NAME, set by table-per-file.ts). */
  tableName?: string;
  apiUrl?: string;
  /** Default: the shared local services; per function, e.g. to point one function at a failing stand-in. */
  endpointsFor?: (fn: LocalFunction) => Promise<Endpoints>;
  /** Changes each function before it starts (a test of what a function does without a variable). */
  adjust?: (fn: LocalFunction) => LocalFunction;
}

export interface TestFunctions {
  host: FunctionHost;
  /** The gateway's `loadHandler`, `scimAuthorizer` and `fallbackFunction`, from the bundles. */
  loadHandler: (route: { name: string }) => Promise<LambdaHandler>;
  scimAuthorizer: ReturnType<FunctionHost['handler']>;
  fallbackFunction: LambdaHandler;
  /** The lines a function (handler name, e.g. `createUser`), or without one every function, wrote to its log so far. */
  output(handler?: string): string[];
  /** Forgets the lines written so far. */
  clearOutput(): void;
  /** Restarts every function with other settings; those not named keep their value (one named as undefined: its default). */
  redeploy(settings: DeploySettings): Promise<void>;
  close(): Promise<void>;
}

/**
 * The deployment with this context: the global setup's, or synthesized once per context and run (a disk cache), in a
 * process of its own so that this file's gateway keeps serving meanwhile.
 */
export async function deploymentWith(context: StackContext): Promise<Deployment> {
  const provided = inject('functions');
  if (contextKey(context) === contextKey(TEST_CONTEXT)) return provided.deployment;
  return synthesizeInBackground(projectRoot, provided.cacheDir, context, provided.hash);
}

export async function startFunctions(initial: DeploySettings = {}): Promise<TestFunctions> {
  const provided = inject('functions');
  const services = inject('services');
  let lines = new Map<string, string[]>();
  let all: string[] = [];
  let settings: DeploySettings = initial;
  const resolve = async () => {
    const deployment = await deploymentWith(settings.context ?? TEST_CONTEXT);
    const local = {
      tableName: settings.tableName ?? process.env.TABLE_NAME!,
      reportsBucket: services.env.REPORTS_BUCKET,
      apiUrl: settings.apiUrl,
      sqsEndpoint: services.endpoints.sqs,
    };
    // The file's own queues, as it has its own table (their names carry the table's).
    await createQueues(services.endpoints.sqs, resolveQueues(deployment, local));
    const functions = resolveDeployment(deployment, local);
    return settings.adjust ? functions.map(settings.adjust) : functions;
  };
  const functions = await resolve();
  // Every AWS call a function makes passes its role's check (infra/local/aws-calls.ts): a refused call fails as on AWS,
  // and fails this file when its functions close; the suite's teardown reads the record.
  const checker = awsCallChecker({ functions, targets: services.endpoints, log: inject('awsCallLog') });
  const host = startFunctionHost({
    bundlesDir: provided.bundlesDir,
    functions,
    endpointsFor: (fn) => settings.endpointsFor?.(fn) ?? checker.endpointsFor(fn),
    output: (handler, line) => {
      let own = lines.get(handler);
      if (!own) lines.set(handler, (own = []));
      own.push(line);
      all.push(line);
    },
  });
  return {
    host,
    loadHandler: async (route) => host.handler(route.name) as LambdaHandler,
    scimAuthorizer: host.handler('scimAuthorizer'),
    fallbackFunction: host.handler(FALLBACK_FUNCTION.handler) as LambdaHandler,
    output: (handler) => [...(handler === undefined ? all : (lines.get(handler) ?? []))],
    clearOutput: () => {
      lines = new Map();
      all = [];
    },
    async redeploy(next) {
      settings = { ...settings, ...next };
      host.redeploy(await resolve());
    },
    async close() {
      await host.close();
      await checker.close();
      const denied = checker.denied();
      if (denied.length > 0) throw new Error(`AWS calls refused by their function's role:\n${denied.map(describeDenial).join('\n')}`);
    },
  };
}

function describeDenial(call: DeniedCall): string {
  const keys = call.context['dynamodb:LeadingKeys'];
  return `  ${call.handler}: ${call.action} on ${call.resource}${keys ? ` (leading keys ${JSON.stringify(keys)})` : ''}, ${call.request}`;
}
