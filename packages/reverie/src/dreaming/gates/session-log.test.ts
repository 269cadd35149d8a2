import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@reverie/core';
import { sessionsPath } from '@reverie/file-store/internal';
import { SessionLog } from './session-log';
import { FileDreamStateStore } from '@reverie/file-store';

let dataPath: string;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-sessions-'));
});
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

describe('SessionLog', () => {
  it('appends one line per session end and counts distinct sessions after a time', async () => {
    const clock = new ManualClock('2026-06-01T00:00:00.000Z');
    const log = new SessionLog(new FileDreamStateStore({ dataPath, clock }).sessions, clock);
    expect(await log.countSince(undefined)).toBe(0);
    await log.record('a');
    clock.advance(1000);
    await log.record('b');
    await log.record('b');
    clock.advance(1000);
    await log.record('c');
    expect(readFileSync(sessionsPath(dataPath), 'utf8').trim().split('\n')).toHaveLength(4);
    expect(JSON.parse(readFileSync(sessionsPath(dataPath), 'utf8').split('\n')[0]!)).toEqual({
      sessionId: 'a',
      endedAt: '2026-06-01T00:00:00.000Z',
    });
    expect(await log.countSince(undefined)).toBe(3);
    expect(await log.countSince(new Date('2026-06-01T00:00:00.000Z'))).toBe(2);
    expect(await log.countSince(new Date('2026-06-01T00:00:01.000Z'))).toBe(1);
    appendFileSync(sessionsPath(dataPath), '{"sessionId":"d","end');
    expect(await log.countSince(undefined)).toBe(3);
  });
});
