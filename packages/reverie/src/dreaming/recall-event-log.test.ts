import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock, silentLogger } from '@reverie/core';
import { FileRecallState, recallEventsPath } from '@reverie/file-store/internal';
import { RecallEventLog } from './recall-event-log';

let dataPath: string;
beforeEach(async () => {
  dataPath = await mkdtemp(join(tmpdir(), 'reverie-recall-events-'));
});
afterEach(async () => {
  await rm(dataPath, { recursive: true, force: true });
});

describe('RecallEventLog', () => {
  it('buffers what searches returned and writes it off the hot path, relevance relative to the best result', async () => {
    const log = new RecallEventLog({
      events: new FileRecallState(dataPath),
      clock: new ManualClock('2026-06-01T00:00:00Z'),
      logger: silentLogger,
    });
    log.record(
      [
        { entryId: 'a', score: 4 },
        { entryId: 'b', score: 1 },
      ],
      'turn',
    );
    log.record([{ entryId: 'a', score: 0.5 }], 'tool');
    await expect(readFile(recallEventsPath(dataPath), 'utf8')).rejects.toThrow();
    await log.flush();
    const lines = (await readFile(recallEventsPath(dataPath), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      { at: '2026-06-01T00:00:00.000Z', entryId: 'a', relevance: 1, source: 'turn' },
      { at: '2026-06-01T00:00:00.000Z', entryId: 'b', relevance: 0.25, source: 'turn' },
      { at: '2026-06-01T00:00:00.000Z', entryId: 'a', relevance: 1, source: 'tool' },
    ]);
  });

  it('flushes by itself once the flush interval has passed', async () => {
    const log = new RecallEventLog({ events: new FileRecallState(dataPath), clock: new ManualClock(), logger: silentLogger, flushMs: 20 });
    log.record([{ entryId: 'a', score: 1 }], 'api');
    await vi.waitFor(async () => expect(await readFile(recallEventsPath(dataPath), 'utf8')).toContain('"a"'));
  });

  it('gathers the events of many searches into one write, losing none and keeping their order', async () => {
    const log = new RecallEventLog({
      events: new FileRecallState(dataPath),
      clock: new ManualClock(),
      logger: silentLogger,
      flushMs: 60_000,
    });
    for (let i = 0; i < 500; i++) log.record([{ entryId: `e${i}`, score: 1 }], 'turn');
    await expect(readFile(recallEventsPath(dataPath), 'utf8')).rejects.toThrow();
    await log.close();
    const ids = (await readFile(recallEventsPath(dataPath), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).entryId);
    expect(ids).toEqual(Array.from({ length: 500 }, (_, i) => `e${i}`));
  });

  it('writes again after its folder was removed', async () => {
    const log = new RecallEventLog({ events: new FileRecallState(dataPath), clock: new ManualClock(), logger: silentLogger });
    log.record([{ entryId: 'a', score: 1 }], 'turn');
    await log.flush();
    await rm(join(dataPath, '_system'), { recursive: true });
    log.record([{ entryId: 'b', score: 1 }], 'turn');
    await log.flush();
    expect(await readFile(recallEventsPath(dataPath), 'utf8')).toContain('"b"');
  });

  it('logs a failed write and never throws into the caller', async () => {
    await writeFile(join(dataPath, '_system'), 'a file where a directory should be');
    const warn = vi.fn();
    const log = new RecallEventLog({ events: new FileRecallState(dataPath), clock: new ManualClock(), logger: { ...silentLogger, warn } });
    expect(() => log.record([{ entryId: 'a', score: 1 }], 'turn')).not.toThrow();
    await log.flush();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Could not record recall events'), expect.objectContaining({ events: 1 }));
  });

  it('records nothing after close', async () => {
    const log = new RecallEventLog({ events: new FileRecallState(dataPath), clock: new ManualClock(), logger: silentLogger });
    await log.close();
    log.record([{ entryId: 'a', score: 1 }], 'turn');
    await log.flush();
    await expect(readFile(recallEventsPath(dataPath), 'utf8')).rejects.toThrow();
  });
});
