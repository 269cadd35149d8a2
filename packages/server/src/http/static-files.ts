import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { ReverieError } from '@reverie/core';
import { lookupTable } from '@reverie/core/internal';
import type { HttpRoute } from './http-route';

const CONTENT_TYPES: ReadonlyMap<string, string> = lookupTable({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
});

export interface StaticFilesOptions {
  /** Where the files are served: `/inspector` serves `/inspector/*`. */
  prefix: string;
  /** The folder they are read from. Nothing outside it is ever served. */
  root: string;
  /** What `<prefix>/` (and a path that names no file, for a single-page app) serves (default index.html). */
  index?: string;
  /** Served without the token (default true): pages and scripts hold no data, the API they call does. */
  public?: boolean;
}

/**
 * A GET route serving the files of a folder under `prefix` (a built page and its assets). A
 * path that leaves the folder (`..`, an encoded slash) is NOT_FOUND; so is a missing file when
 * there is no index to fall back to.
 */
export function staticFiles({ prefix, root, index = 'index.html', public: isPublic = true }: StaticFilesOptions): HttpRoute {
  const folder = resolve(root);
  return {
    method: 'GET',
    path: `${prefix.replace(/\/$/, '')}/*`,
    public: isPublic,
    async handle({ response, params }) {
      const wanted = params['*'] ?? '';
      const candidates = wanted === '' ? [index] : [wanted, index];
      for (const relative of candidates) {
        const file = resolve(folder, relative);
        if (file !== folder && !file.startsWith(folder + sep)) break;
        const info = await stat(file).catch(() => undefined);
        if (info === undefined || !info.isFile()) continue;
        response.writeHead(200, {
          'Content-Type': CONTENT_TYPES.get(extname(file).toLowerCase()) ?? 'application/octet-stream',
          'Content-Length': info.size,
          'Cache-Control': relative === index ? 'no-cache' : 'public, max-age=3600',
        });
        await new Promise<void>((done, fail) => createReadStream(file).on('error', fail).pipe(response).on('finish', done));
        return;
      }
      throw new ReverieError('NOT_FOUND', `No file ${wanted} is served under ${prefix}.`);
    },
  };
}
