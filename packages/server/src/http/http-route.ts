import type { IncomingMessage, ServerResponse } from 'node:http';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a route handler is given: the raw exchange, the path parameters and the parsed URL. */
export interface RouteRequest {
  request: IncomingMessage;
  response: ServerResponse;
  /** `{name}` segments of the route's path, decoded; a trailing `*` is `params['*']`. */
  params: Record<string, string>;
  url: URL;
}

/**
 * One route of the HTTP server. `path` is a template: `/api/memory/{id}` (one segment each),
 * and a trailing `/*` matches the rest of the path (static files, a mounted handler). Literal
 * segments win over parameters.
 */
export interface HttpRoute {
  method: HttpMethod | 'ANY';
  path: string;
  /**
   * True: served without the bearer token (a page's HTML and scripts, which hold no data).
   * Everything else needs the token when the server has one.
   */
  public?: boolean;
  handle(request: RouteRequest): Promise<void>;
}
