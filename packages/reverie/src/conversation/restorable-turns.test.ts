import { describe, expect, it } from 'vitest';
import type { LoggedTurn } from '@reverie/core';
import { restorableTurns } from './restorable-turns';

const MINUTE = 60_000;
const now = Date.parse('2026-03-01T12:00:00.000Z');
let seq = 0;
const turn = (minutesAgo: number, role: LoggedTurn['role'] = 'user'): LoggedTurn => ({
  sessionId: 's1',
  role,
  content: `${role} ${minutesAgo} min ago`,
  timestamp: new Date(now - minutesAgo * MINUTE).toISOString(),
  seq: (seq += 1),
});
const contents = (turns: LoggedTurn[]) => turns.map((t) => t.content);

describe('restorableTurns', () => {
  it('takes the turns since the session last went idle', () => {
    const turns = [turn(300), turn(299, 'assistant'), turn(50), turn(49, 'assistant'), turn(10), turn(9, 'assistant')];
    expect(contents(restorableTurns(turns, { nowMs: now, idleMs: 60 * MINUTE, max: 20 }))).toEqual([
      'user 50 min ago',
      'assistant 49 min ago',
      'user 10 min ago',
      'assistant 9 min ago',
    ]);
  });

  it('takes nothing from a session idle for longer than idleMs', () => {
    expect(restorableTurns([turn(90), turn(89, 'assistant')], { nowMs: now, idleMs: 60 * MINUTE, max: 20 })).toEqual([]);
  });

  it('keeps the latest max turns, and every turn when sessions never go idle', () => {
    const turns = [turn(5000), turn(30), turn(20, 'assistant'), turn(10)];
    expect(contents(restorableTurns(turns, { nowMs: now, idleMs: 60 * MINUTE, max: 2 }))).toEqual([
      'assistant 20 min ago',
      'user 10 min ago',
    ]);
    expect(restorableTurns(turns, { nowMs: now, idleMs: 0, max: 20 })).toHaveLength(4);
    expect(restorableTurns(turns, { nowMs: now, idleMs: 0, max: 0 })).toEqual([]);
  });

  it('starts after the session was ended, and leaves out system and tool turns', () => {
    const turns = [turn(30), turn(29, 'assistant'), turn(20, 'system'), turn(10), turn(9, 'tool')];
    expect(contents(restorableTurns(turns, { nowMs: now, idleMs: 60 * MINUTE, endedAtMs: now - 25 * MINUTE, max: 20 }))).toEqual([
      'user 10 min ago',
    ]);
  });
});
