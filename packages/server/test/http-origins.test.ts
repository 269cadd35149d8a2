import { afterEach, describe, expect, it } from 'vitest';
import { type Served, serveFresh } from './served-reverie';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describe('the HTTP API: the origin "null" (SPEC O10)', () => {
  it('refuses a request and a preflight sent with Origin: null, without CORS headers, and writes nothing', async () => {
    served = await serveFresh({ allowedOrigins: ['https://ops.example.com'] });
    const read = await served.call('/api/memory/categories', { headers: { origin: 'null' } });
    expect(read.status).toBe(403);
    expect(await read.json()).toMatchObject({ error: { code: 'ORIGIN_NOT_ALLOWED' } });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await served.call('/api/memory', {
      method: 'OPTIONS',
      headers: { origin: 'null', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const write = await served.call('/api/memory', {
      method: 'POST',
      json: { content: 'planted by a sandboxed frame' },
      headers: { origin: 'null' },
    });
    expect(write.status).toBe(403);
    expect(await served.reverie.memory!.list()).toEqual([]);
  });

  it('still serves the configured http(s) origin with its CORS headers', async () => {
    served = await serveFresh({ allowedOrigins: ['http://localhost:5173'] });
    const saved = await served.call('/api/memory', {
      method: 'POST',
      json: { content: 'Saved from the dashboard' },
      headers: { origin: 'http://localhost:5173' },
    });
    expect(saved.status).toBe(201);
    expect(saved.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });

  it('refuses to start with an origin that serialises to "null", naming it, and accepts an http one', async () => {
    await expect(serveFresh({ allowedOrigins: ['file:///home/ana/page.html'] })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringContaining('"file:///home/ana/page.html" is not an http(s) origin'),
    });
    served = await serveFresh({ allowedOrigins: ['https://ops.example.com'] });
    expect(served.server.options.allowedOrigins).toEqual(['https://ops.example.com']);
  });
});
