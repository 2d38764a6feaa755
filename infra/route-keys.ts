/**
 * Writes every route key of the route table (`GET /v2/users`, ...) as JSON:
 * `tsx infra/route-keys.ts [file]` (stdout without a file). The fallback
 * function's bundling runs it, so that function reads the keys from a file
 * rather than bundling the table (infra/bundling.ts, lib/routes.ts
 * ROUTE_KEYS_FILE).
 */
import { writeFileSync } from 'node:fs';
import { routeKeys, routes } from '../lib/routes';

const keys = JSON.stringify(routes.flatMap(routeKeys));
const target = process.argv[2];
if (target) writeFileSync(target, keys);
else process.stdout.write(`${keys}\n`);
