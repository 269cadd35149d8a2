import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../schemas/memory-entry';
import { browseMemory, parseMemoryQuery } from './memory-query';
import { byImportanceThenRecency } from './memory-order';

const entry = (i: number, importance: number, seenDay: number, category: string): MemoryEntry => ({
  id: i.toString(16).padStart(12, '0'),
  content: `entry ${i}`,
  category,
  tags: [],
  metadata: {},
  importance,
  reinforcementCount: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastSeenAt: new Date(Date.UTC(2026, 0, 1 + seenDay)).toISOString(),
});

describe('browseMemory', () => {
  it('returns exactly the first maxResults of the full browse order, filters applied', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(0, 0.25, 0.5, 0.5, 0.75, 1), fc.integer({ min: 0, max: 5 }), fc.constantFrom('a', 'a/b', 'c')), {
          maxLength: 60,
        }),
        fc.integer({ min: 1, max: 20 }),
        fc.option(fc.constantFrom('a', 'c'), { nil: undefined }),
        (specs, maxResults, category) => {
          const entries = specs.map(([importance, day, cat], i) => entry(i, importance, day, cat));
          const query = parseMemoryQuery({ maxResults, ...(category ? { category } : {}) }, new Date('2026-06-01T00:00:00.000Z'));
          const expected = entries.filter(query.matches).sort(byImportanceThenRecency).slice(0, maxResults);
          expect(browseMemory(entries, query).map((result) => result.entry.id)).toEqual(expected.map((e) => e.id));
        },
      ),
    );
  });
});
