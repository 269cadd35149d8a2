import { z } from 'zod';

/**
 * SPEC D15: what the model answers for one call. Lenient on purpose (missing lists are empty,
 * `null` means absent): every field is checked by the guards afterwards, one item at a time,
 * so one bad item is refused without losing the rest of the reply.
 */
export const consolidationReplySchema = z.object({
  toDelete: z.array(z.string()).nullish().transform((ids) => ids ?? []),
  toSave: z
    .array(
      z.object({
        content: z.string(),
        category: z.string().nullish(),
        tags: z.array(z.string()).nullish(),
        sourceIds: z.array(z.string()).nullish(),
      }),
    )
    .nullish()
    .transform((saves) => saves ?? []),
});
export type ConsolidationReply = z.output<typeof consolidationReplySchema>;
