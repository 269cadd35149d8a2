import { z } from 'zod';

/** The signal gate: enough recalled, high-scoring memories waiting for promotion (SPEC O3, O4). */
export const signalGateOptionsSchema = z
  .object({
    /** At least this many unpromoted candidates (default 1). */
    minUnpromoted: z.number().int().positive().default(1),
    /** A candidate counts once recalled at least this many times (default 3). */
    minRecallCount: z.number().int().positive().default(3),
    /** …and with a recall score at least this high, 0–1 (default 0.6, the promotion pass's threshold). */
    minScore: z.number().min(0).max(1).default(0.6),
  })
  .strict();
export type SignalGateOptions = z.output<typeof signalGateOptionsSchema>;

/**
 * The gates a trigger goes through (SPEC O3), each optional: without any, every trigger that
 * finds the cycle enabled and the lock free runs a cycle (the interval schedule of SPEC D1).
 */
export const dreamGateOptionsSchema = z
  .object({
    /** Hours since the last successful run before another may start. */
    minHours: z.number().positive().optional(),
    /** Completed sessions (`onSessionEnd`) since the last successful run before another may start. */
    minSessions: z.number().int().positive().optional(),
    /** Enough unpromoted recall candidates; needs a signal source to matter. */
    signal: signalGateOptionsSchema.optional(),
  })
  .strict();
export type DreamGateOptions = z.output<typeof dreamGateOptionsSchema>;
export type DreamGateOptionsInput = z.input<typeof dreamGateOptionsSchema>;
