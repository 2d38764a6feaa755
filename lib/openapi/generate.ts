/**
 * Generates the OpenAPI document of this checkout: reads each route's request
 * schemas from its handler module (`functions/<name>.ts`, export
 * `handler.spec`) and hands them to buildDocument.
 *
 * Node-only and heavy (it imports every handler), so it runs where that is
 * fine: at build time (infra/openapi.ts, run by the openapi function's
 * bundling), under `npm start` and in tests; never inside a route function.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { routes as routeTable, type Route } from '../routes';
import { buildDocument, type BuildResult, type RequestSpec } from './document';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

interface HandlerModule {
  handler?: { spec?: RequestSpec & { name?: string } };
}

/** Each route's request schemas, or the reason they cannot be read (a handler not written yet, say). */
export async function loadRequestSpecs(routes: readonly Route[] = routeTable): Promise<Map<string, RequestSpec | Error>> {
  const specs = new Map<string, RequestSpec | Error>();
  await Promise.all(
    routes.map(async (route) => {
      const file = join(projectRoot, 'functions', `${route.name}.ts`);
      try {
        const module = (await import(pathToFileURL(file).href)) as HandlerModule;
        const spec = module.handler?.spec;
        if (!spec) throw new Error('it exports no handler.spec');
        if (spec.name !== route.name) {
          throw new Error(`its spec names the operation "${spec.name}", the route table "${route.name}"`);
        }
        specs.set(route.name, spec);
      } catch (error) {
        specs.set(route.name, error instanceof Error ? error : new Error(String(error)));
      }
    }),
  );
  return specs;
}

export interface GenerateOptions {
  routes?: readonly Route[];
  /** Throw when the document is incomplete (build time); otherwise the problems come back with it. */
  strict?: boolean;
}

export async function generateDocument({ routes = routeTable, strict = false }: GenerateOptions = {}): Promise<BuildResult> {
  const { version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string };
  const result = buildDocument({ routes, specs: await loadRequestSpecs(routes), version });
  if (strict && result.problems.length > 0) {
    throw new Error(`The OpenAPI document is incomplete:\n${result.problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
  return result;
}
