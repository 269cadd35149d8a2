import { mkdirSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectOneLineError, runReverie, tempDir } from './__fixtures__/run-reverie';

let dir: ReturnType<typeof tempDir>;
let blocker: Server | undefined;
beforeEach(() => {
  dir = tempDir();
  mkdirSync(dir.dataPath);
});
afterEach(async () => {
  await new Promise((resolve) => (blocker ? blocker.close(resolve) : resolve(undefined)));
  blocker = undefined;
  dir.remove();
});

/** A port something else already listens on. */
async function takenPort(): Promise<number> {
  blocker = createServer();
  await new Promise<void>((resolve) => blocker!.listen(0, '127.0.0.1', resolve));
  return (blocker.address() as { port: number }).port;
}

describe('reverie serve: a refused start writes nothing', () => {
  it('refuses bad server options before it touches the data directory (exit 2)', async () => {
    expectOneLineError(await runReverie(['serve', '--host', '0.0.0.0', '--data', dir.dataPath]), 2, /without a token/);
    expectOneLineError(
      await runReverie(['serve', '--allow-origin', 'file:///home/ana/page.html', '--data', dir.dataPath]),
      2,
      /"file:\/\/\/home\/ana\/page\.html" is not an http\(s\) origin/,
    );
    expectOneLineError(await runReverie(['serve', '--token', 'short', '--data', dir.dataPath]), 2, /16 characters/);
    expect(readdirSync(dir.dataPath)).toEqual([]);
  });

  it('writes nothing when its port is taken', async () => {
    const port = await takenPort();
    const result = await runReverie(['serve', '--port', String(port), '--data', dir.dataPath]);
    expectOneLineError(result, 2, new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is in use: choose another port`));
    expect(readdirSync(dir.dataPath)).toEqual([]);
  });
});
