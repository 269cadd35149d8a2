import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { deleteMcpSession, initializeMcp } from './__fixtures__/raw-mcp';
import { type Served, serveFresh } from './served-reverie';

let served: Served | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await served?.close();
  served = undefined;
});

/** A raw TCP connection to the server, resolved once connected. */
function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
    sockets.push(socket);
  });
}

/** What the server wrote on `socket` until it closed it. */
function readUntilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => resolve(text));
    socket.on('error', () => undefined);
  });
}

describe("the server's limits", () => {
  it('answers 503 TOO_MANY_SESSIONS to one initialize beyond maxMcpSessions, and takes one again once a session ended', async () => {
    served = await serveFresh({ maxMcpSessions: 2 });
    const first = await initializeMcp(served.server.url);
    const second = await initializeMcp(served.server.url);
    expect([first.status, second.status]).toEqual([200, 200]);
    await Promise.all([first.text(), second.text()]);
    const third = await initializeMcp(served.server.url);
    expect(third.status).toBe(503);
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await third.json()).toMatchObject({
      error: { code: 'TOO_MANY_SESSIONS', message: expect.stringContaining('maxMcpSessions'), details: { limit: 2 } },
    });

    expect((await deleteMcpSession(served.server.url, first.headers.get('mcp-session-id')!)).status).toBe(200);
    const again = await initializeMcp(served.server.url);
    expect(again.status).toBe(200);
    expect(again.headers.get('mcp-session-id')).toBeTruthy();
  });

  it('answers 408 REQUEST_TIMEOUT to a body that drips past requestTimeoutSeconds, closes it, and saves nothing', async () => {
    served = await serveFresh({ requestTimeoutSeconds: 1 });
    const socket = await openSocket(served.server.port);
    const answered = readUntilClosed(socket);
    socket.write(
      `POST /api/memory HTTP/1.1\r\nHost: 127.0.0.1:${served.server.port}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"content": "`,
    );
    const drip = setInterval(() => socket.writable && socket.write('x'), 100);
    const text = await answered;
    clearInterval(drip);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: { code: 'REQUEST_TIMEOUT' } });
    expect(await served.reverie.memory!.list()).toEqual([]);
    // A request sent whole is served as before.
    expect((await served.call('/api/memory', { method: 'POST', json: { content: 'Sent at once' } })).status).toBe(201);
  });

  it('answers 408 to headers that drip past requestTimeoutSeconds', async () => {
    served = await serveFresh({ requestTimeoutSeconds: 1 });
    const socket = await openSocket(served.server.port);
    const answered = readUntilClosed(socket);
    socket.write('GET /api/memory/categories HTTP/1.1\r\n');
    const drip = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 100);
    const text = await answered;
    clearInterval(drip);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection beyond maxConnections at once, and serves again once one closed', async () => {
    served = await serveFresh({ maxConnections: 2 });
    const held = [await openSocket(served.server.port), await openSocket(served.server.port)];
    const extra = await openSocket(served.server.port);
    expect(await readUntilClosed(extra)).toBe('');
    held[0]!.destroy();
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      status = await fetch(`${served.server.url}/api/memory/categories`, { headers: { connection: 'close' } }).then(
        (answer) => answer.status,
        () => 0,
      );
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe(200);
  });
});
