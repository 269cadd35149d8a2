import type { MemoryEntry } from '../../schemas/memory-entry';

/** A memory entry noted on 2026-01-10 (midnight UTC), with `fields` over it: the temporal tests' entry. */
export const datedEntry = (id: string, fields: Partial<MemoryEntry> = {}): MemoryEntry => ({
  id,
  content: `entry ${id}`,
  category: 'general',
  tags: [],
  metadata: {},
  importance: 0.5,
  reinforcementCount: 1,
  createdAt: '2026-01-10T00:00:00.000Z',
  updatedAt: '2026-01-10T00:00:00.000Z',
  lastSeenAt: '2026-01-10T00:00:00.000Z',
  ...fields,
});
