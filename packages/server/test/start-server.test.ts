import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type Served, serveFresh } from './served-reverie';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** Whether a port on loopback can be bound again. */
function portIsFree(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

describe('startReverieServer: beforeServing', () => {
  it('answers nothing before its start work is done', async () => {
    const order: string[] = [];
    let port = 0;
    served = await serveFresh({
      beforeServing: async () => {
        // The port is bound: a request sent now waits for the start work.
        const early = fetch(`http://127.0.0.1:${port}/api/memory/categories`).then((answer) => order.push(`answered ${answer.status}`));
        await new Promise((resolve) => setTimeout(resolve, 100));
        order.push('started');
        void early;
      },
      port: (port = await freePort()),
    });
    for (let wait = 0; wait < 50 && order.length < 2; wait++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual(['started', 'answered 200']);
  });

  it('fails the start with the error of its start work, and frees the port', async () => {
    const port = await freePort();
    await expect(serveFresh({ port, beforeServing: () => Promise.reject(new Error('recovery failed')) })).rejects.toThrow(
      'recovery failed',
    );
    expect(await portIsFree(port)).toBe(true);
  });

  it('refuses a port in use with INVALID_OPTIONS saying what to do', async () => {
    served = await serveFresh();
    await expect(serveFresh({ port: served.server.port })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringContaining('is in use: choose another port'),
    });
  });
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
