import { z } from 'zod';
import {
  archiveRetentionOptionsSchema,
  episodeExtractionOptionsSchema,
  importanceDecayOptionsSchema,
  memoryConsolidationOptionsSchema,
  preferenceInferenceOptionsSchema,
  skillConsolidationOptionsSchema,
  skillGapOptionsSchema,
  skillOptimizationOptionsSchema,
  workflowFailureAnalysisOptionsSchema,
} from '@reverie/dream';
import { durationSchema } from '../options/duration';

const switchSchema = z.object({ enabled: z.boolean().default(true) }).strict();

/**
 * The skill passes' options with an `enabled` switch beside them. `protectedSkills` is left out:
 * the skill passes take it from `.withSkills({ protected })`, so it is written once.
 */
const skillGapSchema = switchSchema.extend(skillGapOptionsSchema.omit({ protectedSkills: true }).shape).strict();
const skillConsolidationSchema = switchSchema.extend(skillConsolidationOptionsSchema.omit({ protectedSkills: true }).shape).strict();
const skillOptimizationSchema = switchSchema.extend(skillOptimizationOptionsSchema.omit({ protectedSkills: true }).shape).strict();
const workflowFailureAnalysisSchema = switchSchema.extend(workflowFailureAnalysisOptionsSchema.omit({ protectedSkills: true }).shape).strict();
const preferenceInferenceSchema = switchSchema.extend(preferenceInferenceOptionsSchema.shape).strict();

/** SPEC D14: the dream cycle's options, validated with defaults. */
export const dreamingOptionsSchema = z
  .object({
    /** Master switch of the scheduled cycle (default true). */
    enabled: z.boolean().default(true),
    /** Wait after start before the first cycle: ms or a string like "5m" (default 5 minutes). */
    initialDelay: durationSchema.default(5 * 60_000),
    /** Time between cycles: ms or a string like "4h" (default 4 hours). */
    interval: durationSchema.default(4 * 60 * 60_000),
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
    /** D7: the importance-decay pass (graceDays 30, halfLifeDays 45, floor 0.1). */
    importanceDecay: importanceDecayOptionsSchema.default(importanceDecayOptionsSchema.parse({})),
    /** D3–D5, B1, B4, B7: the memory-consolidation pass. */
    consolidation: memoryConsolidationOptionsSchema.default(memoryConsolidationOptionsSchema.parse({})),
    /** D6: the episode-extraction pass (maxTurnsPerRun 400, tokenBudget 12000, category "episodes"). */
    episodes: episodeExtractionOptionsSchema.default(episodeExtractionOptionsSchema.parse({})),
    /** O7, O8: how long run folders (and so undo) are kept (retentionDays 90). */
    archive: archiveRetentionOptionsSchema.default(archiveRetentionOptionsSchema.parse({})),
  })
  .strict();
export type DreamingOptions = z.output<typeof dreamingOptionsSchema>;
export type DreamingOptionsInput = z.input<typeof dreamingOptionsSchema>;
