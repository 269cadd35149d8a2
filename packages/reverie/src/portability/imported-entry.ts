import { categorySchema, type MemoryEntry, memoryEntrySchema, newId, timestampSchema } from '@reverie/core';
import { describeIssues, isSystemCategory } from '@reverie/core/internal';

/** What a foreign format says of one memory. */
export interface ForeignMemory {
  content: string;
  category?: string | undefined;
  tags?: readonly string[] | undefined;
  metadata?: ReadonlyMap<string, string> | undefined;
  createdAt?: string | undefined;
  updatedAt?: string | undefined;
}

/** The longest metadata value a memory entry keeps. */
const MAX_METADATA_VALUE = 4096;

/** A category made from a heading or a label: lower case, words joined by `-`; empty when nothing is left. Pure. */
export function categorySlug(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** An ISO timestamp of `value` when it is one a date parser reads (with a zone), else undefined. Pure. */
export function isoTimestamp(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (timestampSchema.safeParse(value).success) return value;
  const ms = Date.parse(value);
  return Number.isNaN(ms) || !/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? undefined : new Date(ms).toISOString();
}

/**
 * SPEC B15: the memory entry an importer makes of a foreign record: a new id, the times it gives
 * (else `now`), lineage origin `import` with `source`. The category must be a valid one outside
 * `_system/`; returns the problem instead of an entry otherwise. Pure.
 */
export function importedEntry(memory: ForeignMemory, source: string, now: string): MemoryEntry | { problem: string } {
  const category = memory.category ?? 'general';
  const validCategory = categorySchema.safeParse(category);
  if (!validCategory.success)
    return { problem: `the category ${JSON.stringify(category)} is not valid (${describeIssues(validCategory.error)})` };
  if (isSystemCategory(category)) return { problem: `the category ${JSON.stringify(category)} is reserved for Reverie` };
  const createdAt = memory.createdAt ?? now;
  const metadata = Object.fromEntries([...(memory.metadata ?? [])].map(([key, value]) => [key, value.slice(0, MAX_METADATA_VALUE)]));
  const entry = memoryEntrySchema.safeParse({
    id: newId(),
    content: memory.content.trim(),
    category: validCategory.data,
    tags: [...new Set(memory.tags ?? [])],
    createdAt,
    updatedAt: now,
    lastSeenAt: memory.updatedAt ?? createdAt,
    reinforcementCount: 1,
    importance: 0.5,
    metadata,
    lineage: { origin: { kind: 'import', at: now, source: source.slice(0, 200) } },
  });
  return entry.success ? entry.data : { problem: `not a valid memory (${describeIssues(entry.error)})` };
}
