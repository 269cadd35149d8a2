import { type MemoryEntry, memoryEntrySchema, ReverieStoreCorruptError } from '@reverie/core';

/** The columns of `reverie_memory` that make an entry, in `MemoryRow` order. */
export const ENTRY_COLUMNS =
  'id, content, category, tags, metadata, created_at, updated_at, last_seen_at, importance, importance_at, reinforcement_count, valid_from, valid_to, superseded_by, lineage, tier';

export interface MemoryRow {
  id: string;
  content: string;
  category: string;
  tags: string[];
  metadata: Record<string, string>;
  created_at: Date | string;
  updated_at: Date | string;
  last_seen_at: Date | string;
  importance: number | string;
  importance_at: Date | string | null;
  reinforcement_count: number | string;
  valid_from: Date | string | null;
  valid_to: Date | string | null;
  superseded_by: string | null;
  lineage: unknown;
  tier: string;
}

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

/** A stored row as an entry, checked by `memoryEntrySchema` (STORE_CORRUPT when it fails). */
export function entryFromRow(row: MemoryRow, scope: string): MemoryEntry {
  const entry = {
    id: row.id,
    content: row.content,
    category: row.category,
    tags: row.tags,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    lastSeenAt: iso(row.last_seen_at),
    reinforcementCount: Number(row.reinforcement_count),
    importance: Number(row.importance),
    ...(row.importance_at === null ? {} : { importanceAt: iso(row.importance_at) }),
    metadata: row.metadata,
    ...(row.valid_from === null ? {} : { validFrom: iso(row.valid_from) }),
    ...(row.valid_to === null ? {} : { validTo: iso(row.valid_to) }),
    ...(row.superseded_by === null ? {} : { supersededBy: row.superseded_by }),
    ...(row.lineage === null ? {} : { lineage: row.lineage }),
    ...(row.tier === 'cold' ? { tier: row.tier } : {}),
  };
  const parsed = memoryEntrySchema.safeParse(entry);
  if (!parsed.success) {
    throw new ReverieStoreCorruptError(
      `The memory entry ${row.id} of scope ${scope} in reverie_memory is not a valid entry (${parsed.error.issues[0]?.message}): repair or delete that row.`,
      {
        cause: parsed.error,
        details: { scope, id: row.id },
      },
    );
  }
  return parsed.data;
}

/**
 * The entry as PostgreSQL will give it back: timestamps in UTC with millisecond precision (a
 * `timestamptz` keeps the instant, not the offset it was written with). Pure.
 */
export function normaliseTimes(entry: MemoryEntry): MemoryEntry {
  return {
    ...entry,
    createdAt: iso(entry.createdAt),
    updatedAt: iso(entry.updatedAt),
    lastSeenAt: iso(entry.lastSeenAt),
    ...(entry.importanceAt === undefined ? {} : { importanceAt: iso(entry.importanceAt) }),
    ...(entry.validFrom === undefined ? {} : { validFrom: iso(entry.validFrom) }),
    ...(entry.validTo === undefined ? {} : { validTo: iso(entry.validTo) }),
  };
}
