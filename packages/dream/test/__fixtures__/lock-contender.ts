// Child process for the lock test: says "ready", waits for "go" on stdin, tries to take the
// dream lock of a data directory, prints "acquired" or "held <code>", keeps the lock until its
// stdin closes, then releases it and exits.
import { createInterface } from 'node:readline';
import { isReverieError, systemClock } from '@reverie/core';
import { DreamLock } from '@reverie/file-store/internal';

const [dataPath, label] = process.argv.slice(2);
if (!dataPath || !label) {
  console.error('usage: lock-contender <dataPath> <label>');
  process.exit(2);
}
const lock = new DreamLock({ dataPath, clock: systemClock });
const input = createInterface({ input: process.stdin });
const closed = new Promise<void>((resolve) => input.once('close', resolve));
const go = new Promise<void>((resolve) => input.on('line', (line) => line === 'go' && resolve()));
process.stdout.write('ready\n');
await go;
try {
  const handle = await lock.acquire(label);
  process.stdout.write('acquired\n');
  await closed;
  await handle.release();
} catch (error) {
  process.stdout.write(`held ${isReverieError(error) ? error.code : String(error)}\n`);
  await closed;
}
