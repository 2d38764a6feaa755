/**
 * The deployed functions for a test file: each from the bundle the global
 * setup built, with the environment of the deployment it synthesized,
 * resolved to the file's own table (infra/local/functions.ts).
 */
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { resolveDeployment, type Deployment, type LocalFunction, type StackContext } from '../../infra/local/deployment';
import { startFunctionHost, type Endpoints, type FunctionHost } from '../../infra/local/functions';
import type { LambdaHandler } from '../../infra/local/gateway';
import { synthesizeInBackground } from '../../infra/local/prepare';
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
  /** The lines a function wrote to its log so far (handler name, e.g. `createUser`). */
  output(handler: string): string[];
  /** Restarts every function with other settings; those not named keep their value (one named as undefined: its default). */
  redeploy(settings: DeploySettings): Promise<void>;
  close(): Promise<void>;
}

function sameContext(a: StackContext, b: StackContext): boolean {
  const normal = (context: StackContext) => JSON.stringify(Object.entries(context).sort(([x], [y]) => x.localeCompare(y)));
  return normal(a) === normal(b);
}

/**
 * The deployment with this context: the global setup's, or synthesized once per context and run (a disk cache), in a
 * process of its own so that this file's gateway keeps serving meanwhile.
 */
export async function deploymentWith(context: StackContext): Promise<Deployment> {
  const provided = inject('functions');
  if (sameContext(context, TEST_CONTEXT)) return provided.deployment;
  return synthesizeInBackground(projectRoot, provided.cacheDir, context, provided.hash);
}

export async function startFunctions(initial: DeploySettings = {}): Promise<TestFunctions> {
  const provided = inject('functions');
  const services = inject('services');
  const lines = new Map<string, string[]>();
  let settings: DeploySettings = initial;
  const resolve = async () => {
    const functions = resolveDeployment(await deploymentWith(settings.context ?? TEST_CONTEXT), {
      tableName: settings.tableName ?? process.env.TABLE_NAME!,
      reportsBucket: services.env.REPORTS_BUCKET,
      apiUrl: settings.apiUrl,
    });
    return settings.adjust ? functions.map(settings.adjust) : functions;
  };
  const host = startFunctionHost({
    bundlesDir: provided.bundlesDir,
    functions: await resolve(),
    endpointsFor: (fn) => settings.endpointsFor?.(fn) ?? Promise.resolve(services.endpoints),
    output: (handler, line) => {
      let own = lines.get(handler);
      if (!own) lines.set(handler, (own = []));
      own.push(line);
    },
  });
  return {
    host,
    loadHandler: async (route) => host.handler(route.name) as LambdaHandler,
    scimAuthorizer: host.handler('scimAuthorizer'),
    fallbackFunction: host.handler(FALLBACK_FUNCTION.handler) as LambdaHandler,
    output: (handler) => [...(lines.get(handler) ?? [])],
    async redeploy(next) {
      settings = { ...settings, ...next };
      host.redeploy(await resolve());
    },
    close: () => host.close(),
  };
}
