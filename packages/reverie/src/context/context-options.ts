import { z } from 'zod';

/** Options of the per-turn context (SPEC M11). */
export const contextOptionsSchema = z
  .object({
    /** Entries recalled by BM25 for a user message (default 8). */
    recallResults: z.number().int().min(1).max(100).default(8),
    /** On a session's first turn with no match, up to this many entries without a query (default 5). */
    firstTurnFallback: z.number().int().min(0).max(100).default(5),
    /** Turns of the session replayed to the model (default 20). */
    replayTurns: z.number().int().min(0).max(1000).default(20),
  })
  .strict();
export type ContextOptions = z.output<typeof contextOptionsSchema>;
export type ContextOptionsInput = z.input<typeof contextOptionsSchema>;
