import type { PassDeclaration } from '../engine/pass-declaration';
import { z } from 'zod';
import { categorySchema } from '@reverie/core';

const weight = z.number().min(0).max(1);

/** The thresholds leave a gap (`demoteBelow` < `promoteAbove`); a schema that extends these options refines with it too. */
export function tierThresholdsHold(options: { demoteBelow: number; promoteAbove: number }): boolean {
  return options.demoteBelow < options.promoteAbove;
}
export const TIER_THRESHOLDS_ISSUE = {
  message: 'demoteBelow must be below promoteAbove, or entries would flap between the tiers',
  path: ['promoteAbove'],
};

/**
 * SPEC B13: the value score's weights and rules, and when the deep-sleep `tier-migration` pass
 * moves an entry (defaults: minAgeDays 14, demoteBelow 0.35, promoteAbove 0.7, maxMovesPerRun
 * 500). The gap between the two thresholds stops an entry from flapping between the tiers.
 */
export const tierMigrationOptionsSchema = z
  .object({
    /** An entry younger than this many days (since `createdAt`) is never moved to cold (default 14). */
    minAgeDays: z.number().min(0).max(36_500).default(14),
    /** A hot entry old enough whose value score is at most this moves to cold (default 0.35). */
    demoteBelow: z.number().min(0).max(1).default(0.35),
    /** A cold entry whose value score is at least this comes back (default 0.7); must be above `demoteBelow`. */
    promoteAbove: z.number().min(0).max(1).default(0.7),
    /** Moves per run, promotions first, then the lowest scores (default 500); the rest wait for the next run. */
    maxMovesPerRun: z.number().int().min(1).max(1_000_000).default(500),
    /** Entries under these categories score 1 and never go cold (default `user-preferences`). */
    pinnedCategories: z.array(categorySchema).max(100).default(['user-preferences']),
    /** How the four parts of the value score add up; they must sum to 1 (defaults 0.40 / 0.25 / 0.10 / 0.25). */
    weights: z
      .object({
        /** The recall signals' score (frequency, relevance, recency of recalls; 0 when never recalled). Default 0.40. */
        recall: weight.default(0.4),
        /** Importance after decay (SPEC D7). Default 0.25. */
        importance: weight.default(0.25),
        /** How many observations the entry stands for: `1 − 0.5^((count − 1) / 2)`. Default 0.10. */
        reinforcement: weight.default(0.1),
        /** How lately it was seen or recalled: `0.5^(idle days / recencyHalfLifeDays)`. Default 0.25. */
        recency: weight.default(0.25),
      })
      .strict()
      .prefault({})
      .refine((w) => Math.abs(w.recall + w.importance + w.reinforcement + w.recency - 1) < 1e-6, 'the four weights must sum to 1'),
    /** Days after which an entry last seen or recalled then counts half as recent (default 30). */
    recencyHalfLifeDays: z.number().positive().max(36_500).default(30),
    /** An entry written from the user's correction (lineage origin `feedback`) scores at least this (default 0.8). */
    correctionFloor: z.number().min(0).max(1).default(0.8),
    /** A superseded or ended entry (SPEC B9) scores at most this (default 0.1). */
    supersededCeiling: z.number().min(0).max(1).default(0.1),
  })
  .strict()
  .refine(tierThresholdsHold, TIER_THRESHOLDS_ISSUE);
export type TierMigrationOptions = z.output<typeof tierMigrationOptionsSchema>;
export type TierMigrationOptionsInput = z.input<typeof tierMigrationOptionsSchema>;

/** What the pass is, declared once: the pass class, the catalogue and `plan()` read this (SPEC "Pass names and order"). */
export const tierMigrationPass = {
  name: 'tier-migration',
  phase: 'deep-sleep',
  requires: ['memory'],
  model: 'none',
  spec: 'O1, B13',
} as const satisfies PassDeclaration;
