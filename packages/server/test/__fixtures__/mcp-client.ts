import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** An MCP client of the SDK connected to `<serverUrl>/mcp` (with the token when given); close it after use. */
export async function connectMcp(serverUrl: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'reverie-test', version: '1.0.0' });
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${serverUrl}/mcp`), { requestInit: { headers } }));
  return client;
}
