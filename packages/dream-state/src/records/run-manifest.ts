import { z } from 'zod';

/** What a run's manifest (`run.json` for files) says of it (SPEC O7). */
export const runStatusSchema = z.enum(['running', 'complete', 'failed', 'interrupted', 'undone']);
export type RunStatus = z.infer<typeof runStatusSchema>;

export const runManifestSchema = z.object({
  schemaVersion: z.literal(1),
  runId: z.string(),
  trigger: z.string(),
  startedAt: z.string(),
  completedAt: z.string().optional(),
  status: runStatusSchema,
  /** Passes in the order they were planned; each has a plan file once planned. */
  passes: z.array(z.string()),
  /** A pass whose plan is written and whose apply has not finished. */
  applying: z.string().optional(),
  undoneAt: z.string().optional(),
  /** The run whose failed passes this run retried. */
  retryOf: z.string().optional(),
  /** The saved plan (of a dry run) this run applied. */
  planId: z.string().optional(),
});
export type RunManifest = z.infer<typeof runManifestSchema>;
