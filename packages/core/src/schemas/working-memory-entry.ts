import { z } from 'zod';
import { categorySchema, searchResultCountSchema, searchTextSchema, tagsSchema, timestampSchema, workingMemoryKeySchema } from './common';

export const DEFAULT_WORKING_MEMORY_TTL_MS = 5 * 60 * 1000;
export const DEFAULT_MAX_ENTRIES_PER_NAMESPACE = 50;
export const MAX_WORKING_MEMORY_VALUE_LENGTH = 1_000_000;
/** Longest TTL an entry may ask for: 30 days. Working memory is scratch space, not storage. */
export const MAX_WORKING_MEMORY_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** SPEC M7: one scratch entry, keyed by its full path (`session/<id>/<name>`). */
export const workingMemoryEntrySchema = z.object({
  key: workingMemoryKeySchema,
  value: z.string().max(MAX_WORKING_MEMORY_VALUE_LENGTH),
  storedAt: timestampSchema,
  expiresAt: timestampSchema,
  category: categorySchema.optional(),
  tags: tagsSchema,
});
export type WorkingMemoryEntry = z.infer<typeof workingMemoryEntrySchema>;

export const workingMemorySetOptionsSchema = z.object({
  /** Time to live for this entry in ms (default: the store's, 5 minutes). */
  ttlMs: z.number().int().positive().max(MAX_WORKING_MEMORY_TTL_MS, 'must be at most 30 days (2592000000 ms)').optional(),
  category: categorySchema.optional(),
  tags: tagsSchema.optional(),
});
export type WorkingMemorySetOptions = z.input<typeof workingMemorySetOptionsSchema>;

export const workingMemorySearchQuerySchema = z.object({
  text: searchTextSchema.optional(),
  category: categorySchema.optional(),
  tags: tagsSchema.optional(),
  /** Only keys equal to or below this path prefix (`patrol`, `session/abc`). */
  prefix: z.string().max(256).optional(),
  maxResults: searchResultCountSchema(10),
});
export type WorkingMemorySearchQuery = z.input<typeof workingMemorySearchQuerySchema>;

export interface WorkingMemorySearchResult {
  entry: WorkingMemoryEntry;
  score: number;
}

/** The namespace of a key: its first two segments (`session/abc` for `session/abc/inbox`). */
export function namespaceOf(key: string): string {
  return key.split('/').slice(0, 2).join('/');
}
