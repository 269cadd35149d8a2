import { z } from 'zod';

/**
 * SPEC D10, D15: what the model answers for one call. Lenient on purpose (a missing list is
 * empty, `null` means absent): every rewrite is checked by the host afterwards, one at a time
 * (`SkillOptimizationReview`), so one bad rewrite is refused without losing the rest.
 */
export const skillOptimizationReplySchema = z.object({
  toSave: z
    .array(
      z.object({
        name: z.string(),
        summary: z.string(),
        content: z.string(),
        /** Absent: the skill keeps its related skills. */
        seeAlso: z
          .array(z.string())
          .nullish()
          .transform((list) => list ?? undefined),
        /** Why a rewrite is shorter than the original; without it a shorter rewrite is refused. */
        shorterBecause: z
          .string()
          .nullish()
          .transform((text) => (text == null || text.trim() === '' ? undefined : text.trim())),
      }),
    )
    .nullish()
    .transform((toSave) => toSave ?? []),
});
export type SkillOptimizationReply = z.output<typeof skillOptimizationReplySchema>;
export type ProposedRewrite = SkillOptimizationReply['toSave'][number];
