import { z } from 'zod';
import { dreamPhaseSchema } from './dream-phase';
import { dreamOperationSchema } from './dream-operation';

/** One pass of a saved plan: what its dry run decided, everything `apply` needs and nothing more. */
export const savedPassSchema = z.discriminatedUnion('status', [
  z.object({ name: z.string(), phase: dreamPhaseSchema, status: z.literal('skipped'), reason: z.string() }),
  /** The pass could not plan (its model call failed, say): applying the plan records it as failed. */
  z.object({ name: z.string(), phase: dreamPhaseSchema, status: z.literal('failed'), error: z.string() }),
  z.object({
    name: z.string(),
    phase: dreamPhaseSchema,
    status: z.literal('planned'),
    itemsProcessed: z.number(),
    /** In the order the engine applies them (saves, then deletes, then log clears). */
    operations: z.array(dreamOperationSchema),
    notes: z.array(z.string()),
    refusals: z.array(z.string()),
    misbehaviour: z.array(z.string()).optional(),
    proposals: z
      .object({ proposed: z.number(), accepted: z.number(), acceptedFirstTry: z.number().optional(), repairs: z.number().optional() })
      .optional(),
    details: z.record(z.string(), z.unknown()).optional(),
    failure: z.string().optional(),
    /** The pass's bookkeeping after apply (`PassPlan.commit`). */
    commit: z.unknown().optional(),
  }),
]);
export type SavedPass = z.infer<typeof savedPassSchema>;

/** `_system/dreams/plans/<planId>/plan.json`: written once by a dry run, never changed. */
export const savedPlanSchema = z.object({
  schemaVersion: z.literal(1),
  planId: z.string(),
  createdAt: z.string(),
  /** The trigger of the dry run that made the plan. */
  trigger: z.string(),
  /** The dry run's id, which the lineage its saves record names until a run applies it (SPEC B10). Absent in plans made before. */
  runId: z.string().optional(),
  /** Why the dry run stopped early, when it did: passes after that point are not in the plan. */
  interrupted: z.string().optional(),
  passes: z.array(savedPassSchema),
});
export type SavedPlan = z.infer<typeof savedPlanSchema>;

/** `applied.json` beside the plan: written, under the dream lock, before the plan's run touches a store. */
export const planAppliedSchema = z.object({ runId: z.string(), appliedAt: z.string() });
export type PlanApplied = z.infer<typeof planAppliedSchema>;
