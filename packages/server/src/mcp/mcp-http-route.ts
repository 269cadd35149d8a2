import { randomBytes } from 'node:crypto';
import { ReverieError } from '@reverie/core';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ErrorPolicy } from '../http/error-response';
import type { HttpRoute } from '../http/http-route';
import { readJsonBody } from '../http/read-body';
import { sendJson } from '../http/send';
import type { OperationHost } from '../operations/operation-host';
import { createMcpServer } from './create-mcp-server';

/** The MCP endpoint of the HTTP server, and a way to end its sessions when the server stops. */
export interface McpEndpoint {
  route: HttpRoute;
  close(): Promise<void>;
}

const jsonRpcError = (message: string) => ({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });

/**
 * A session id: 256 random bits. It is what authenticates a session's requests (with the token),
 * so it must not be guessable; it is sent to the session's own client only, in `Mcp-Session-Id`.
 */
const newSessionId = () => randomBytes(32).toString('base64url');

/** How the endpoint ends idle sessions; `now` and `sweepEveryMs` are for tests. */
export interface McpSessionExpiry {
  /** A session that sends nothing for this long is ended. */
  idleMs: number;
  now?: () => number;
  /** How often idle sessions are looked for (default: a tenth of `idleMs`, between 1 s and 1 min). */
  sweepEveryMs?: number;
}

export interface McpEndpointOptions {
  /** The largest request body read (PAYLOAD_TOO_LARGE beyond). */
  maxBodyBytes: number;
  /** The most sessions open at once; one more `initialize` is refused (TOO_MANY_SESSIONS). */
  maxSessions: number;
  expiry: McpSessionExpiry;
  path?: string;
}

/**
 * MCP over streamable HTTP at `path`: an `initialize` POST opens a session (an MCP server and a
 * transport of its own, the id in the `Mcp-Session-Id` header), later requests name it. The
 * body is read here, under the server's size limit, before the transport sees it. At most
 * `maxSessions` are open: one more `initialize` is answered 503 TOO_MANY_SESSIONS (with
 * `Retry-After`) until one ends. A session idle for `expiry.idleMs` is ended, so clients that
 * leave without ending theirs hold nothing for long; an ended session (`DELETE`, idle, closed)
 * leaves the map and nothing else refers to it. Its id is then answered like any unknown one
 * (404: initialize a new one), without echoing it.
 */
export function mcpEndpoint(
  host: OperationHost,
  { maxBodyBytes, maxSessions, expiry, path = '/mcp' }: McpEndpointOptions,
  errors: ErrorPolicy,
): McpEndpoint {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; lastUsed: number }>();
  /** Sessions being initialized: counted against the limit before they are in the map. */
  let opening = 0;
  const now = expiry.now ?? Date.now;
  const sweepEveryMs = expiry.sweepEveryMs ?? Math.min(60_000, Math.max(1_000, expiry.idleMs / 10));
  const end = (id: string) => {
    const session = sessions.get(id);
    sessions.delete(id);
    if (session) session.transport.close().catch(errors.report);
  };
  const sweep = setInterval(() => {
    const idleSince = now() - expiry.idleMs;
    for (const [id, session] of sessions) if (session.lastUsed <= idleSince) end(id);
  }, sweepEveryMs);
  sweep.unref();
  const route: HttpRoute = {
    method: 'ANY',
    path,
    async handle({ request, response }) {
      const body = request.method === 'POST' ? await readJsonBody(request, maxBodyBytes) : undefined;
      const sessionId = request.headers['mcp-session-id'];
      if (typeof sessionId === 'string') {
        const session = sessions.get(sessionId);
        if (session === undefined) {
          sendJson(
            response,
            404,
            jsonRpcError('No such MCP session: it ended, was idle too long, or the server restarted; initialize a new one.'),
          );
          return;
        }
        session.lastUsed = now();
        await session.transport.handleRequest(request, response, body);
        return;
      }
      if (request.method !== 'POST' || !isInitializeRequest(body)) {
        sendJson(response, 400, jsonRpcError('Send an initialize request first; later requests carry its Mcp-Session-Id header.'));
        return;
      }
      if (sessions.size + opening >= maxSessions) {
        response.setHeader('Retry-After', String(Math.ceil(sweepEveryMs / 1000)));
        throw new ReverieError(
          'TOO_MANY_SESSIONS',
          `The server holds its most MCP sessions (${maxSessions}): end one you no longer use (DELETE /mcp with its Mcp-Session-Id), wait for an idle one to expire, or start the server with a higher maxMcpSessions (--max-mcp-sessions).`,
          { details: { limit: maxSessions } },
        );
      }
      opening++;
      try {
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: newSessionId,
          onsessioninitialized: (id) => void sessions.set(id, { transport, lastUsed: now() }),
        });
        transport.onclose = () => {
          if (transport.sessionId !== undefined && sessions.get(transport.sessionId)?.transport === transport)
            sessions.delete(transport.sessionId);
        };
        await createMcpServer(host, errors).connect(transport);
        await transport.handleRequest(request, response, body);
      } finally {
        opening--;
      }
    },
  };
  return {
    route,
    async close() {
      clearInterval(sweep);
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(open.map(({ transport }) => transport.close()));
    },
  };
}
