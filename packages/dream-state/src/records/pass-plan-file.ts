import { z } from 'zod';
import { dreamOperationSchema } from './dream-operation';

/** A pass's validated plan as a run records it before applying it (SPEC B2). */
export const passPlanFileSchema = z.object({
  pass: z.string(),
  operations: z.array(dreamOperationSchema),
  notes: z.array(z.string()),
  refusals: z.array(z.string()),
  /** Replies refused whole for breaking a run-level budget (SPEC B11). */
  misbehaviour: z.array(z.string()).optional(),
  /** The pass's bookkeeping after apply (`PassPlan.commit`), handed to `DreamPass.commit`. */
  commit: z.unknown().optional(),
});
export type PassPlanFile = z.infer<typeof passPlanFileSchema>;
