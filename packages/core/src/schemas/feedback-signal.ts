import { z } from 'zod';
import { idSchema, timestampSchema } from './common';
import { sessionIdSchema } from './conversation-turn';

export const feedbackKindSchema = z.enum(['correction', 'session-summary', 'positive', 'negative']);
export type FeedbackKind = z.infer<typeof feedbackKindSchema>;

export const sessionRatingSchema = z.enum(['poor', 'fair', 'good', 'excellent']);
export type SessionRating = z.infer<typeof sessionRatingSchema>;

const feedbackFields = {
  id: idSchema,
  kind: feedbackKindSchema,
  sessionId: sessionIdSchema,
  text: z.string().max(65_536),
  /** Required for `session-summary`, absent otherwise. */
  rating: sessionRatingSchema.optional(),
  timestamp: timestampSchema,
};

function checkRating(value: { kind: FeedbackKind; rating?: SessionRating | undefined }, ctx: z.RefinementCtx) {
  if (value.kind === 'session-summary' && value.rating === undefined) {
    ctx.addIssue({ code: 'custom', path: ['rating'], message: 'a session-summary needs a rating (poor, fair, good or excellent)' });
  }
  if (value.kind !== 'session-summary' && value.rating !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['rating'], message: `only session-summary signals carry a rating, not ${value.kind}` });
  }
}

/** SPEC M12: one feedback signal about a session. */
export const feedbackSignalSchema = z.object(feedbackFields).superRefine(checkRating);
export type FeedbackSignal = z.infer<typeof feedbackSignalSchema>;

/** A signal to record; the store assigns `id` and, when left out, `timestamp`. */
export const feedbackDraftSchema = z
  .object({ ...feedbackFields, id: idSchema.optional(), timestamp: timestampSchema.optional() })
  .superRefine(checkRating);
export type FeedbackDraft = z.input<typeof feedbackDraftSchema>;
