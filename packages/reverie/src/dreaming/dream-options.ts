import { z } from 'zod';
import {
  archiveRetentionOptionsSchema,
  episodeExtractionOptionsSchema,
  importanceDecayOptionsSchema,
  memoryConsolidationOptionsSchema,
  preferenceInferenceOptionsSchema,
  promotionOptionsSchema,
  recallSignalsOptionsSchema,
  skillConsolidationOptionsSchema,
  skillGapOptionsSchema,
  skillOptimizationOptionsSchema,
  TIER_THRESHOLDS_ISSUE,
  tierMigrationOptionsSchema,
  tierThresholdsHold,
  workflowFailureAnalysisOptionsSchema,
} from '@reverie/dream/options';
import { durationSchema } from '../options/duration';
import { type DreamStateStore } from '@reverie/dream-state';
import { DEFAULT_STALE_LOCK_MINUTES } from '@reverie/file-store';
import { dreamGateOptionsSchema } from './gates/gate-options';
import { hostPassesSchema } from './host-passes';
import { type SignalSource } from './gates/signal-source';

const switchSchema = z.object({ enabled: z.boolean().default(true) }).strict();

/**
 * The skill passes' options with an `enabled` switch beside them. `protectedSkills` is left out:
 * the skill passes take it from `.withSkills({ protected })`, so it is written once.
 */
const skillGapSchema = switchSchema.extend(skillGapOptionsSchema.omit({ protectedSkills: true }).shape).strict();
const skillConsolidationSchema = switchSchema.extend(skillConsolidationOptionsSchema.omit({ protectedSkills: true }).shape).strict();
const skillOptimizationSchema = switchSchema.extend(skillOptimizationOptionsSchema.omit({ protectedSkills: true }).shape).strict();
const workflowFailureAnalysisSchema = switchSchema
  .extend(workflowFailureAnalysisOptionsSchema.omit({ protectedSkills: true }).shape)
  .strict();
const preferenceInferenceSchema = switchSchema.extend(preferenceInferenceOptionsSchema.shape).strict();
/** SPEC B13: tiers are opt-in (`enabled` false by default; see docs/operations.md, "Hot and cold tiers", for why). */
const tiersSchema = z
  .object({ enabled: z.boolean().default(false) })
  .extend(tierMigrationOptionsSchema.shape)
  .strict()
  .refine(tierThresholdsHold, TIER_THRESHOLDS_ISSUE);

/** SPEC D14: the dream cycle's options, validated with defaults. */
export const dreamingOptionsSchema = z
  .object({
    /** Master switch of the scheduled cycle (default true). */
    enabled: z.boolean().default(true),
    /** Wait after start before the first cycle: ms or a string like "5m" (default 5 minutes). */
    initialDelay: durationSchema.default(5 * 60_000),
    /** Time between cycles: ms or a string like "4h" (default 4 hours). */
    interval: durationSchema.default(4 * 60 * 60_000),
    /** O3: gates every trigger goes through (time, sessions, recall signal); none by default. */
    gates: dreamGateOptionsSchema.default({}),
    /** O2: how often the ticker re-checks the gates while started (default "30m"); only runs when a gate is set. */
    checkInterval: durationSchema.refine((ms) => ms > 0, 'checkInterval must be positive').default(30 * 60_000),
    /** O2: quiet time after the last `onSessionEnd` before the session-end trigger fires (default "10m"). */
    sessionEndDebounce: durationSchema.default(10 * 60_000),
    /** Review before apply: a dry run's plan older than this is refused by `dreams.apply` (default "24h"). */
    planMaxAge: durationSchema.refine((ms) => ms > 0, 'planMaxAge must be positive').default(24 * 60 * 60_000),
    /**
     * The longest model reply read at all, in characters (default 100,000): a longer reply is
     * refused before it is parsed, so no reply can hold up the process (SPEC B11).
     */
    maxReplyChars: z.number().int().min(1_000).max(10_000_000).default(100_000),
    /**
     * O3: a dream lock of another host whose heartbeat stood still this many minutes may be taken
     * over (default 60). Applies to the default state in the data directory.
     */
    staleLockMinutes: z.number().positive().default(DEFAULT_STALE_LOCK_MINUTES),
    /**
     * Where the dream engine keeps its own state — runs, plans, the ledger, cursors, recall
     * signals, the lock (a `DreamStateStore`). Default: the data directory's `_system/dreams/`
     * (`FileDreamStateStore`). The host owns a store it passes and closes it after `close()`.
     */
    state: z
      .custom<DreamStateStore>((value) => isDreamStateStore(value), {
        message: 'must be a DreamStateStore (runs, deadLetters, plans, ledger, sessions, cursors, recall, lock, close)',
      })
      .optional(),
    /** O3: where the signal gate counts unpromoted recall candidates; without one the signal gate passes. */
    signalSource: z
      .custom<SignalSource>(
        (value) => typeof value === 'object' && value !== null && typeof (value as SignalSource).unpromotedCandidates === 'function',
        {
          message: 'must have unpromotedCandidates({ minRecallCount, minScore })',
        },
      )
      .optional(),
    /** D8: create skills from requests that recur across sessions (maxTurnsPerRun 2000, tokenBudget 12000, minSessions 2). */
    skillGap: skillGapSchema.prefault({}),
    /** D9: merge overlapping skills, add guides per prefix cluster, fill seeAlso, prune. */
    skillConsolidation: skillConsolidationSchema.prefault({}),
    /** D10: rewrite skills used in sessions that went wrong, and expand sparse ones. */
    skillOptimization: skillOptimizationSchema.prefault({}),
    /** D11: infer durable preferences from the conversation log, then clear what every reader has read. */
    preferenceInference: preferenceInferenceSchema.prefault({}),
    /** D12: annotate skills behind recurring workflow failures; report consistent successes. */
    workflowFailureAnalysis: workflowFailureAnalysisSchema.prefault({}),
    /**
     * D7: the importance-decay pass. Importance decays at read time, so by default it writes
     * and reads nothing; `report: true` counts what has decayed (a read of every entry),
     * `write: true` stores decayed values. The curve itself is `.withMemory({ decay })`.
     */
    importanceDecay: importanceDecayOptionsSchema.default(() => importanceDecayOptionsSchema.parse({})),
    /** O4: how recall events become a score (weights 0.30/0.35/0.20/0.15, recency half-life 14 days). */
    recallSignals: recallSignalsOptionsSchema.prefault({}),
    /** O4: the deep-sleep promotion pass (minRecallCount 3, minScore 0.6, maxPerRun 20, importanceStep 0.15). */
    promotion: promotionOptionsSchema.prefault({}),
    /**
     * B13: the deep-sleep tier-migration pass and the value score it moves entries by (opt-in:
     * enabled false; minAgeDays 14, demoteBelow 0.35, promoteAbove 0.7, maxMovesPerRun 500).
     */
    tiers: tiersSchema.prefault({}),
    /** D3–D5, B1, B4, B7: the memory-consolidation pass. */
    consolidation: memoryConsolidationOptionsSchema.default(() => memoryConsolidationOptionsSchema.parse({})),
    /** D6: the episode-extraction pass (maxTurnsPerRun 400, tokenBudget 12000, category "episodes"). */
    episodes: episodeExtractionOptionsSchema.default(() => episodeExtractionOptionsSchema.parse({})),
    /** O7, O8: how long run folders (and so undo) are kept (retentionDays 90). */
    archive: archiveRetentionOptionsSchema.default(() => archiveRetentionOptionsSchema.parse({})),
    /**
     * SPEC E4: the host's own passes (docs/dream-passes.md, "Writing your own pass"). Each runs in
     * its phase after the built-in passes of that phase, journaled, undoable and gated like them;
     * passes registered in the host's container under `TOKENS.DreamPass` join these.
     */
    passes: hostPassesSchema.default([]),
  })
  .strict();
export type DreamingOptions = z.output<typeof dreamingOptionsSchema>;
export type DreamingOptionsInput = z.input<typeof dreamingOptionsSchema>;

const STATE_PARTS = ['runs', 'deadLetters', 'plans', 'ledger', 'sessions', 'cursors', 'recall', 'lock'] as const;

/** Whether `value` has every part of a `DreamStateStore` and a `close` method. */
function isDreamStateStore(value: unknown): value is DreamStateStore {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.close === 'function' && STATE_PARTS.every((part) => typeof record[part] === 'object' && record[part] !== null);
}
