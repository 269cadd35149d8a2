import { z } from 'zod';
import { idSchema, MAX_MEMORY_CONTENT_LENGTH, timestampSchema } from './common';
import { sessionIdSchema } from './conversation-turn';

/** How an entry came to be (SPEC B10). */
export const LINEAGE_ORIGIN_KINDS = ['api', 'tool', 'import', 'session', 'feedback', 'merge'] as const;
export type LineageOriginKind = (typeof LINEAGE_ORIGIN_KINDS)[number];

/** At most this many ancestors on one entry: older generations beyond it are folded into a count. */
export const MAX_LINEAGE_ANCESTORS = 32;
/** At most this many turn ranges on one origin. */
export const MAX_LINEAGE_TURN_RANGES = 16;
/** An ancestor's excerpt is at most this many characters. */
export const MAX_LINEAGE_EXCERPT = 80;

/** At most this many passages on one entry (see `MemoryLineage.passages`): further sources are not kept whole. */
export const MAX_LINEAGE_PASSAGES = 32;

/** A dream run's id (12 hex characters for the engine's runs; a custom runner may name its own). */
const runIdSchema = z.string().min(1).max(64);

/** Turns of one session an entry was extracted from: log seqs `fromSeq`..`toSeq`, inclusive. */
export const lineageTurnsSchema = z
  .object({
    sessionId: sessionIdSchema,
    fromSeq: z.number().int().positive(),
    toSeq: z.number().int().positive(),
  })
  .refine((turns) => turns.fromSeq <= turns.toSeq, { message: 'fromSeq is after toSeq', path: ['toSeq'] });
export type LineageTurns = z.infer<typeof lineageTurnsSchema>;

/**
 * SPEC B10: how the entry itself was written. `kind` says by what: the API (`memory.save`), an
 * agent tool (`tool`: its name, the session when known), an import (`source`: a file or label),
 * a dream pass that extracted it from conversation (`session`: `pass`, `turns`) or wrote it from
 * the user's correction feedback (`feedback`), or a merge of earlier entries (`merge`: the
 * sources are its ancestors). `runId` is the dream run that wrote it.
 */
export const lineageOriginSchema = z.object({
  kind: z.enum(LINEAGE_ORIGIN_KINDS),
  /** When it was written; a store stamps the write's time when a draft leaves it out. */
  at: timestampSchema,
  runId: runIdSchema.optional(),
  pass: z.string().min(1).max(100).optional(),
  tool: z.string().min(1).max(100).optional(),
  sessionId: sessionIdSchema.optional(),
  turns: z.array(lineageTurnsSchema).max(MAX_LINEAGE_TURN_RANGES).optional(),
  source: z.string().min(1).max(200).optional(),
});
export type LineageOrigin = z.infer<typeof lineageOriginSchema>;

/**
 * SPEC B10: an earlier entry this one descends from, recorded when it was merged into or
 * superseded by `into` (this entry, or one of its other ancestors), with enough of it to show the
 * chain after it is archived or purged: the start of its content, a fingerprint of all of it,
 * and how it had been written (`origin`, absent when that was unknown).
 */
export const lineageAncestorSchema = z.object({
  id: idSchema,
  relation: z.enum(['merged', 'superseded']),
  into: idSchema,
  at: timestampSchema,
  runId: runIdSchema.optional(),
  excerpt: z.string().max(MAX_LINEAGE_EXCERPT),
  fingerprint: z.string().regex(/^[0-9a-f]{8}$/, 'must be 8 lowercase hex characters'),
  origin: z.enum(LINEAGE_ORIGIN_KINDS).optional(),
});
export type LineageAncestor = z.infer<typeof lineageAncestorSchema>;

/**
 * SPEC B10: where an entry came from, stored on the entry (it outlives run folders and archive
 * retention). `ancestors` are the direct parents (`into` = this entry) first, then earlier
 * generations, nearest first, at most `MAX_LINEAGE_ANCESTORS`; `folded` counts the older ones
 * left out to stay within it. An entry without lineage is of unknown origin.
 */
export const memoryLineageSchema = z.object({
  origin: lineageOriginSchema.optional(),
  ancestors: z.array(lineageAncestorSchema).max(MAX_LINEAGE_ANCESTORS).optional(),
  folded: z.number().int().positive().optional(),
  /**
   * SPEC M3, B10: the whole text of the entries merged into this one (a source that was itself a
   * merge gives its passages), at most `MAX_LINEAGE_PASSAGES`. Recall ranks the entry by the best
   * of its own text and these, so a merge is found as its source would have been. The only copy
   * of the sources' text the entry keeps: erasing a source's text means erasing it here too.
   */
  passages: z
    .array(
      z
        .string()
        .max(MAX_MEMORY_CONTENT_LENGTH)
        .refine((passage) => passage.trim().length > 0, 'a passage cannot be empty'),
    )
    .max(MAX_LINEAGE_PASSAGES)
    .optional(),
});
export type MemoryLineage = z.infer<typeof memoryLineageSchema>;

/** A lineage a caller hands to `save`: the origin's `at` may be left out (the write's time). */
export const memoryLineageDraftSchema = memoryLineageSchema.extend({
  origin: lineageOriginSchema.extend({ at: timestampSchema.optional() }).optional(),
});
export type MemoryLineageDraft = z.input<typeof memoryLineageDraftSchema>;
