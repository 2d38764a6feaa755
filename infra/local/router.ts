/**
 * Route matching as API Gateway (HTTP API) does it: every served path of the
 * route table (lib/routes.ts servedPaths), literal segments before
 * parameters, path parameters decoded.
 */
import { servedPaths, type Route } from '../../lib/routes';

export interface CompiledRoute {
  route: Route;
  /** The served path this entry matches, e.g. `/v2/users.json`; the routeKey uses it. */
  servedPath: string;
  pattern: RegExp;
  paramNames: string[];
  /** 0 per literal segment, 1 per parameter: sorts literal routes before parameterised ones. */
  specificity: number[];
}

function compile(route: Route, servedPath: string): CompiledRoute {
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
  return { route, servedPath, pattern: new RegExp(`^${source}$`), paramNames, specificity };
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
  /** Undefined when the route has none, as on AWS. */
  pathParameters?: Record<string, string>;
}

export function createRouter(routes: readonly Route[]) {
  const compiled = routes.flatMap((route) => servedPaths(route).map((path) => compile(route, path))).sort(bySpecificity);
  return (method: string, rawPath: string): RouteMatch | undefined => {
    for (const candidate of compiled) {
      if (candidate.route.method !== method) continue;
      const match = candidate.pattern.exec(rawPath);
      if (!match) continue;
      if (candidate.paramNames.length === 0) return { compiled: candidate };
      const pathParameters: Record<string, string> = {};
      candidate.paramNames.forEach((name, i) => {
        pathParameters[name] = decodeComponent(match[i + 1]);
      });
      return { compiled: candidate, pathParameters };
    }
    return undefined;
  };
}

function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // malformed escapes pass through; the handler's id check rejects them
  }
}
