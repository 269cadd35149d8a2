import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReverie, type Reverie } from 'reverie';
import { afterEach, describe, expect, it } from 'vitest';
import { type ReverieServer, startReverieServer } from '../src/index';

/** User text that names what every plain object inherits: it must be stored and read back as text. */
const CONTENT = 'The constructor of the boat is Ana, who also wrote the __proto__ notes and the toString manual';
const TAGS = ['constructor', '__proto__', 'hasOwnProperty'];

let dataPath: string;
const running: Array<{ reverie: Reverie; server: ReverieServer }> = [];
afterEach(async () => {
  for (const { reverie, server } of running.splice(0)) {
    await server.close();
    await reverie.close();
  }
  await rm(dataPath, { recursive: true, force: true });
});

async function serve(): Promise<ReverieServer> {
  const reverie = createReverie({ dataPath }).withMemory().withWorkingMemory().withSkills().build();
  const server = await startReverieServer({ reverie, port: 0, onError: () => undefined });
  running.push({ reverie, server });
  return server;
}

async function stop(): Promise<void> {
  const { reverie, server } = running.pop()!;
  await server.close();
  await reverie.close();
}

const post = (url: string, body: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('inherited property names are data (SPEC O10)', () => {
  it('saves "constructor" and "__proto__" in content, category and tags, and reads them back after a restart', async () => {
    dataPath = await mkdtemp(join(tmpdir(), 'reverie-server-names-'));
    const first = await serve();
    const saved = await post(
      `${first.url}/api/memory`,
      JSON.stringify({ content: CONTENT, category: 'constructor/prototype', tags: TAGS }),
    );
    expect(saved.status).toBe(201);
    const { id } = (await saved.json()) as { id: string };
    const other = await post(`${first.url}/api/memory`, JSON.stringify({ content: 'constructor', tags: ['__proto__'] }));
    expect(other.status).toBe(201);
    await stop();

    const second = await serve();
    const got = await fetch(`${second.url}/api/memory/${id}`);
    expect(got.status).toBe(200);
    expect(await got.json()).toMatchObject({ id, content: CONTENT, category: 'constructor/prototype', tags: TAGS });
    const hits = (await (await fetch(`${second.url}/api/memory/search?query=constructor&limit=5`)).json()) as Array<{
      entry: { id: string };
    }>;
    expect(hits.map((hit) => hit.entry.id)).toContain(id);
    const tagged = (await (await fetch(`${second.url}/api/memory/search?query=boat&tags=__proto__`)).json()) as Array<{
      entry: { id: string };
    }>;
    expect(tagged.map((hit) => hit.entry.id)).toEqual([id]);
    expect(await (await fetch(`${second.url}/api/memory/categories`)).json()).toEqual(
      expect.arrayContaining([{ category: 'constructor/prototype', count: 1 }]),
    );
  });

  it('refuses "__proto__" and "constructor" as input fields, and pollutes nothing', async () => {
    dataPath = await mkdtemp(join(tmpdir(), 'reverie-server-names-'));
    const server = await serve();
    for (const body of [
      '{"content": "x", "__proto__": {"polluted": true}}',
      '{"content": "x", "constructor": {"prototype": {"polluted": true}}}',
    ]) {
      const answer = await post(`${server.url}/api/memory`, body);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({
        error: { code: 'INVALID_INPUT', message: expect.stringMatching(/(__proto__|constructor): unknown field/) },
      });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await fetch(`${server.url}/api/memory/search?query=x&constructor=1`)).status).toBe(400);
    expect(await (await fetch(`${server.url}/api/memory`)).json()).toMatchObject({ total: 0 });
  });

  it('keeps working memory under a session and a key named after inherited properties', async () => {
    dataPath = await mkdtemp(join(tmpdir(), 'reverie-server-names-'));
    const server = await serve();
    const headers = { 'content-type': 'application/json', 'x-reverie-session': '__proto__' };
    const saved = await fetch(`${server.url}/api/working-memory`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ key: 'constructor', data: 'toString' }),
    });
    expect(await saved.json()).toMatchObject({ key: 'session/__proto__/constructor' });
    const read = await fetch(`${server.url}/api/working-memory/entry?key=constructor`, { headers });
    expect(await read.json()).toMatchObject({ key: 'session/__proto__/constructor', value: 'toString' });
  });
});
