import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { callOk, callRefused } from './__fixtures__/every-tool';
import { connectMcp } from './__fixtures__/mcp-client';
import { type Served, serveFresh } from './served-reverie';

let served: Served | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  await served?.close();
  served = undefined;
});

type ErrorBody = { error: { code: string; message: string; details?: { issues: Array<{ path: string; message: string }> } } };

describe('unknown fields are refused, on HTTP and MCP alike (SPEC O10)', () => {
  it('refuses a body field the operation does not take, naming it, and saves nothing', async () => {
    served = await serveFresh();
    const answer = await served.call('/api/memory', { method: 'POST', json: { content: 'The user sails a small boat', tag: ['boat'] } });
    expect(answer.status).toBe(400);
    const { error } = (await answer.json()) as ErrorBody;
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain('tag: unknown field (it takes content, category, tags, importance)');
    expect(error.details!.issues).toEqual([{ path: 'tag', message: expect.stringContaining('unknown field') }]);
    expect(await served.reverie.memory!.list()).toEqual([]);
  });

  it('saves the same body with the known field', async () => {
    served = await serveFresh();
    const answer = await served.call('/api/memory', { method: 'POST', json: { content: 'The user sails a small boat', tags: ['boat'] } });
    expect(answer.status).toBe(201);
    expect((await served.reverie.memory!.list()).map((entry) => entry.tags)).toEqual([['boat']]);
  });

  it('refuses an unknown query parameter and serves the known ones', async () => {
    served = await serveFresh();
    await served.call('/api/memory', { method: 'POST', json: { content: 'The user sails a small boat', tags: ['boat'] } });
    const unknown = await served.call('/api/memory/search?query=boat&tag=boat');
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as ErrorBody).error.message).toContain('tag: unknown field');
    const known = await served.call('/api/memory/search?query=boat&tags=boat&limit=3');
    expect(known.status).toBe(200);
    expect(await known.json()).toHaveLength(1);
  });

  it('refuses an unknown tool argument over MCP, and takes the known ones', async () => {
    served = await serveFresh();
    client = await connectMcp(served.server.url);
    const refused = await callRefused(client, 'save_memory', { content: 'The user sails a small boat', tag: ['boat'] });
    expect(refused).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('tag: unknown field') });
    expect(await served.reverie.memory!.list()).toEqual([]);
    expect(await callOk(client, 'save_memory', { content: 'The user sails a small boat', tags: ['boat'] })).toMatchObject({
      tags: ['boat'],
    });
  });

  it('says so in the schemas it publishes: additionalProperties is false', async () => {
    served = await serveFresh();
    const openApi = (await (await served.call('/openapi.json')).json()) as {
      paths: Record<string, { post?: { requestBody: { content: { 'application/json': { schema: unknown } } } } }>;
    };
    expect(openApi.paths['/api/memory']!.post!.requestBody.content['application/json'].schema).toMatchObject({
      additionalProperties: false,
    });
    client = await connectMcp(served.server.url);
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'save_memory')!.inputSchema).toMatchObject({ additionalProperties: false });
  });
});
