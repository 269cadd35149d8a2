import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
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
 * MCP over streamable HTTP at `path`: an `initialize` POST opens a session (an MCP server and a
 * transport of its own, the id in the `Mcp-Session-Id` header), later requests name it. The
 * body is read here, under the server's size limit, before the transport sees it.
 */
export function mcpEndpoint(host: OperationHost, maxBodyBytes: number, report: (error: unknown) => void, path = '/mcp'): McpEndpoint {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const route: HttpRoute = {
    method: 'ANY',
    path,
    async handle({ request, response }) {
      const body = request.method === 'POST' ? await readJsonBody(request, maxBodyBytes) : undefined;
      const sessionId = request.headers['mcp-session-id'];
      if (typeof sessionId === 'string') {
        const transport = sessions.get(sessionId);
        if (transport === undefined) {
          sendJson(response, 404, jsonRpcError(`No MCP session ${sessionId}: it ended or the server restarted; initialize a new one.`));
          return;
        }
        await transport.handleRequest(request, response, body);
        return;
      }
      if (request.method !== 'POST' || !isInitializeRequest(body)) {
        sendJson(response, 400, jsonRpcError('Send an initialize request first; later requests carry its Mcp-Session-Id header.'));
        return;
      }
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, transport),
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      };
      await createMcpServer(host, report).connect(transport);
      await transport.handleRequest(request, response, body);
    },
  };
  return {
    route,
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(open.map((transport) => transport.close()));
    },
  };
}
