import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryConversationLog, type LoggedTurn, ManualClock } from '@reverie/core';
import { z } from 'zod';
import { LogCursor } from './log-cursor';
import { logWindow, nothingNew, nothingToAsk, readLogWindow } from './read-log-window';
import { FileDreamStateStore } from '@reverie/file-store';

function turn(seq: number, sessionId: string, content: string, role: LoggedTurn['role'] = 'user'): LoggedTurn {
  return { seq, sessionId, role, content, timestamp: `2026-06-01T09:00:${String(seq % 60).padStart(2, '0')}.000Z` };
}

describe('logWindow', () => {
  it('says nothing is new and stays at the cursor when no turn was read', () => {
    const window = logWindow(7, [], 100);
    expect(window).toMatchObject({ afterSeq: 7, throughSeq: 7, notes: ['no new turns after seq 7'] });
    expect(nothingNew(window)).toEqual({ operations: [], itemsProcessed: 0, notes: ['no new turns after seq 7'], refusals: [] });
  });

  it('reads through the last seq, counts sessions and says what was not sent', () => {
    const read = [turn(4, 's1', 'a'), turn(5, 's1', 'b [skip]'), turn(6, 's2', 'c', 'tool'), turn(9, 's2', 'd', 'assistant')];
    const window = logWindow(3, read, 100);
    expect(window.throughSeq).toBe(9);
    expect(window.selection.sent.map((t) => t.seq)).toEqual([4, 9]);
    expect(window.notes).toEqual([
      '4 turn(s) read (seq 4..9) from 2 session(s)',
      '1 turn(s) marked [skip] not sent',
      '1 system, tool or empty turn(s) not sent',
    ]);
  });

  it('says when maxTurnsPerRun stopped the read, and where the next run continues', () => {
    const window = logWindow(0, [turn(1, 's1', 'a'), turn(2, 's1', 'b')], 2);
    expect(window.notes).toEqual([
      '2 turn(s) read (seq 1..2) from 1 session(s)',
      'maxTurnsPerRun (2) reached: the next run continues after seq 2',
    ]);
  });

  it('a run with nothing to ask still processes what it read and moves the cursor', () => {
    const window = logWindow(0, [turn(1, 's1', 'x', 'system')], 10);
    expect(nothingToAsk(window, 'nothing to send to the model', { afterSeq: 1 })).toEqual({
      operations: [],
      itemsProcessed: 1,
      notes: ['1 turn(s) read (seq 1..1) from 1 session(s)', '1 system, tool or empty turn(s) not sent', 'nothing to send to the model'],
      refusals: [],
      commit: { afterSeq: 1 },
    });
    expect(window.notes).toHaveLength(2);
  });
});

describe('readLogWindow', () => {
  it('reads only the turns after the cursor, at most maxTurnsPerRun', async () => {
    const log = new InMemoryConversationLog();
    for (const content of ['a', 'b', 'c', 'd']) await log.append({ sessionId: 's1', role: 'user', content });
    const window = await readLogWindow(log, 1, 2);
    expect(window.read.map((t) => t.content)).toEqual(['b', 'c']);
    expect(window.throughSeq).toBe(3);
  });
});

describe('LogCursor', () => {
  let dataPath: string | undefined;
  afterEach(async () => {
    if (dataPath) await rm(dataPath, { recursive: true, force: true });
  });

  it('starts at 0, and moves only when a commit is written, under its own key', async () => {
    dataPath = await mkdtemp(join(tmpdir(), 'reverie-log-cursor-'));
    const { cursors } = new FileDreamStateStore({ dataPath, clock: new ManualClock('2026-06-01T00:00:00Z') });
    const cursor = new LogCursor('some-pass', z.object({ inferredThroughSeq: z.number().int().min(0) }), 'inferredThroughSeq');
    expect(await cursor.position(cursors)).toBe(0);
    const data = cursor.at(12);
    expect(data).toEqual({ inferredThroughSeq: 12 });
    expect(await cursor.position(cursors)).toBe(0);
    await cursor.commit(cursors, JSON.parse(JSON.stringify(data)));
    expect(await cursor.position(cursors)).toBe(12);
  });

  it('refuses commit data that is not its cursor', async () => {
    dataPath = await mkdtemp(join(tmpdir(), 'reverie-log-cursor-'));
    const { cursors } = new FileDreamStateStore({ dataPath, clock: new ManualClock('2026-06-01T00:00:00Z') });
    const cursor = new LogCursor('some-pass', z.object({ afterSeq: z.number().int().min(0) }), 'afterSeq');
    await expect(cursor.commit(cursors, { afterSeq: -1 })).rejects.toThrow();
    expect(await cursor.position(cursors)).toBe(0);
  });
});
