/**
 * Route matching as API Gateway (HTTP API) does it: every route key of the
 * route table (lib/routes.ts routeKeys: each served method on each served
 * path), literal segments before parameters, path parameters decoded. The
 * local gateway routes requests with it, and the fallback (fallback.ts) asks
 * it which methods route keys serve on a path.
 */
import { servedMethods, servedPaths, type Route, type RouteKey, type ServedMethod } from '../routes';

export interface CompiledRoute {
  route: Route;
  /** The served path this entry matches, e.g. `/v2/users.json`; the routeKey uses it. */
  servedPath: string;
  methods: readonly ServedMethod[];
  pattern: RegExp;
  paramNames: string[];
  /** 0 per literal segment, 1 per parameter: sorts literal routes before parameterised ones. */
  specificity: number[];
}

/** How a served path (`/v2/users/{user_id}`) matches a request path. */
type PathPattern = Pick<CompiledRoute, 'pattern' | 'paramNames' | 'specificity'>;

function compilePath(servedPath: string): PathPattern {
  const paramNames: string[] = [];
  const specificity: number[] = [];
  const source = servedPath
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      specificity.push(param ? 1 : 0);
      if (!param) return escapeRegExp(segment);
      paramNames.push(param[1]);
      return '([^/]+)';
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), paramNames, specificity };
}

function compile(route: Route, servedPath: string): CompiledRoute {
  return { route, servedPath, methods: servedMethods(route), ...compilePath(servedPath) };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Lexicographic on segment kinds: at the first differing segment, a literal wins (API Gateway's "most specific"). */
function bySpecificity(a: CompiledRoute, b: CompiledRoute): number {
  const length = Math.min(a.specificity.length, b.specificity.length);
  for (let i = 0; i < length; i++) {
    if (a.specificity[i] !== b.specificity[i]) return a.specificity[i] - b.specificity[i];
  }
  return a.specificity.length - b.specificity.length;
}

export interface RouteMatch {
  compiled: CompiledRoute;
  /** The method as requested (HEAD for a GET route served under HEAD). */
  method: ServedMethod;
  /** Undefined when the route has none, as on AWS. */
  pathParameters?: Record<string, string>;
}

export interface Router {
  /** The route that serves `method` on `rawPath`, as API Gateway picks it; undefined when none does. */
  match(method: string, rawPath: string): RouteMatch | undefined;
}

export function createRouter(routes: readonly Route[]): Router {
  const compiled = routes.flatMap((route) => servedPaths(route).map((path) => compile(route, path))).sort(bySpecificity);
  return {
    match(method, rawPath) {
      for (const candidate of compiled) {
        if (!candidate.methods.includes(method as ServedMethod)) continue;
        const match = candidate.pattern.exec(rawPath);
        if (!match) continue;
        if (candidate.paramNames.length === 0) return { compiled: candidate, method: method as ServedMethod };
        const pathParameters: Record<string, string> = {};
        candidate.paramNames.forEach((name, i) => {
          pathParameters[name] = decodeComponent(match[i + 1]);
        });
        return { compiled: candidate, method: method as ServedMethod, pathParameters };
      }
      return undefined;
    },
  };
}

const METHOD_ORDER: readonly ServedMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Every method the route keys serve on a request path, in a stable order
 * (empty: no key knows the path). Route keys, not routes: they are all the
 * fallback needs, and all its bundle carries (lib/routes.ts ROUTE_KEYS_FILE).
 */
export function allowedMethodsFor(routeKeys: readonly RouteKey[]): (rawPath: string) => ServedMethod[] {
  const keys = routeKeys.map((key) => {
    const [method, path] = key.split(' ') as [ServedMethod, string];
    return { method, pattern: compilePath(path).pattern };
  });
  return (rawPath) => {
    const allowed = new Set(keys.filter((key) => key.pattern.test(rawPath)).map((key) => key.method));
    return METHOD_ORDER.filter((method) => allowed.has(method));
  };
}

function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // malformed escapes pass through; the handler's id check rejects them
  }
}
