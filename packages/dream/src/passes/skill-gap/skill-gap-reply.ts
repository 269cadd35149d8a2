import { z } from 'zod';

const names = z
  .array(z.string())
  .nullish()
  .transform((list) => list ?? []);

/**
 * SPEC D8, D15: what the model answers for one call. Lenient on purpose (a missing list is
 * empty, `null` means absent): every proposed skill is checked by the host afterwards, one at a
 * time (`SkillGapReview`), so one bad proposal is refused without losing the rest.
 */
export const skillGapReplySchema = z.object({
  skills: z
    .array(
      z.object({
        name: z.string(),
        summary: z.string(),
        content: z.string(),
        sessionIds: names,
        seeAlso: names,
      }),
    )
    .nullish()
    .transform((skills) => skills ?? []),
});
export type SkillGapReply = z.output<typeof skillGapReplySchema>;
export type ProposedSkill = SkillGapReply['skills'][number];
