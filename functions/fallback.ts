/**
 * Every request no route matches (API Gateway's `$default` route; the local
 * gateway calls it the same way): 404, or 405 with `Allow` on a path the
 * route table serves with other methods. It carries the route table and
 * nothing else: no AWS client, no table access.
 */
import { fallbackHandler } from '../lib/http/fallback';
import { routeKeys, routes } from '../lib/routes';

export const handler = fallbackHandler(() => routes.flatMap(routeKeys));
