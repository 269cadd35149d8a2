import { z } from 'zod';

/**
 * SPEC D15: what the model answers for one call. Lenient on purpose (missing lists are empty,
 * `null` means absent): every field is checked by the guards afterwards, one item at a time,
 * so one bad item is refused without losing the rest of the reply.
 */
export const consolidationReplySchema = z.object({
  toDelete: z
    .array(z.string())
    .nullish()
    .transform((ids) => ids ?? []),
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
  /** SPEC B9: pairs where a newer shown entry replaces an older one; the host dates the change. */
  toSupersede: z
    .array(z.object({ olderId: z.string(), newerId: z.string() }))
    .nullish()
    .transform((pairs) => pairs ?? []),
});
export type ConsolidationReply = z.output<typeof consolidationReplySchema>;
