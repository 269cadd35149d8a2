import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createReverie } from 'reverie';
import { type Served, serveFresh } from './served-reverie';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const TOKEN = 'a-token-of-twenty-chars';

describe('the HTTP API: memory', () => {
  it('saves, reads, searches, lists by category, changes and deletes an entry', async () => {
    served = await serveFresh();
    const saved = await served.call('/api/memory', {
      method: 'POST',
      json: { content: 'The user wants answers in metric units', category: 'preferences/units', tags: ['units'] },
    });
    expect(saved.status).toBe(201);
    const entry = (await saved.json()) as { id: string; category: string; effectiveImportance: number };
    expect(entry).toMatchObject({ category: 'preferences/units', effectiveImportance: 0.5 });

    expect(await (await served.call(`/api/memory/${entry.id}`)).json()).toMatchObject({
      id: entry.id,
      content: 'The user wants answers in metric units',
    });
    const hits = (await (await served.call('/api/memory/search?query=metric%20units&limit=3')).json()) as Array<{
      entry: { id: string };
      score: number;
    }>;
    expect(hits.map((hit) => hit.entry.id)).toEqual([entry.id]);
    expect(await (await served.call('/api/memory/categories')).json()).toEqual([{ category: 'preferences/units', count: 1 }]);
    const page = (await (await served.call('/api/memory?category=preferences')).json()) as {
      total: number;
      entries: Array<{ id: string }>;
    };
    expect(page.total).toBe(1);
    expect((await (await served.call('/api/memory?category=general')).json()) as { total: number }).toMatchObject({ total: 0 });

    const changed = await served.call(`/api/memory/${entry.id}`, { method: 'POST', json: { importance: 0.9 } });
    expect(await changed.json()).toMatchObject({ id: entry.id, importance: 0.9, category: 'preferences/units', tags: ['units'] });

    expect(await (await served.call(`/api/memory/${entry.id}`, { method: 'DELETE' })).json()).toEqual({ id: entry.id, deleted: true });
    expect(await served.reverie.memory!.list()).toEqual([]);
  });

  it("searches the way the agent recalls: with withMemory({ secondHop: true }), the best hit's names are searched for too", async () => {
    served = await serveFresh({}, (dataPath) => createReverie({ dataPath }).withMemory({ secondHop: true }).build());
    await served.call('/api/memory', { method: 'POST', json: { content: 'My supervisor is Professor Ingrid Solberg.' } });
    const linked = (await (
      await served.call('/api/memory', { method: 'POST', json: { content: 'Ingrid Solberg is on sabbatical in Tasmania this year.' } })
    ).json()) as { id: string };
    for (let n = 0; n < 12; n++)
      await served.call('/api/memory', { method: 'POST', json: { content: `The supervisor meeting number ${n} went well.` } });
    const hits = (await (await served.call('/api/memory/search?query=Where%20is%20my%20supervisor%20now%3F&limit=5')).json()) as Array<{
      entry: { id: string };
    }>;
    expect(hits.map((hit) => hit.entry.id)).toContain(linked.id);
    expect(
      (await served.reverie.memory!.search({ text: 'Where is my supervisor now?', maxResults: 5 })).map((hit) => hit.entry.id),
    ).not.toContain(linked.id);
  });

  it('answers an unknown id with 404 NOT_FOUND, and an unknown route too', async () => {
    served = await serveFresh();
    const missing = await served.call('/api/memory/0123456789ab');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    const deleted = await served.call('/api/memory/0123456789ab', { method: 'DELETE' });
    expect(deleted.status).toBe(404);
    expect((await served.call('/api/nothing')).status).toBe(404);
    const wrongMethod = await served.call('/api/memory/categories', { method: 'POST' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
  });

  it.each([
    ['an empty content', { content: '' }, 'INVALID_INPUT'],
    ['a number for the content', { content: 42 }, 'INVALID_INPUT'],
    ['a category that escapes the store', { content: 'x', category: '../../etc' }, 'INVALID_CATEGORY'],
    ['an importance above 1', { content: 'x', importance: 2 }, 'INVALID_INPUT'],
  ])('refuses %s with 400 and the code, and writes nothing', async (_what, body, code) => {
    served = await serveFresh();
    const answer = await served.call('/api/memory', { method: 'POST', json: body });
    expect(answer.status).toBe(400);
    const { error } = (await answer.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe(code);
    expect(JSON.stringify(error)).not.toMatch(/\n\s+at /);
    expect(await served.reverie.memory!.list()).toEqual([]);
  });

  it('refuses a body that is not JSON, or not an object', async () => {
    served = await serveFresh();
    const notJson = await served.call('/api/memory', {
      method: 'POST',
      body: '{"content": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ error: { code: 'INVALID_INPUT' } });
    const array = await served.call('/api/memory', { method: 'POST', json: ['x'] });
    expect(array.status).toBe(400);
    expect(await served.reverie.memory!.list()).toEqual([]);
  });

  it('answers 413 PAYLOAD_TOO_LARGE to a body over the limit, and writes nothing', async () => {
    served = await serveFresh({ maxBodyBytes: 2048 });
    const answer = await served.call('/api/memory', { method: 'POST', json: { content: 'x'.repeat(4096) } });
    expect(answer.status).toBe(413);
    expect(await answer.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(await served.reverie.memory!.list()).toEqual([]);
  });

  it('answers 413 to a chunked body over the limit (no Content-Length)', async () => {
    served = await serveFresh({ maxBodyBytes: 2048 });
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(1024)));
        controller.close();
      },
    });
    const answer = await served.call('/api/memory', {
      method: 'POST',
      body: chunks,
      headers: { 'content-type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    expect(answer.status).toBe(413);
  });
});

describe('the HTTP API: read-only', () => {
  it('refuses every writing operation with 403 READ_ONLY and serves the reading ones', async () => {
    served = await serveFresh({ readOnly: true });
    await served.reverie.memory!.save({ content: 'Deploys go out on Tuesdays' });
    const [entry] = await served.reverie.memory!.list();
    const save = await served.call('/api/memory', { method: 'POST', json: { content: 'x' } });
    expect(save.status).toBe(403);
    expect(await save.json()).toMatchObject({ error: { code: 'READ_ONLY' } });
    expect((await served.call(`/api/memory/${entry!.id}`, { method: 'DELETE' })).status).toBe(403);
    expect((await served.call(`/api/memory/${entry!.id}`, { method: 'POST', json: { content: 'y' } })).status).toBe(403);
    expect((await served.call(`/api/memory/${entry!.id}`)).status).toBe(200);
    expect((await served.reverie.memory!.list()).map((e) => e.content)).toEqual(['Deploys go out on Tuesdays']);
  });
});

describe('the HTTP API: the token', () => {
  it('refuses a request without the token or with a wrong one (401), and serves the right one', async () => {
    served = await serveFresh({ token: TOKEN });
    const none = await fetch(`${served.server.url}/api/memory/categories`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(await none.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    const wrong = await fetch(`${served.server.url}/api/memory/categories`, { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    const prefix = await fetch(`${served.server.url}/api/memory/categories`, {
      headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
    });
    expect(prefix.status).toBe(401);
    const save = await fetch(`${served.server.url}/api/memory`, { method: 'POST', body: JSON.stringify({ content: 'x' }) });
    expect(save.status).toBe(401);
    expect(await served.reverie.memory!.list()).toEqual([]);
    expect((await served.call('/api/memory/categories')).status).toBe(200);
  });

  it('refuses to start on a non-loopback address without a token', async () => {
    await expect(serveFresh({ host: '0.0.0.0' })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringContaining('without a token'),
    });
  });

  it('starts on a non-loopback address with a token, and asks for it', async () => {
    served = await serveFresh({ host: '0.0.0.0', token: TOKEN });
    const url = `http://127.0.0.1:${served.server.port}/api/memory/categories`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it('validates its options', async () => {
    await expect(serveFresh({ token: 'short' })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringContaining('token'),
    });
    await expect(serveFresh({ port: 70_000 })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining('port') });
    await expect(serveFresh({ allowedOrigins: ['not a url'] })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});

describe('the HTTP API: origins', () => {
  it('refuses a cross-origin request unless the origin is allowed, and answers the allowed one with CORS headers', async () => {
    served = await serveFresh({ allowedOrigins: ['https://ops.example.com'] });
    const foreign = await served.call('/api/memory/categories', { headers: { origin: 'https://evil.example.com' } });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: { code: 'ORIGIN_NOT_ALLOWED' } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const write = await served.call('/api/memory', {
      method: 'POST',
      json: { content: 'x' },
      headers: { origin: 'https://evil.example.com' },
    });
    expect(write.status).toBe(403);
    expect(await served.reverie.memory!.list()).toEqual([]);

    const preflight = await served.call('/api/memory', {
      method: 'OPTIONS',
      headers: { origin: 'https://ops.example.com', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://ops.example.com');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization');
    const allowed = await served.call('/api/memory/categories', { headers: { origin: 'https://ops.example.com' } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://ops.example.com');
  });

  it('closes CORS by default, serves its own origin, and answers only loopback host names on loopback', async () => {
    served = await serveFresh();
    expect((await served.call('/api/memory/categories', { headers: { origin: 'http://localhost:5173' } })).status).toBe(403);
    expect((await served.call('/api/memory/categories', { headers: { origin: served.server.url } })).status).toBe(200);
    expect(await statusWithHost(served.server.port, 'attacker.example.com')).toBe(403);
    expect(await statusWithHost(served.server.port, `localhost:${served.server.port}`)).toBe(200);
  });
});

/** fetch cannot set Host: a plain node request that can (as a DNS-rebound page's would arrive). */
function statusWithHost(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path: '/api/memory/categories', headers: { host } }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('the HTTP server: extensions', () => {
  it('lets an extension add routes and serve a folder of static files, nothing outside it', async () => {
    const { mkdtemp, mkdir, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { sendJson, staticFiles } = await import('../src/index');
    const site = await mkdtemp(join(tmpdir(), 'reverie-site-'));
    await mkdir(join(site, 'assets'));
    await writeFile(join(site, 'index.html'), '<h1>inspector</h1>');
    await writeFile(join(site, 'assets', 'app.js'), 'console.log(1)');
    served = await serveFresh({
      token: TOKEN,
      extensions: [
        ({ addRoute }) => addRoute(staticFiles({ prefix: '/inspector', root: site })),
        ({ addRoute, operations }) =>
          addRoute({
            method: 'GET',
            path: '/api/inspector/count',
            handle: async ({ response }) => sendJson(response, 200, { operations: operations.operations.length }),
          }),
      ],
    });
    const page = await fetch(`${served.server.url}/inspector/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toBe('<h1>inspector</h1>');
    expect(await (await fetch(`${served.server.url}/inspector/assets/app.js`)).text()).toBe('console.log(1)');
    expect(await (await fetch(`${served.server.url}/inspector/runs/abc`)).text()).toBe('<h1>inspector</h1>');
    expect((await fetch(`${served.server.url}/inspector/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
    expect((await fetch(`${served.server.url}/inspector/%2e%2e/%2e%2e/etc/passwd`)).status).toBe(404);
    expect((await fetch(`${served.server.url}/api/inspector/count`)).status).toBe(401);
    expect(await (await served.call('/api/inspector/count')).json()).toMatchObject({ operations: expect.any(Number) });
    const { rm } = await import('node:fs/promises');
    await rm(site, { recursive: true, force: true });
  });
});

describe('the HTTP API: tiers (SPEC B13)', () => {
  it('shows each entry with its tier, searches the tiers asked for and lists one tier', async () => {
    served = await serveFresh();
    const memory = served.reverie.memory!;
    const hot = await memory.save({ content: 'The user plays the violin in an orchestra' });
    const cold = await memory.save({ content: 'The user played the violin as a child', tier: 'cold' });
    const search = async (tiers: string) =>
      (await (await served!.call(`/api/memory/search?query=violin&tiers=${tiers}`)).json()) as Array<{
        entry: { id: string; tier: string };
      }>;
    expect((await search('hot')).map((hit) => hit.entry)).toEqual([expect.objectContaining({ id: hot.id, tier: 'hot' })]);
    expect((await search('all')).map((hit) => [hit.entry.id, hit.entry.tier]).sort()).toEqual(
      [
        [hot.id, 'hot'],
        [cold.id, 'cold'],
      ].sort(),
    );
    expect((await served.call('/api/memory/search?query=violin&tiers=warm')).status).toBe(400);
    const page = (await (await served.call('/api/memory?tier=cold')).json()) as {
      total: number;
      entries: Array<{ id: string; tier: string }>;
    };
    expect(page).toMatchObject({ total: 1, entries: [{ id: cold.id, tier: 'cold' }] });
    expect(await (await served.call(`/api/memory/${cold.id}`)).json()).toMatchObject({ id: cold.id, tier: 'cold' });
  });
});
