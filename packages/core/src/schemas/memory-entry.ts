import { z } from 'zod';
import {
  categorySchema,
  idSchema,
  MAX_MEMORY_CONTENT_LENGTH,
  metadataSchema,
  searchResultCountSchema,
  searchTextSchema,
  tagsSchema,
  timestampSchema,
} from './common';
import { validityProblem } from '../temporal/validity';
import { memoryLineageDraftSchema, memoryLineageSchema } from './memory-lineage';

export const DEFAULT_CATEGORY = 'general';
export const DEFAULT_IMPORTANCE = 0.5;
export { MAX_MEMORY_CONTENT_LENGTH };

/**
 * SPEC B13: where an entry lives. `hot` entries are in the search index, the per-turn context and
 * the dream cycle's working set; `cold` ones are still remembered (`get`, `list`, a search that
 * falls back or asks for `tiers: 'all'`) but cost the hot path nothing.
 */
export const memoryTierSchema = z.enum(['hot', 'cold']);
export type MemoryTier = z.infer<typeof memoryTierSchema>;

/** SPEC B13: which tiers a search reads. `fallback` (the default): hot, then cold when the hot results are weak. */
export const memorySearchTiersSchema = z.enum(['fallback', 'hot', 'all']);
export type MemorySearchTiers = z.infer<typeof memorySearchTiersSchema>;

const contentSchema = z
  .string()
  .max(MAX_MEMORY_CONTENT_LENGTH, `content is at most ${MAX_MEMORY_CONTENT_LENGTH} characters`)
  .refine((content) => content.trim().length > 0, 'content cannot be empty');

/** SPEC M1: one long-term memory entry, as stored and as returned by every store. */
export const memoryEntrySchema = z
  .object({
    id: idSchema,
    content: contentSchema,
    category: categorySchema,
    tags: tagsSchema,
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
    /** When the fact was last observed for real (not when a dream rewrote it). */
    lastSeenAt: timestampSchema,
    /** How many observations this entry stands for (grows when duplicates merge). */
    reinforcementCount: z.number().int().min(1),
    /** As of `importanceAt`; what it is worth now is `effectiveImportance` (SPEC D7, decayed at read time). */
    importance: z.number().min(0).max(1),
    /** When `importance` was set. Absent: the stored importance counts as of `lastSeenAt`. */
    importanceAt: timestampSchema.optional(),
    metadata: metadataSchema,
    /** SPEC B9: since when the fact holds. Absent: since it was first noted (`createdAt`). */
    validFrom: timestampSchema.optional(),
    /** SPEC B9: when the fact stopped holding (exclusive). Absent: it still holds. */
    validTo: timestampSchema.optional(),
    /** SPEC B9: the entry that replaced this one; set together with `validTo`. */
    supersededBy: idSchema.optional(),
    /** SPEC B10: where the entry came from (merges, supersessions, sessions, a tool, an import) and the run that wrote it. Absent: unknown origin. */
    lineage: memoryLineageSchema.optional(),
    /**
     * SPEC B13: `cold` when deep sleep moved the entry out of the hot set. Absent: hot. A store
     * returns only `cold` or nothing; `hot` is what a write (a dream operation, an undo) says to move one back.
     */
    tier: memoryTierSchema.optional(),
  })
  .superRefine((entry, ctx) => {
    const problem = validityProblem(entry);
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });
export type MemoryEntry = z.infer<typeof memoryEntrySchema>;

/**
 * What a caller hands to `ILongTermMemory.save`. Without `id` a new entry is created. With an
 * `id` that exists, the entry is replaced; temporal fields and importance the draft leaves out
 * are kept from the stored entry. With an `id` that does not exist, the entry is inserted as
 * given, which is how memory is imported or migrated.
 *
 * Importance decays at read time (SPEC D7): the stored `importance` counts as of `importanceAt`
 * (else `lastSeenAt`). A replacing draft that sets a different `importance` without
 * `importanceAt` means "this is its importance now"; one that leaves importance out (or repeats
 * the stored pair, as a spread of the stored entry does) keeps the stored pair, and if it moves `lastSeenAt` the decay accrued so far
 * is stored first, so being seen again never undoes it.
 */
export const memoryDraftSchema = z.object({
  id: idSchema.optional(),
  content: contentSchema,
  category: categorySchema.optional(),
  tags: tagsSchema.optional(),
  metadata: metadataSchema.optional(),
  importance: z.number().min(0).max(1).optional(),
  importanceAt: timestampSchema.optional(),
  createdAt: timestampSchema.optional(),
  lastSeenAt: timestampSchema.optional(),
  reinforcementCount: z.number().int().min(1).optional(),
  /** SPEC B9. Left out of a replacing draft: kept as stored; `null`: removed. */
  validFrom: timestampSchema.nullish(),
  validTo: timestampSchema.nullish(),
  supersededBy: idSchema.nullish(),
  /** SPEC B10. Left out of a replacing draft: kept as stored; `null`: removed. The origin's `at` defaults to the write's time. */
  lineage: memoryLineageDraftSchema.nullish(),
  /** SPEC B13. Left out of a replacing draft: kept as stored; a new entry is hot. A store without tiers keeps every entry hot. */
  tier: memoryTierSchema.optional(),
});
export type MemoryDraft = z.input<typeof memoryDraftSchema>;

/** How many results a memory search returns when `maxResults` is not given. */
export const DEFAULT_SEARCH_RESULTS = 8;

export const memorySearchQuerySchema = z.object({
  /** Free text, ranked by BM25 (plus cosine when embeddings are configured). Omit to browse. */
  text: searchTextSchema.optional(),
  /** Only entries whose category is this one or lies below it. */
  category: categorySchema.optional(),
  /** Only entries that carry every one of these tags. */
  tags: tagsSchema.optional(),
  maxResults: searchResultCountSchema(DEFAULT_SEARCH_RESULTS),
  /**
   * SPEC B9: the memory as it stood at this instant: entries noted by then (`validFrom`, else
   * `createdAt`, at or before it) and not yet ended (`validTo` after it). Without it: the entries
   * that hold now (not superseded, not ended, not starting later).
   */
  asOf: timestampSchema.optional(),
  /**
   * SPEC B13: `fallback` (default) searches the hot tier, then the cold one when the hot results
   * are weak (see `hotResultsAreWeak`); `hot` only the hot tier; `all` both as one.
   */
  tiers: memorySearchTiersSchema.default('fallback'),
});
export type MemorySearchQuery = z.input<typeof memorySearchQuerySchema>;

export interface MemorySearchResult {
  /** A cold entry carries `tier: 'cold'`. */
  entry: MemoryEntry;
  /** Higher is better; comparable only within one result list. */
  score: number;
}

export interface CategoryCount {
  category: string;
  count: number;
}

/** What `ILongTermMemory.list` can filter by. */
export interface MemoryListOptions {
  /** Only entries whose category is this one or lies below it. */
  category?: string;
  /** SPEC B13: only the entries of this tier (default both). */
  tier?: MemoryTier;
}
