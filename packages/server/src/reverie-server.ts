import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Reverie } from 'reverie';
import type { HttpRoute } from './http/http-route';
import { openApiDocument } from './http/openapi-document';
import { operationRoute } from './http/operation-routes';
import { onClientError } from './http/client-error-listener';
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
  /** Told about failures the answers do not show (INTERNAL errors, background work); default: stderr. */
  onError?: (error: unknown) => void;
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
export async function startReverieServer({ reverie, extensions = [], onError = reportToStderr, ...input }: StartServerOptions): Promise<ReverieServer> {
  const options = parseServerOptions(input);
  const host = new OperationHost(reverie, OPERATIONS, options.readOnly, onError);
  const router = new Router();
  for (const operation of OPERATIONS) router.add(operationRoute(operation, host, options.maxBodyBytes));
  const mcp = mcpEndpoint(host, { maxBodyBytes: options.maxBodyBytes, maxSessions: options.maxMcpSessions, expiry: { idleMs: options.mcpSessionIdleSeconds * 1000 } }, onError);
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

  const requestTimeout = options.requestTimeoutSeconds * 1000;
  const server = createServer(
    // Node checks the connections for the request timeout every connectionsCheckingInterval: a tenth of it, at most 5 s.
    { requestTimeout, headersTimeout: requestTimeout, connectionsCheckingInterval: Math.min(5_000, Math.max(100, requestTimeout / 10)) },
    createRequestListener(router, options, onError),
  );
  server.maxConnections = options.maxConnections;
  server.on('clientError', onClientError);
  await listen(server, options.host, options.port);
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}`,
    host: options.host,
    port,
    options,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await mcp.close();
      await host.close();
      server.closeAllConnections();
      await closed;
    },
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
