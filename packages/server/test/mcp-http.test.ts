import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createReverie } from 'reverie';
import { afterEach, describe, expect, it } from 'vitest';
import { dreamModel } from '../../reverie/test/__fixtures__/dream-model';
import { OPERATIONS } from '../src/index';
import { callOk, callRefused, exerciseEveryTool, expectWritesRefused } from './__fixtures__/every-tool';
import { type Served, serveFresh } from './served-reverie';

const TOKEN = 'mcp-test-token-0123456789';
let served: Served | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await served?.close();
  served = undefined;
});

const gated = (dataPath: string) =>
  createReverie({ dataPath, model: dreamModel() })
    .withMemory()
    .withWorkingMemory()
    .withSkills()
    .withConversationLog()
    .withDreaming({ gates: { minHours: 24 } })
    .build();

async function connect(token: string | undefined = TOKEN): Promise<Client> {
  const client = new Client({ name: 'reverie-test', version: '1.0.0' });
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${served!.server.url}/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

describe('MCP over streamable HTTP', () => {
  it('lists one tool per operation, with its JSON Schema and whether it only reads', async () => {
    served = await serveFresh({ token: TOKEN }, gated);
    const { tools } = await (await connect()).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(OPERATIONS.map((operation) => operation.name).sort());
    const search = tools.find((tool) => tool.name === 'search_memory')!;
    expect(search.inputSchema).toMatchObject({
      type: 'object',
      required: ['query'],
      properties: { limit: { type: 'integer', maximum: 1000 } },
    });
    expect(search.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((tool) => tool.name === 'delete_memory')!.annotations).toMatchObject({ readOnlyHint: false });
  });

  it('serves every tool and answers every refusal with its code', async () => {
    served = await serveFresh({ token: TOKEN }, gated);
    await served.reverie.skills!.save({
      name: 'howto/deploy',
      summary: 'How to deploy',
      content: 'Run the pipeline, then check the dashboard.',
    });
    const called = await exerciseEveryTool(await connect(), 'howto/deploy');
    expect([...called].sort()).toEqual(OPERATIONS.map((operation) => operation.name).sort());
  });

  it('binds working memory to each MCP session', async () => {
    served = await serveFresh({ token: TOKEN }, gated);
    const ana = await connect();
    const bob = await connect();
    const saved = await callOk<{ key: string }>(ana, 'save_to_working_memory', { key: 'draft', data: 'Dear Bob' });
    expect(await callOk(ana, 'get_from_working_memory', { key: 'draft' })).toMatchObject({ value: 'Dear Bob' });
    expect((await callRefused(bob, 'get_from_working_memory', { key: 'draft' })).code).toBe('NOT_FOUND');
    expect((await callRefused(bob, 'get_from_working_memory', { key: saved.key })).code).toBe('NAMESPACE_VIOLATION');
    expect(await callOk(bob, 'list_working_memory')).toMatchObject({ entries: [] });
  });

  it('refuses every writing tool of a read-only server with READ_ONLY and writes nothing', async () => {
    served = await serveFresh({ token: TOKEN, readOnly: true }, gated);
    const entry = await served.reverie.memory!.save({ content: 'Deploys go out on Tuesdays' });
    const writing = OPERATIONS.filter((operation) => operation.access === 'write').map((operation) => operation.name);
    expect(writing).toEqual(
      expect.arrayContaining(['save_memory', 'delete_memory', 'run_dream', 'apply_dream_plan', 'undo_dream_run', 'save_to_working_memory']),
    );
    const client = await connect();
    await expectWritesRefused(client, writing, entry.id);
    expect(await served.reverie.memory!.list()).toEqual([entry]);
    expect(await served.reverie.dreams.listRuns()).toEqual([]);
    expect(await callOk(client, 'get_memory', { id: entry.id })).toMatchObject({ content: 'Deploys go out on Tuesdays' });
  });

  it('refuses a client without the token, and an unknown session', async () => {
    served = await serveFresh({ token: TOKEN }, gated);
    await expect(connect('wrong-token-0123456789')).rejects.toThrow(/401|Unauthorized|token/i);
    const unknown = await fetch(`${served.server.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 'nope',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(unknown.status).toBe(404);
  });

  it('ends a session idle for mcpSessionIdleSeconds; one in use lives on, and its client can start another', async () => {
    served = await serveFresh({ token: TOKEN, mcpSessionIdleSeconds: 3 }, gated);
    const busy = await connect();
    const idle = await connect();
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // The busy client calls every 1.5 s, inside the idle time: its session is kept.
    for (let round = 0; round < 3; round++) {
      await pause(1_500);
      expect(await callOk(busy, 'list_memory_categories')).toBeDefined();
    }
    // By now the other session has sent nothing for over 4.5 s: it was ended.
    await expect(idle.listTools()).rejects.toThrow(/404|session/i);
    const again = await connect();
    expect(await callOk(again, 'list_memory_categories')).toBeDefined();
  }, 30_000);

  it('refuses an idle time that is not a whole number of seconds from 1', async () => {
    await expect(serveFresh({ token: TOKEN, mcpSessionIdleSeconds: 0 })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringMatching(/mcpSessionIdleSeconds/),
    });
  });
});
