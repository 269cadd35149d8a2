import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { ReverieError } from '@reverie/core';
import { isLoopbackHost, type ServerOptions } from '../options/server-options';
import { bearerTokenMatches } from './bearer-token';
import { judgeOrigin, writeCorsHeaders } from './cors';
import { describeError, type ErrorPolicy } from './error-response';
import type { Router } from './router';
import { sendJson } from './send';

/** The hostname of a Host header (`[::1]:4319` → `::1`). */
function hostnameOf(host: string | undefined): string {
  if (host === undefined) return '';
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return '';
  }
}

/**
 * The server's one request listener. In order: a server bound to loopback answers only requests
 * addressed to a loopback name (a page on another site cannot reach it by DNS rebinding); the
 * Origin must be the server's own or a configured one (CORS); the route must exist; the bearer
 * token must match (unless the route is public); then the route answers. Every refusal and
 * every failure is a JSON error with a code, never a stack trace. Nothing is answered before
 * `ready` resolves (the server's start work, after the port was bound).
 */
export function createRequestListener(
  router: Router,
  options: ServerOptions,
  errors: ErrorPolicy,
  ready: Promise<void> = Promise.resolve(),
): RequestListener {
  const loopbackOnly = isLoopbackHost(options.host);
  return (request, response) => {
    void answer(request, response).catch((error: unknown) => {
      const { status, body } = describeError(error, errors);
      if (response.headersSent) response.destroy();
      else sendJson(response, status, body);
    });
  };

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    await ready;
    response.setHeader('X-Content-Type-Options', 'nosniff');
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (loopbackOnly && !isLoopbackHost(hostnameOf(request.headers.host))) {
      throw new ReverieError(
        'ORIGIN_NOT_ALLOWED',
        'This server listens on loopback and answers only requests addressed to localhost, 127.0.0.1 or [::1].',
      );
    }
    const verdict = judgeOrigin(request.headers.origin, request.headers.host, options.allowedOrigins);
    if (verdict === 'refused') {
      throw new ReverieError(
        'ORIGIN_NOT_ALLOWED',
        `Requests from the origin ${request.headers.origin} are not allowed: start the server with that origin among the allowed origins (--allow-origin).`,
      );
    }
    if (verdict === 'allowed') writeCorsHeaders(request, response);
    if (request.method === 'OPTIONS' && verdict === 'allowed') {
      response.writeHead(204).end();
      return;
    }
    const match = router.match(request.method ?? 'GET', url.pathname);
    if (match === undefined) throw new ReverieError('NOT_FOUND', `Nothing is served at ${url.pathname}: see /openapi.json for the routes.`);
    if ('methodNotAllowed' in match) {
      response.setHeader('Allow', match.methodNotAllowed.join(', '));
      throw new ReverieError(
        'METHOD_NOT_ALLOWED',
        `${request.method} is not served at ${url.pathname}: use ${match.methodNotAllowed.join(' or ')}.`,
      );
    }
    if (options.token !== undefined && match.route.public !== true && !bearerTokenMatches(request.headers.authorization, options.token)) {
      response.setHeader('WWW-Authenticate', 'Bearer');
      throw new ReverieError('UNAUTHORIZED', 'This server needs its token: send the header "Authorization: Bearer <token>".');
    }
    await match.route.handle({ request, response, params: match.params, url });
  }
}
