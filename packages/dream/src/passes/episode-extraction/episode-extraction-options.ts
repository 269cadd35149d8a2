import type { PassDeclaration } from '../../engine/pass-declaration';
import { z } from 'zod';
import { categorySchema } from '@reverie/core';

/** SPEC D6, D14, D18: the options of the episode-extraction pass, validated with defaults. */
export const episodeExtractionOptionsSchema = z
  .object({
    /** The most logged turns one run reads past its cursor, oldest first (default 400). */
    maxTurnsPerRun: z.number().int().min(1).default(400),
    /** Input tokens per model call, estimated as characters / 4 (default 12000). */
    tokenBudget: z.number().int().min(1000).default(12_000),
    /** Where new episodes are filed; existing episodes are looked for under it (default `episodes`). */
    category: categorySchema.default('episodes'),
    /**
     * The most new episodes one session may yield (default 10). A reply proposing more than this ×
     * the sessions of its call, plus one revisit per episode shown, is refused whole (SPEC B11).
     */
    maxEpisodesPerSession: z.number().int().min(1).max(100).default(10),
  })
  .strict();

export type EpisodeExtractionOptions = z.output<typeof episodeExtractionOptionsSchema>;
export type EpisodeExtractionOptionsInput = z.input<typeof episodeExtractionOptionsSchema>;

/** What the pass is, declared once: the pass class, the catalogue and `plan()` read this (SPEC "Pass names and order"). */
export const episodeExtractionPass = {
  name: 'episode-extraction',
  phase: 'rem',
  requires: ['memory', 'conversationLog'],
  model: 'required',
  spec: 'D6',
} as const satisfies PassDeclaration;
