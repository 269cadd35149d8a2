import { z } from 'zod';

const names = z
  .array(z.string())
  .nullish()
  .transform((list) => list ?? undefined);

/**
 * SPEC D9, D15: what the model answers for one call. Lenient on purpose (missing lists are
 * empty, `null` means absent): every item is checked by the guards afterwards, one at a time
 * (`reviewSkillReply`), so one bad item is refused without losing the rest of the reply.
 *
 * `seeAlso` absent means "keep what the skill had" (the union of the sources for a merge);
 * an empty list means "none". `summary` absent or blank keeps the target's (or the first
 * source's) summary.
 */
export const skillConsolidationReplySchema = z.object({
  toDelete: z
    .array(z.string())
    .nullish()
    .transform((list) => list ?? []),
  toSave: z
    .array(
      z.object({
        name: z.string(),
        summary: z
          .string()
          .nullish()
          .transform((summary) => summary ?? undefined),
        content: z.string(),
        seeAlso: names,
        sourceNames: names,
      }),
    )
    .nullish()
    .transform((list) => list ?? []),
});
export type SkillConsolidationReply = z.output<typeof skillConsolidationReplySchema>;
export type ProposedSkill = SkillConsolidationReply['toSave'][number];
