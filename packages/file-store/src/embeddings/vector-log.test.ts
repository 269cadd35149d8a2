import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeRecord, VectorLog } from './vector-log';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reverie-vector-log-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const vector = (id: string, seed: number, dims = 5) => ({
  id,
  hash: `h-${id}-${seed}`,
  modelId: 'm',
  vector: Float32Array.from({ length: dims }, (_, i) => seed + i / 10),
});

describe('VectorLog (SPEC M4)', () => {
  it('reads back every batch appended, in order, and gives one write per group of appends', async () => {
    const log = new VectorLog(join(dir, 'sub', '.vectors.log'));
    await Promise.all([log.append([vector('a', 1), vector('b', 2)]), log.append([vector('a', 3)]), log.append([])]);
    expect(log.read()).toEqual([vector('a', 1), vector('b', 2), vector('a', 3)]);
  });

  it('skips a torn record (a process killed mid-append) and reads the whole ones after it', async () => {
    const path = join(dir, '.vectors.log');
    const log = new VectorLog(path);
    await log.append([vector('a', 1)]);
    const torn = encodeRecord(vector('b', 2));
    appendFileSync(path, torn.subarray(0, torn.length - 7));
    await log.append([vector('c', 3, 3)]);
    expect(log.read()).toEqual([vector('a', 1), vector('c', 3, 3)]);
    // A record whose bytes changed is refused by its checksum.
    const bytes = readFileSync(path);
    bytes[bytes.length - 2] = bytes[bytes.length - 2]! ^ 0xff;
    writeFileSync(path, bytes);
    expect(log.read().map((record) => record.id)).toEqual(['a']);
  });

  it('is emptied whole by reset, and absent reads as empty', async () => {
    const log = new VectorLog(join(dir, '.vectors.log'));
    expect(log.read()).toEqual([]);
    await log.append([vector('a', 1)]);
    await log.reset();
    expect(log.read()).toEqual([]);
    await log.append([vector('b', 2)]);
    expect(log.read()).toEqual([vector('b', 2)]);
  });
});
