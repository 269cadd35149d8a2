import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ReverieError } from '@reverie/core';
import type { HttpRoute } from '../http/http-route';
import { staticFiles } from '../http/static-files';
import type { ServerExtension } from '../reverie-server';
import { builtInspectorFolder } from './inspector-assets';
import { INSPECTOR_OPERATIONS } from './inspector-operations';

/**
 * What the page may load: its own scripts, styles and API, nothing inline, nothing from
 * elsewhere, and no page may frame it.
 */
export const INSPECTOR_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface InspectorOptions {
  /** The folder of the built page (default: the one `pnpm build` writes into the package, `dist/inspector/`). */
  assets?: string;
}

/**
 * The memory inspector (SPEC O11): the page at `/inspector/` (and `/` sends a browser there),
 * served with a strict Content-Security-Policy, and the reads it needs beside the catalogue's
 * (`get_memory_history`, `get_dream_run_changes`, `get_dream_ledger`) on the HTTP API. The page holds no data:
 * it is served without the token and asks for it, and every API call it makes needs it.
 */
export function inspector({ assets = builtInspectorFolder() }: InspectorOptions = {}): ServerExtension {
  const built = assets !== undefined && existsSync(join(assets, 'index.html'));
  return ({ addRoute, addOperation }) => {
    for (const operation of INSPECTOR_OPERATIONS) addOperation(operation);
    addRoute(withPageHeaders(built ? staticFiles({ prefix: '/inspector', root: assets }) : notBuilt()));
    addRoute({
      method: 'GET',
      path: '/',
      public: true,
      async handle({ response }) {
        response.writeHead(302, { Location: '/inspector/' }).end();
      },
    });
  };
}

function withPageHeaders(route: HttpRoute): HttpRoute {
  return {
    ...route,
    handle(request) {
      request.response.setHeader('Content-Security-Policy', INSPECTOR_CSP);
      request.response.setHeader('Referrer-Policy', 'no-referrer');
      return route.handle(request);
    },
  };
}

function notBuilt(): HttpRoute {
  return {
    method: 'GET',
    path: '/inspector/*',
    public: true,
    async handle() {
      throw new ReverieError(
        'NOT_FOUND',
        'The inspector page has not been built: run `pnpm build` (it builds packages/server/dist/inspector), then restart the server.',
      );
    },
  };
}
