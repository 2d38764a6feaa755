import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { prepareStack } from '../../infra/local/prepare';
import { startLocalServices } from '../../infra/local/services';
import { TEST_CONTEXT } from './functions';

export interface ProvidedServices {
  endpoints: { dynamodb: string; s3: string; ses: string };
  env: Record<string, string>;
  sesInboxUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    services: ProvidedServices;
  }
}

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Once for the whole integration run: starts the local services, builds every function's bundle as the stack
 * does and synthesizes the stack with the tests' settings (both cached by content between runs: infra/local/prepare.ts).
 */
export default async function setup(project: TestProject) {
  const started = performance.now();
  const servicesStarting = startLocalServices();
  // Never left unhandled while the build and synth run; awaited below.
  servicesStarting.catch(() => {});
  const { deployment, bundlesDir, hash, cacheDir, summary } = await prepareStack(projectRoot, TEST_CONTEXT);
  const services = await servicesStarting;
  console.log(`functions: ${summary}; global setup ${Math.round(performance.now() - started)} ms`);
  project.provide('services', { endpoints: services.endpoints, env: services.env, sesInboxUrl: services.sesInboxUrl });
  project.provide('functions', { bundlesDir, deployment, hash, cacheDir });
  return () => services.stop();
}
