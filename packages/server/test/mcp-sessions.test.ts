import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { callOk, callRefused } from './__fixtures__/every-tool';
import { connectMcp } from './__fixtures__/mcp-client';
import { type Served, serveFresh } from './served-reverie';

let served: Served | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  await served?.close();
  served = undefined;
});

async function connect(): Promise<Client> {
  const client = await connectMcp(served!.server.url);
  clients.push(client);
  return client;
}

/** The transport's session id: the secret the client sends as Mcp-Session-Id. */
const sessionIdOf = (client: Client) => (client.transport as StreamableHTTPClientTransport).sessionId!;
const namespaceOfKey = (key: string) => key.split('/').slice(0, 2).join('/');

type Listing = { prefix: string; entries: Array<{ key: string }> };

describe('MCP sessions keep to their own working memory (SPEC M8, O9)', () => {
  it('never lists or searches another session, and refuses to read or browse one', async () => {
    served = await serveFresh();
    const ana = await connect();
    const bob = await connect();
    const anaKey = (await callOk<{ key: string }>(ana, 'save_to_working_memory', { key: 'draft', data: 'Dear Bob, the plan is…' })).key;
    const bobKey = (await callOk<{ key: string }>(bob, 'save_to_working_memory', { key: 'notes', data: 'Ask Ana' })).key;
    await served.reverie.workingMemory!.set('patrol/nightly/findings', 'Two new invoices');

    const bobSees = await callOk<Listing>(bob, 'list_working_memory', { namespace: 'session' });
    expect(bobSees.entries.map((entry) => entry.key)).toEqual([bobKey]);
    const bobFinds = await callOk<Array<{ key: string }>>(bob, 'search_working_memory', { namespace: 'session' });
    expect(bobFinds.map((entry) => entry.key)).toEqual([bobKey]);
    expect(JSON.stringify([bobSees, bobFinds])).not.toContain(namespaceOfKey(anaKey));
    expect((await callRefused(bob, 'list_working_memory', { namespace: namespaceOfKey(anaKey) })).code).toBe('NAMESPACE_VIOLATION');
    expect((await callRefused(bob, 'search_working_memory', { namespace: `${namespaceOfKey(anaKey)}/` })).code).toBe('NAMESPACE_VIOLATION');
    expect((await callRefused(bob, 'get_from_working_memory', { key: anaKey })).code).toBe('NAMESPACE_VIOLATION');
    expect((await callRefused(bob, 'save_to_working_memory', { key: anaKey, data: 'forged' })).code).toBe('NAMESPACE_VIOLATION');

    // Its own session, and the shared namespaces, work as before.
    expect((await callOk<Listing>(ana, 'list_working_memory', { namespace: 'session' })).entries.map((entry) => entry.key)).toEqual([
      anaKey,
    ]);
    expect(await callOk(ana, 'get_from_working_memory', { key: anaKey })).toMatchObject({ value: 'Dear Bob, the plan is…' });
    expect(await callOk(bob, 'get_from_working_memory', { key: 'patrol/nightly/findings' })).toMatchObject({ value: 'Two new invoices' });
    expect((await callOk<Listing>(bob, 'list_working_memory', { namespace: 'patrol' })).entries).toHaveLength(1);
    expect((await served.reverie.workingMemory!.get(anaKey))!.value).toBe('Dear Bob, the plan is…');
  });

  it("names a session's working memory apart from its session id, which is 256 random bits and in no answer", async () => {
    served = await serveFresh();
    const ana = await connect();
    const bob = await connect();
    const key = (await callOk<{ key: string }>(ana, 'save_to_working_memory', { key: 'draft', data: 'x' })).key;
    expect(key).toMatch(/^session\/mcp-[0-9a-f]{32}\/draft$/);
    for (const id of [sessionIdOf(ana), sessionIdOf(bob)]) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(key).not.toContain(id);
    }
    expect(sessionIdOf(ana)).not.toBe(sessionIdOf(bob));
  });

  it('keeps HTTP callers out of MCP sessions: an mcp- session name is refused, an MCP session id is just another HTTP name', async () => {
    served = await serveFresh();
    const ana = await connect();
    const anaKey = (await callOk<{ key: string }>(ana, 'save_to_working_memory', { key: 'draft', data: 'mine' })).key;
    const anaName = anaKey.split('/')[1]!;
    for (const name of [anaName, anaName.toUpperCase()]) {
      const taken = await served.call('/api/working-memory', {
        method: 'POST',
        json: { key: 'draft', data: 'forged' },
        headers: { 'x-reverie-session': name },
      });
      expect(taken.status).toBe(400);
      expect(await taken.json()).toMatchObject({
        error: { code: 'INVALID_INPUT', message: expect.stringContaining('belong to MCP sessions') },
      });
    }
    const byId = await served.call('/api/working-memory', {
      method: 'POST',
      json: { key: 'draft', data: 'forged' },
      headers: { 'x-reverie-session': sessionIdOf(ana) },
    });
    expect(byId.status).toBe(200);
    expect(((await byId.json()) as { key: string }).key).toBe(`session/${sessionIdOf(ana)}/draft`);
    expect(await callOk(ana, 'get_from_working_memory', { key: 'draft' })).toMatchObject({ value: 'mine' });
    // An HTTP session lists its own, never an MCP session's.
    const listed = (await (
      await served.call('/api/working-memory?namespace=session', { headers: { 'x-reverie-session': 'worker-1' } })
    ).json()) as Listing;
    expect(listed.entries).toEqual([]);
    expect(
      (await served.call('/api/working-memory?namespace=session', { headers: { 'x-reverie-session': sessionIdOf(ana) } })).status,
    ).toBe(200);
  });

  it('ends a session only for the holder of its id: a guessed one is 404 and echoes nothing', async () => {
    served = await serveFresh();
    const ana = await connect();
    const guessed = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const refused = await fetch(`${served.server.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': guessed } });
    expect(refused.status).toBe(404);
    expect(await refused.text()).not.toContain(guessed);
    expect(await callOk(ana, 'list_memory_categories')).toEqual([]);

    const ended = await fetch(`${served.server.url}/mcp`, {
      method: 'DELETE',
      headers: { 'mcp-session-id': sessionIdOf(ana), 'mcp-protocol-version': '2025-06-18' },
    });
    expect(ended.status).toBe(200);
    await expect(ana.listTools()).rejects.toThrow(/404|session/i);
  });
});
