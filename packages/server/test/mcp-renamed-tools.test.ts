import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { RENAMED_TOOLS } from '../src/mcp/renamed-tools';
import { OPERATIONS } from '../src/index';
import { callOk, callRefused } from './__fixtures__/every-tool';
import { type Served, serveFresh } from './served-reverie';

let served: Served | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  await served?.close();
  served = undefined;
});

async function connect(): Promise<Client> {
  served = await serveFresh();
  client = new Client({ name: 'reverie-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${served.server.url}/mcp`)));
  return client;
}

describe('MCP tools renamed to the agent tools’ names', () => {
  it('takes the agent tools’ names for the operations they share, and verb-first names for the rest', () => {
    const names = OPERATIONS.map((operation) => operation.name);
    expect(names).toEqual(
      expect.arrayContaining(['save_memory', 'search_memory', 'delete_memory', 'list_memory_categories', 'forget_memory']),
    );
    expect(names).toEqual(
      expect.arrayContaining(['save_to_working_memory', 'get_from_working_memory', 'list_working_memory', 'search_working_memory']),
    );
    for (const name of names)
      expect(name, name).toMatch(/^(save|update|get|delete|search|list|run|trigger|plan|apply|show|undo|check|forget)_/);
    // Every old name points at a tool that exists, and none is still served under it.
    for (const [old, renamed] of RENAMED_TOOLS) {
      expect(names, renamed).toContain(renamed);
      expect(names, old).not.toContain(old);
    }
  });

  it('refuses a call by an old name with an error naming the new one, and does not list the old names', async () => {
    const mcp = await connect();
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name).filter((name) => RENAMED_TOOLS.has(name))).toEqual([]);

    const refused = await callRefused(mcp, 'memory_save', { content: 'The user prefers metric units' });
    expect(refused.code).toBe('UNKNOWN_TOOL');
    expect(refused.message).toContain('save_memory');
    expect(refused.details).toEqual({ tool: 'memory_save', renamedTo: 'save_memory' });
    // Nothing was saved under the old name; the new one works.
    expect(await callOk(mcp, 'list_memory')).toMatchObject({ total: 0 });
    await callOk(mcp, 'save_memory', { content: 'The user prefers metric units' });
    expect(await callOk(mcp, 'list_memory')).toMatchObject({ total: 1 });

    for (const [old, renamed] of RENAMED_TOOLS) {
      const error = await callRefused(mcp, old);
      expect(error.code, old).toBe('UNKNOWN_TOOL');
      expect(error.message, old).toContain(renamed);
    }
  });
});
