import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConsolidationCursorFile } from './consolidation-cursor-file';
import { FINGERPRINT_RECORD_BYTES, type FingerprintChange } from '@reverie/dream-state';

const PASS = 'memory-consolidation';
const FP = 'AAAAAAAAAAAA';
const idOf = (n: number) => n.toString(16).padStart(12, '0');
const puts = (from: number, to: number): FingerprintChange[] => Array.from({ length: to - from }, (_, k) => [idOf(from + k), FP]);

describe('ConsolidationCursorFile', () => {
  let dataPath: string;
  let dir: string;
  const file = () => new ConsolidationCursorFile(dataPath, PASS);
  const small = async () =>
    JSON.parse(await readFile(join(dir, `${PASS}.json`), 'utf8')) as {
      feed?: string;
      seen?: unknown;
      seenFiles?: { generation: string; log: number };
    };
  const seenFiles = async () => (await readdir(dir)).filter((name) => name.startsWith(`${PASS}.seen.`)).sort();
  /** One run's commit: read, advance the feed, record `changes`. */
  const commit = async (feed: string, changes: FingerprintChange[], live?: Set<string>) => {
    const before = await file().read();
    await file().write({ ...before, feed }, before, { changes, ...(live ? { live } : {}) });
  };

  beforeEach(async () => {
    dataPath = await mkdtemp(join(tmpdir(), 'reverie-cursor-'));
    dir = join(dataPath, '_system', 'dreams', 'cursors');
    await mkdir(dir, { recursive: true });
  });
  afterEach(async () => {
    await rm(dataPath, { recursive: true, force: true });
  });

  it('reads seen from a cursor written before the split and from seen.json, and moves it to a sorted file at the next write', async () => {
    await writeFile(join(dir, `${PASS}.json`), JSON.stringify({ version: 1, feed: 'e.1', seen: { [idOf(1)]: FP } }));
    expect((await file().read()).seen.get(idOf(1))).toBe(FP);
    await writeFile(join(dir, `${PASS}.seen.json`), JSON.stringify({ [idOf(2)]: FP, [idOf(3)]: 'not a fingerprint' }));
    const legacy = await file().read();
    expect([legacy.seen.get(idOf(1)), legacy.seen.get(idOf(2)), legacy.seen.get(idOf(3))]).toEqual([undefined, FP, undefined]);

    await file().write(legacy, legacy);
    const written = await small();
    expect(written.seen).toBeUndefined();
    expect(await seenFiles()).toEqual([`${PASS}.seen.${written.seenFiles!.generation}.sorted`]);
    const read = await file().read();
    expect([read.feed, read.seen.get(idOf(2))]).toEqual(['e.1', FP]);
  });

  it("appends a run's fingerprints to the log and leaves the sorted file alone", async () => {
    await commit('e.1', puts(0, 5000));
    const { generation } = (await small()).seenFiles!;
    const sorted = join(dir, `${PASS}.seen.${generation}.sorted`);
    const before = await stat(sorted);
    await commit('e.2', [...puts(5000, 5010), [idOf(3), null]]);
    expect(await small()).toMatchObject({ feed: 'e.2', seenFiles: { generation, log: 11 * FINGERPRINT_RECORD_BYTES } });
    expect((await stat(sorted)).mtimeMs).toBe(before.mtimeMs);
    const read = await file().read();
    expect([read.seen.get(idOf(2)), read.seen.get(idOf(3)), read.seen.get(idOf(5009))]).toEqual([FP, undefined, FP]);
  });

  it('ignores log records the small part does not count (a crash before it was written) and cuts them off at the next write', async () => {
    await commit('e.1', puts(0, 5000));
    await commit('e.2', puts(5000, 5001));
    const { generation, log } = (await small()).seenFiles!;
    const logFile = join(dir, `${PASS}.seen.${generation}.log`);
    // A run appended its fingerprints, then the process died before the small part was written.
    await writeFile(logFile, Buffer.concat([await readFile(logFile), Buffer.from(`${idOf(7000)}${FP}\n${idOf(7001)}`)]));
    expect((await file().read()).seen.get(idOf(7000))).toBeUndefined();

    await commit('e.3', puts(8000, 8001));
    expect((await readFile(logFile)).length).toBe(log + FINGERPRINT_RECORD_BYTES);
    const read = await file().read();
    expect([read.feed, read.seen.get(idOf(7000)), read.seen.get(idOf(8000))]).toEqual(['e.3', undefined, FP]);
  });

  it('folds the log into a new generation once it outgrows its share of the sorted file, and removes the old one', async () => {
    await commit('e.1', puts(0, 100));
    const first = (await small()).seenFiles!.generation;
    await commit('e.2', puts(100, 5000));
    const second = (await small()).seenFiles!;
    expect(second.generation).not.toBe(first);
    expect(second.log).toBe(0);
    expect(await seenFiles()).toEqual([`${PASS}.seen.${second.generation}.sorted`]);
    expect((await file().read()).seen.get(idOf(4999))).toBe(FP);
  });

  it('forgets every id a listing run did not find live', async () => {
    await commit('e.1', puts(0, 10));
    await commit('e.2', puts(10, 11), new Set([idOf(2), idOf(10)]));
    const read = await file().read();
    expect([read.seen.get(idOf(1)), read.seen.get(idOf(2)), read.seen.get(idOf(10))]).toEqual([undefined, FP, FP]);
  });

  it('writes nothing when nothing changed', async () => {
    await commit('e.1', puts(0, 10));
    const before = await stat(join(dir, `${PASS}.json`));
    await commit(
      'e.1',
      puts(0, 10).filter(() => false),
    );
    expect((await stat(join(dir, `${PASS}.json`))).mtimeMs).toBe(before.mtimeMs);
  });
});
