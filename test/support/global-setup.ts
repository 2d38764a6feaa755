import type { TestProject } from 'vitest/node';
import { startLocalServices } from '../../infra/local/services';

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

/** Starts the local services once for the whole integration run. */
export default async function setup(project: TestProject) {
  const services = await startLocalServices();
  project.provide('services', { endpoints: services.endpoints, env: services.env, sesInboxUrl: services.sesInboxUrl });
  return () => services.stop();
}
