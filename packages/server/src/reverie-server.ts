import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { invalidOptions } from '@reverie/core';
import type { Reverie } from 'reverie';
import type { HttpRoute } from './http/http-route';
import { openApiDocument } from './http/openapi-document';
import { operationRoute } from './http/operation-routes';
import { onClientError } from './http/client-error-listener';
import { ErrorRedactor } from './http/error-redactor';
import type { ErrorPolicy } from './http/error-response';
import { createRequestListener } from './http/request-listener';
import { sendJson } from './http/send';
import { Router } from './http/router';
import { mcpEndpoint } from './mcp/mcp-http-route';
import { OPERATIONS } from './operations/operation-catalogue';
import type { Operation } from './operations/operation';
import { OperationHost } from './operations/operation-host';
import { reportToStderr } from './report-to-stderr';
import { parseServerOptions, type ServerOptions, type ServerOptionsInput } from './options/server-options';

/** What a server extension (the inspector, say) is given to add its routes. */
export interface ServerExtensionContext {
  reverie: Reverie;
  options: ServerOptions;
  /** Runs the catalogue's operations with the server's rules (read-only, validation). */
  operations: OperationHost;
  addRoute(route: HttpRoute): void;
  /** Serves one more operation on the HTTP API, with the same rules as the catalogue's (read-only, validation), and lists it in the OpenAPI document. */
  addOperation(operation: Operation): void;
}

/** Adds routes to the server: called once, before it listens. */
export type ServerExtension = (context: ServerExtensionContext) => void;

export interface StartServerOptions extends ServerOptionsInput {
  reverie: Reverie;
  extensions?: readonly ServerExtension[];
  /** Told about failures the answers do not show (every 5xx, what an answer left out, background work); default: stderr. */
  onError?: (error: unknown) => void;
  /**
   * Work done once the port is bound and before any request is answered (`reverie serve`
   * finishes interrupted dream runs there), so a start refused for its options or its port has
   * written nothing. When it fails, the server closes and the start fails with its error.
   */
  beforeServing?: () => Promise<void>;
}

/** A running server. `close()` stops it; the Reverie stays open (its owner closes it). */
export interface ReverieServer {
  /** `http://host:port`, with the port actually bound. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly options: ServerOptions;
  close(): Promise<void>;
}

/**
 * Serves `reverie` over HTTP: the JSON API of every operation, MCP over streamable HTTP at /mcp,
 * the OpenAPI document at /openapi.json, and whatever the extensions add.
 * Options are validated first (INVALID_OPTIONS; anything but loopback needs a token). Limits:
 * `maxMcpSessions`, `requestTimeoutSeconds` (headers and body; answers are not timed),
 * `maxConnections` (`server.maxConnections`), `maxBodyBytes`.
 */
export async function startReverieServer({
  reverie,
  extensions = [],
  onError = reportToStderr,
  beforeServing,
  ...input
}: StartServerOptions): Promise<ReverieServer> {
  const options = parseServerOptions(input);
  const host = new OperationHost(reverie, OPERATIONS, options.readOnly, onError);
  const router = new Router();
  for (const operation of OPERATIONS) router.add(operationRoute(operation, host, options.maxBodyBytes));
  const errors: ErrorPolicy = { report: onError, redactor: new ErrorRedactor(reverie.dataPath) };
  const mcp = mcpEndpoint(
    host,
    { maxBodyBytes: options.maxBodyBytes, maxSessions: options.maxMcpSessions, expiry: { idleMs: options.mcpSessionIdleSeconds * 1000 } },
    errors,
  );
  router.add(mcp.route);
  const served = [...OPERATIONS];
  const context: ServerExtensionContext = {
    reverie,
    options,
    operations: host,
    addRoute: (route) => router.add(route),
    addOperation(operation) {
      router.add(operationRoute(operation, host, options.maxBodyBytes));
      served.push(operation);
    },
  };
  for (const extend of extensions) extend(context);
  const openApi = openApiDocument(served);
  router.add({ method: 'GET', path: '/openapi.json', public: true, handle: async ({ response }) => sendJson(response, 200, openApi) });

  let started!: () => void;
  let failed!: (error: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => ((started = resolve), (failed = reject)));
  ready.catch(() => undefined);
  const requestTimeout = options.requestTimeoutSeconds * 1000;
  const server = createServer(
    // Node checks the connections for the request timeout every connectionsCheckingInterval: a tenth of it, at most 5 s.
    { requestTimeout, headersTimeout: requestTimeout, connectionsCheckingInterval: Math.min(5_000, Math.max(100, requestTimeout / 10)) },
    createRequestListener(router, options, errors, ready),
  );
  server.maxConnections = options.maxConnections;
  server.on('clientError', onClientError);
  try {
    await listen(server, options.host, options.port);
  } catch (error) {
    await mcp.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const close = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await mcp.close();
    await host.close();
    server.closeAllConnections();
    await closed;
  };
  try {
    await beforeServing?.();
  } catch (error) {
    failed(error);
    await close();
    throw error;
  }
  started();
  return { url: `http://${shownHost}:${port}`, host: options.host, port, options, close };
}

/**
 * Binds the port. One that is taken, or an address this machine does not have, is INVALID_OPTIONS
 * saying what to change.
 */
function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const refuse = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          invalidOptions(
            `Port ${port} on ${host} is in use: choose another port (--port, or 0 for a free one), or stop what listens there.`,
            [{ path: 'port', message: 'in use' }],
            { cause: error },
          ),
        );
      } else if (error.code === 'EADDRNOTAVAIL') {
        reject(
          invalidOptions(
            `This machine has no address ${host} to listen on: choose another host (--host).`,
            [{ path: 'host', message: 'not an address of this machine' }],
            { cause: error },
          ),
        );
      } else reject(error);
    };
    server.once('error', refuse);
    server.listen(port, host, () => {
      server.off('error', refuse);
      resolve();
    });
  });
}
