import { z } from 'zod';
import { idSchema, skillNameSchema, timestampSchema } from './common';

/** SPEC D12: the record of one workflow run, which the failure-analysis pass learns from. */
export const workflowExecutionSchema = z
  .object({
    id: idSchema,
    /** What the workflow was for; runs are grouped by this text. */
    description: z.string().min(1).max(2000),
    /** The skill that produced the workflow definition, when there is one. */
    skill: skillNameSchema.optional(),
    success: z.boolean(),
    /** Which step failed (failures only). */
    failedStep: z.string().max(2000).optional(),
    /** The error the failed step reported (failures only). */
    error: z.string().max(65_536).optional(),
    timestamp: timestampSchema,
    durationMs: z.number().nonnegative().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.success && (value.failedStep !== undefined || value.error !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['success'], message: 'a successful run has no failedStep or error' });
    }
  });
export type WorkflowExecution = z.infer<typeof workflowExecutionSchema>;

export const workflowExecutionDraftSchema = z.object({
  id: idSchema.optional(),
  description: z.string().min(1).max(2000),
  skill: skillNameSchema.optional(),
  success: z.boolean(),
  failedStep: z.string().max(2000).optional(),
  error: z.string().max(65_536).optional(),
  timestamp: timestampSchema.optional(),
  durationMs: z.number().nonnegative().optional(),
});
export type WorkflowExecutionDraft = z.input<typeof workflowExecutionDraftSchema>;
