import { z } from 'zod';
import { dreamPhaseSchema } from './dream-phase';

/**
 * One line of the telemetry ledger (SPEC O5): what one pass of one run did. Dry runs write no
 * line, so `dryRun` is always false; it is kept so a reader never has to guess.
 */
export const ledgerLineSchema = z.object({
  schemaVersion: z.literal(1),
  runId: z.string().min(1),
  /** When the pass started and ended (the engine's clock, ISO 8601). */
  startedAt: z.string(),
  completedAt: z.string(),
  /** Wall time the pass took. */
  durationMs: z.number().nonnegative(),
  phase: dreamPhaseSchema,
  pass: z.string().min(1),
  /** `warning`: the model proposed changes and none was applied (`warning` says why). */
  status: z.enum(['ok', 'warning', 'failed', 'skipped']),
  /** Items the pass looked at (entries, skills, turns…); 0 when skipped. */
  itemsProcessed: z.number().int().nonnegative(),
  /** Operations applied to the stores. */
  applied: z.number().int().nonnegative(),
  dryRun: z.literal(false),
  /** What started the run: 'schedule', 'tick', 'session-end', 'manual', 'retry'… */
  trigger: z.string(),
  tokens: z.object({ input: z.number().nonnegative(), output: z.number().nonnegative() }),
  /** The pass's notes; for a skipped pass, why it was skipped. */
  notes: z.array(z.string()),
  /** Why the pass failed. */
  error: z.string().optional(),
  /** Why the outcome is a warning. */
  warning: z.string().optional(),
  /** What the guards refused (items and replies), and replies refused whole for breaking a budget (SPEC B11). */
  refusals: z.number().int().nonnegative().optional(),
  misbehaviour: z.number().int().nonnegative().optional(),
  /** Entries whose refused merge will be offered to the model again on a later run. */
  pendingRetries: z.number().int().nonnegative().optional(),
});
export type LedgerLine = z.infer<typeof ledgerLineSchema>;
