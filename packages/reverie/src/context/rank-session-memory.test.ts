import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '@reverie/core';
import { type HeldEntry, rankSessionMemory } from './rank-session-memory';

const entry = (id: string): MemoryEntry => ({ id: id.padEnd(12, '0'), content: id, category: 'general' }) as unknown as MemoryEntry;
const held = (id: string, firstTurn: number, lastTurn: number): HeldEntry => ({ entry: entry(id), firstTurn, lastTurn });
const ids = (entries: MemoryEntry[]) => entries.map((e) => e.content);

describe('rankSessionMemory', () => {
  it('puts what the current message recalled first, in its order, then the rest by most recent recall', () => {
    const session = [held('a', 1, 1), held('b', 1, 2), held('c', 2, 3), held('d', 3, 3)];
    expect(ids(rankSessionMemory(session, ['d00000000000', 'a00000000000']))).toEqual(['d', 'a', 'c', 'b']);
  });

  it('orders entries recalled at the same turn by when they were first recalled, and lists each once', () => {
    const session = [held('b', 2, 4), held('a', 1, 4), held('c', 3, 4)];
    expect(ids(rankSessionMemory(session, ['c00000000000', 'c00000000000', 'zz0000000000']))).toEqual(['c', 'a', 'b']);
  });

  it('is empty for an empty session', () => {
    expect(rankSessionMemory([], ['a00000000000'])).toEqual([]);
  });
});
