import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { deleteMcpSession, initializeMcp } from './__fixtures__/raw-mcp';
import { type Served, serveFresh } from './served-reverie';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The heap in use after two full collections, in bytes. */
function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describe('MCP sessions give their memory back', () => {
  it('holds about nothing once 200 sessions were ended with DELETE, time after time', async () => {
    served = await serveFresh({ maxMcpSessions: 200 });
    const open = async () => {
      const ids: string[] = [];
      for (let n = 0; n < 200; n++) {
        const answer = await initializeMcp(served!.server.url);
        expect(answer.status).toBe(200);
        await answer.text();
        ids.push(answer.headers.get('mcp-session-id')!);
      }
      return ids;
    };
    const end = async (ids: string[]) => {
      for (const id of ids) expect((await deleteMcpSession(served!.server.url, id)).status).toBe(200);
    };
    // A first round warms what every request leaves behind (the HTTP client's pools, compiled code).
    await end(await open());
    const before = heapAfterGc();
    const ids = await open();
    const held = heapAfterGc() - before;
    await end(ids);
    const left = heapAfterGc() - before;
    // 200 open sessions hold megabytes; ended, they hold less than a tenth of that.
    expect(held).toBeGreaterThan(2_000_000);
    expect(left).toBeLessThan(held / 10);
  });
});
