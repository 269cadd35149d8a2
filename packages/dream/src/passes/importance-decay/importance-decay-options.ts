import { z } from 'zod';
import { DEFAULT_DECAY_OPTIONS } from '@reverie/core';

export const importanceDecayOptionsSchema = z
  .object({
    /** Days after lastSeenAt before decay starts (default 30). */
    graceDays: z.number().nonnegative().default(DEFAULT_DECAY_OPTIONS.graceDays),
    /** Half-life in days; 0 or less turns decay off (default 45). */
    halfLifeDays: z.number().default(DEFAULT_DECAY_OPTIONS.halfLifeDays),
    /** Importance never decays below this (default 0.10). */
    floor: z.number().min(0).max(1).default(DEFAULT_DECAY_OPTIONS.floor),
  })
  .strict();
export type ImportanceDecayOptions = z.output<typeof importanceDecayOptionsSchema>;
