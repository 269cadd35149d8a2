import type { HttpMethod, HttpRoute } from './http-route';

export type RouteMatch = { route: HttpRoute; params: Record<string, string> } | { methodNotAllowed: readonly string[] } | undefined;

interface CompiledRoute {
  route: HttpRoute;
  segments: string[];
  rest: boolean;
  /** Lower sorts first: fewer parameters, then no trailing wildcard. */
  rank: number;
}

/** Splits a path into decoded segments; undefined when a segment is not valid percent-encoding. */
function splitPath(pathname: string): string[] | undefined {
  try {
    return pathname
      .split('/')
      .filter((segment) => segment !== '')
      .map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}

/** The routes of one server, matched by method and path template. */
export class Router {
  private readonly routes: CompiledRoute[] = [];

  add(route: HttpRoute): void {
    const segments = route.path.split('/').filter((segment) => segment !== '');
    const rest = segments.at(-1) === '*';
    if (rest) segments.pop();
    const clash = this.routes.find((other) => other.route.method === route.method && other.route.path === route.path);
    if (clash) throw new Error(`Two routes for ${route.method} ${route.path}`);
    const parameters = segments.filter((segment) => segment.startsWith('{')).length;
    this.routes.push({ route, segments, rest, rank: parameters * 2 + (rest ? 1000 : 0) });
    this.routes.sort((a, b) => a.rank - b.rank);
  }

  /** Every route added, in matching order. */
  list(): readonly HttpRoute[] {
    return this.routes.map((compiled) => compiled.route);
  }

  /**
   * The route for a request. The most specific template that matches the path decides (a literal
   * segment beats a parameter): when none of its routes takes the method, the answer is the
   * methods it does take.
   */
  match(method: string, pathname: string): RouteMatch {
    const parts = splitPath(pathname);
    if (parts === undefined) return undefined;
    let template: string | undefined;
    const allowed: string[] = [];
    for (const compiled of this.routes) {
      if (template !== undefined && compiled.route.path !== template) continue;
      const params = matchSegments(compiled, parts);
      if (params === undefined) continue;
      template = compiled.route.path;
      if (compiled.route.method === 'ANY' || compiled.route.method === (method as HttpMethod)) return { route: compiled.route, params };
      allowed.push(compiled.route.method);
    }
    return template === undefined ? undefined : { methodNotAllowed: allowed };
  }
}

function matchSegments(compiled: CompiledRoute, parts: readonly string[]): Record<string, string> | undefined {
  const { segments, rest } = compiled;
  if (rest ? parts.length < segments.length : parts.length !== segments.length) return undefined;
  const params = new Map<string, string>();
  for (const [index, segment] of segments.entries()) {
    const part = parts[index]!;
    if (segment.startsWith('{') && segment.endsWith('}')) params.set(segment.slice(1, -1), part);
    else if (segment !== part) return undefined;
  }
  if (rest) params.set('*', parts.slice(segments.length).join('/'));
  return Object.fromEntries(params);
}
