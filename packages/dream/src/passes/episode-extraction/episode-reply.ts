import { z } from 'zod';

/** A date the model gives: `null` and blank strings mean absent. */
const dateField = z
  .string()
  .nullish()
  .transform((value) => (value == null || value.trim() === '' ? undefined : value.trim()));

/**
 * SPEC D6, D15: what the model answers for one call. Lenient on purpose (a missing list is
 * empty, `null` means absent): every item is checked by the host afterwards, one at a time
 * (`EpisodeLedger`), so one bad episode is refused without losing the rest of the reply.
 */
export const episodeReplySchema = z.object({
  episodes: z
    .array(
      z.object({
        content: z.string(),
        when: z
          .object({ point: dateField, start: dateField, end: dateField })
          .nullish()
          .transform((when) => when ?? { point: undefined, start: undefined, end: undefined }),
        tags: z
          .array(z.string())
          .nullish()
          .transform((tags) => tags ?? []),
        sessionIds: z
          .array(z.string())
          .nullish()
          .transform((ids) => ids ?? []),
        revisits: z
          .string()
          .nullish()
          .transform((id) => (id == null || id.trim() === '' ? undefined : id.trim())),
      }),
    )
    .nullish()
    .transform((episodes) => episodes ?? []),
});
export type EpisodeReply = z.output<typeof episodeReplySchema>;
export type ProposedEpisode = EpisodeReply['episodes'][number];
