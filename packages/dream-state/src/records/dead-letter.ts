import { z } from 'zod';

const failedPassSchema = z.object({ name: z.string(), error: z.string().optional() });

/**
 * A run with a failed pass leaves `_system/dreams/failures/<runId>.json` (SPEC O7): which passes
 * failed and why. `retry` re-runs those passes and removes the dead letter once they succeed; a
 * retry that fails again is recorded on the same dead letter.
 */
export const deadLetterSchema = z.object({
  runId: z.string(),
  trigger: z.string(),
  failedAt: z.string(),
  passes: z.array(failedPassSchema),
  /** Where the run's records are (its folder, for files): absent when the state store has no place to show. */
  runFolder: z.string().optional(),
  /** The latest retry that did not succeed. */
  lastRetry: z.object({ runId: z.string(), at: z.string(), passes: z.array(failedPassSchema.extend({ status: z.string() })) }).optional(),
  retries: z.number().int().nonnegative().optional(),
});
export type DeadLetter = z.infer<typeof deadLetterSchema>;
