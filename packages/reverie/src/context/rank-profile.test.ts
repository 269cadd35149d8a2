import { describe, expect, it } from 'vitest';
import { DEFAULT_DECAY_OPTIONS, type MemoryEntry } from '@reverie/core';
import { rankProfile } from './rank-profile';

const now = new Date('2026-03-01T00:00:00.000Z');
const entry = (id: string, importance: number, lastSeenAt: string, updatedAt = lastSeenAt): MemoryEntry =>
  ({ id, content: id, category: 'user-preferences/x', importance, lastSeenAt, updatedAt, createdAt: lastSeenAt }) as unknown as MemoryEntry;

describe('rankProfile', () => {
  it('ranks by importance, then the most recently seen, then the most recently changed; each entry once', () => {
    const entries = [
      entry('low', 0.3, '2026-02-28T00:00:00.000Z'),
      entry('high-old', 0.9, '2026-02-01T00:00:00.000Z'),
      entry('high-new', 0.9, '2026-02-27T00:00:00.000Z'),
      entry('high-new-changed', 0.9, '2026-02-27T00:00:00.000Z', '2026-02-28T00:00:00.000Z'),
      entry('low', 0.3, '2026-02-28T00:00:00.000Z'),
    ];
    expect(rankProfile(entries, now, DEFAULT_DECAY_OPTIONS).map((e) => e.id)).toEqual(['high-new-changed', 'high-new', 'high-old', 'low']);
  });

  it('uses importance as it stands now: an entry unseen for long ranks below one seen lately', () => {
    const stale = entry('stale', 0.9, '2025-01-01T00:00:00.000Z');
    const fresh = entry('fresh', 0.6, '2026-02-20T00:00:00.000Z');
    expect(rankProfile([stale, fresh], now, DEFAULT_DECAY_OPTIONS).map((e) => e.id)).toEqual(['fresh', 'stale']);
    expect(rankProfile([stale, fresh], now, { ...DEFAULT_DECAY_OPTIONS, halfLifeDays: 0 }).map((e) => e.id)).toEqual(['stale', 'fresh']);
  });
});
