import type { MemoryEntry } from '@reverie/core';
import { describe, expect, it } from 'vitest';
import { advanceCursor, changedSince } from './consolidation-cursor';
import { consolidationCursorSchema, EMPTY_CURSOR } from '@reverie/dream-state';

const entry = (id: string, updatedAt: string) => ({ id, updatedAt }) as MemoryEntry;

describe('consolidation cursor', () => {
  it('treats everything as changed without a position', () => {
    expect(changedSince(EMPTY_CURSOR, entry('000000000001', '2020-01-01T00:00:00.000Z'))).toBe(true);
  });

  it('orders by time, then id, so entries written in the same millisecond are not skipped', () => {
    const cursor = advanceCursor(EMPTY_CURSOR, { through: { at: '2026-01-01T00:00:00.000Z', id: '000000000002' }, written: [] });
    expect(changedSince(cursor, entry('000000000001', '2026-01-01T00:00:00.000Z'))).toBe(false);
    expect(changedSince(cursor, entry('000000000002', '2026-01-01T00:00:00.000Z'))).toBe(false);
    expect(changedSince(cursor, entry('000000000003', '2026-01-01T00:00:00.000Z'))).toBe(true);
    expect(changedSince(cursor, entry('000000000001', '2026-01-01T01:00:00.000+01:00'))).toBe(false);
  });

  it("does not count the pass's own writes as changes, unless they changed again", () => {
    const cursor = advanceCursor(EMPTY_CURSOR, {
      through: { at: '2026-01-01T00:00:00.000Z', id: '000000000001' },
      written: [entry('00000000000a', '2026-01-02T00:00:00.000Z')],
    });
    expect(changedSince(cursor, entry('00000000000a', '2026-01-02T00:00:00.000Z'))).toBe(false);
    expect(changedSince(cursor, entry('00000000000a', '2026-01-03T00:00:00.000Z'))).toBe(true);
  });

  it('never moves back and forgets own writes the position covers', () => {
    const first = advanceCursor(EMPTY_CURSOR, {
      through: { at: '2026-01-05T00:00:00.000Z', id: '000000000005' },
      written: [entry('00000000000a', '2026-01-06T00:00:00.000Z')],
      feedback: { at: '2026-01-05T00:00:00.000Z', id: 'f00000000001' },
    });
    const second = advanceCursor(first, { through: { at: '2026-01-07T00:00:00.000Z', id: '000000000007' }, written: [] });
    expect(second.entries).toEqual({ at: '2026-01-07T00:00:00.000Z', id: '000000000007' });
    expect(second.written).toEqual({});
    expect(second.feedback).toEqual(first.feedback);
    const back = advanceCursor(second, { through: { at: '2026-01-01T00:00:00.000Z', id: '000000000001' }, written: [] });
    expect(back.entries).toEqual(second.entries);
  });

  it('reads a cursor whose fingerprints are keyed by entry ids, and refuses any other key', () => {
    expect(consolidationCursorSchema.safeParse({ version: 1, seen: { '000000000001': 'abc' } }).success).toBe(true);
    expect(consolidationCursorSchema.safeParse({ version: 1, seen: { '../escape': 'abc' } }).success).toBe(false);
    expect(consolidationCursorSchema.safeParse({ version: 1, seen: { '000000000001': 7 } }).success).toBe(false);
    expect(consolidationCursorSchema.safeParse({ version: 1, seen: [] }).success).toBe(false);
  });

  it('leaves seen to the cursor file: advancing keeps the same fingerprints', () => {
    const cursor = advanceCursor(EMPTY_CURSOR, {
      through: { at: '2026-01-01T00:00:00.000Z', id: '000000000002' },
      written: [],
      feed: 'epoch.7',
    });
    expect(cursor.seen).toBe(EMPTY_CURSOR.seen);
    expect(cursor.feed).toBe('epoch.7');
  });
});
