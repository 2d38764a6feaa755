/**
 * Every request no route matches (API Gateway's `$default` route; the local
 * gateway calls lib/http/fallback.ts the same way): 404, or 405 with `Allow`
 * on a path the route table serves with other methods. Deployed, it reads the
 * table's route keys from a file the build wrote next to this bundle
 * (infra/bundling.ts), so it carries no route table, no AWS client and no
 * table access; run from source it takes them from the table itself.
 */
import { fallbackHandler } from '../lib/http/fallback';
import { ROUTE_KEYS_FILE, type RouteKey } from '../lib/routes';

const bundledRouteKeys = new URL(`./${ROUTE_KEYS_FILE}`, import.meta.url);
/** Computed, not a literal, so that esbuild leaves the route table out of this bundle. */
const routeTableModule = new URL('../lib/routes.ts', import.meta.url).href;

async function loadRouteKeys(): Promise<RouteKey[]> {
  try {
    // node:fs/promises is loaded here, not at import: on Node 22 importing it costs ~0.9 ms of a cold start.
    const { readFile } = await import('node:fs/promises');
    return JSON.parse(await readFile(bundledRouteKeys, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const { routes, routeKeys } = (await import(routeTableModule)) as typeof import('../lib/routes');
    return routes.flatMap(routeKeys);
  }
}

export const handler = fallbackHandler(loadRouteKeys);
