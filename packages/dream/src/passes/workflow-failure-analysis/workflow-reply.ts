import { z } from 'zod';

/**
 * SPEC D12, D15: what the model answers: one note per failing workflow it was shown. Lenient
 * (a missing list is empty): each item is checked by the host, which accepts only descriptions
 * it sent.
 */
export const workflowReplySchema = z.object({
  annotations: z
    .array(z.object({ description: z.string(), note: z.string() }))
    .nullish()
    .transform((annotations) => annotations ?? []),
});
export type WorkflowReply = z.output<typeof workflowReplySchema>;
