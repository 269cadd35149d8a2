import { type MemoryEntry, memoryEntrySchema } from '@reverie/core';
import { describe, expect, it } from 'vitest';
import { buildConsolidationItems } from './consolidation-item';
import { duplicateKey, duplicateKeyHash } from './normalise-content';

let counter = 0;
function entry(fields: Partial<MemoryEntry> & { content: string }): MemoryEntry {
  counter += 1;
  return {
    id: counter.toString(16).padStart(12, '0'),
    category: 'general',
    tags: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    lastSeenAt: '2026-01-01T00:00:00.000Z',
    reinforcementCount: 1,
    importance: 0.5,
    metadata: {},
    ...fields,
  };
}

const NOW = new Date('2026-03-01T00:00:00.000Z');

describe('buildConsolidationItems (the deterministic pre-pass)', () => {
  it('folds near-exact duplicates across categories into one merged entry with the D4 arithmetic', () => {
    const old = entry({
      content: 'User prefers dark mode.',
      category: 'general',
      tags: ['ui'],
      createdAt: '2025-05-01T00:00:00.000Z',
      lastSeenAt: '2025-06-01T00:00:00.000Z',
      reinforcementCount: 2,
      importance: 0.4,
      metadata: { 'subject.point': '2025-05', source: 'chat' },
    });
    const recent = entry({
      content: '[durable] user prefers dark-mode',
      category: 'user-preferences/ui',
      tags: ['theme', 'ui'],
      createdAt: '2026-01-10T00:00:00.000Z',
      lastSeenAt: '2026-02-20T00:00:00.000Z',
      reinforcementCount: 3,
      importance: 0.7,
      metadata: { 'subject.point': '2025-05', inferred: 'true' },
    });
    const other = entry({ content: 'User drinks tea' });

    const items = buildConsolidationItems([old, recent, other], NOW);

    expect(items).toHaveLength(2);
    const [group, single] = items;
    expect(single!.view).toEqual(other);
    expect(single!.merged).toBeUndefined();
    expect(group!.members.map((member) => member.id)).toEqual([old.id, recent.id]);
    expect(group!.id).toBe(recent.id);
    const merged = group!.merged!;
    expect(memoryEntrySchema.parse(merged)).toEqual(merged);
    expect(merged.id).not.toBe(old.id);
    expect(merged.id).not.toBe(recent.id);
    expect(merged).toMatchObject({
      content: 'user prefers dark-mode',
      category: 'user-preferences/ui',
      tags: ['theme', 'ui'],
      createdAt: '2025-05-01T00:00:00.000Z',
      lastSeenAt: '2026-02-20T00:00:00.000Z',
      reinforcementCount: 5,
      importance: 0.7,
      metadata: { 'subject.point': '2025-05' },
    });
    expect(group!.view).toEqual({ ...merged, id: recent.id, updatedAt: recent.updatedAt });
  });

  it('keeps equal wording about different moments apart', () => {
    const items = buildConsolidationItems(
      [
        entry({ content: 'Trip to Paris', metadata: { 'subject.point': '2025-06' } }),
        entry({ content: 'Trip to Paris.', metadata: { 'subject.point': '2026-03' } }),
      ],
      NOW,
    );
    expect(items).toHaveLength(2);
    expect(items.every((item) => item.merged === undefined)).toBe(true);
  });

  it('takes the wording of the most recently seen member, then the most reinforced', () => {
    const a = entry({ content: 'Likes TEA', lastSeenAt: '2026-01-05T00:00:00.000Z', reinforcementCount: 9 });
    const b = entry({ content: 'likes tea!', lastSeenAt: '2026-01-06T00:00:00.000Z' });
    const c = entry({ content: 'Likes tea.', lastSeenAt: '2026-01-06T00:00:00.000Z', reinforcementCount: 2 });
    const [item] = buildConsolidationItems([a, b, c], NOW);
    expect(item!.merged!.content).toBe('Likes tea.');
    expect(item!.merged!.reinforcementCount).toBe(12);
  });

  it('keeps entries whose normalised texts differ apart even when their key hashes collide, and still groups the duplicates of each', () => {
    // FNV-1a gives "note 133189" and "note 1019624" (with an empty subject time) the same 32-bit hash.
    expect(duplicateKeyHash(duplicateKey({ content: 'note 133189', metadata: {} })!)).toBe(
      duplicateKeyHash(duplicateKey({ content: 'note 1019624', metadata: {} })!),
    );
    const first = entry({ content: 'Note 133189.' });
    const other = entry({ content: 'note 1019624' });
    const twin = entry({ content: 'NOTE 1019624!' });
    const items = buildConsolidationItems([first, other, twin], NOW);
    expect(items.map((item) => item.members.map((member) => member.id))).toEqual([[first.id], [other.id, twin.id]]);
    expect(items[1]!.merged?.content).toBe('note 1019624');
  });
});
