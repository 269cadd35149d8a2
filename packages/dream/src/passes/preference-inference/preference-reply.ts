import { z } from 'zod';

/** A turn number the model cites: a number, or a string such as "12" or "#12" (anything else is kept as NaN and ignored). */
const seqField = z
  .union([z.number(), z.string()])
  .transform((value) => (typeof value === 'number' ? value : Number(value.trim().replace(/^#/, ''))));

/**
 * SPEC D11, D15: what the model answers. Lenient on purpose (a missing list is empty, `null`
 * means absent, `strength` is any string): every item is checked by the host afterwards, one at
 * a time (`PreferenceLedger`), so one bad item is refused without losing the rest of the reply.
 */
export const preferenceReplySchema = z.object({
  preferences: z
    .array(
      z.object({
        content: z.string(),
        topic: z
          .string()
          .nullish()
          .transform((topic) => (topic == null || topic.trim() === '' ? undefined : topic.trim())),
        strength: z.string().transform((strength) => strength.trim().toLowerCase()),
        evidence: z
          .array(seqField)
          .nullish()
          .transform((seqs) => seqs ?? []),
        requiresUserPermission: z
          .boolean()
          .nullish()
          .transform((flag) => flag ?? false),
        tags: z
          .array(z.string())
          .nullish()
          .transform((tags) => tags ?? []),
      }),
    )
    .nullish()
    .transform((preferences) => preferences ?? []),
});
export type PreferenceReply = z.output<typeof preferenceReplySchema>;
export type ProposedPreference = PreferenceReply['preferences'][number];
