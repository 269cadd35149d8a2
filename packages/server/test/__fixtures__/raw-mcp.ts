/** The JSON-RPC initialize request of an MCP client, as raw HTTP (what each new session starts with). */
export function initializeMcp(serverUrl: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${serverUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
}

/** Ends an MCP session the way a client does: DELETE /mcp with its id. */
export function deleteMcpSession(serverUrl: string, sessionId: string): Promise<Response> {
  return fetch(`${serverUrl}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } });
}
