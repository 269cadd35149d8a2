import { z } from 'zod';
import { timestampSchema } from './common';

export const sessionIdSchema = z.string().min(1, 'a session id cannot be empty').max(200, 'a session id is at most 200 characters');

export const turnRoleSchema = z.enum(['user', 'assistant', 'system', 'tool']);
export type TurnRole = z.infer<typeof turnRoleSchema>;

/** SPEC M9: one turn of a conversation. */
export const conversationTurnSchema = z.object({
  sessionId: sessionIdSchema,
  role: turnRoleSchema,
  content: z.string().max(1_000_000),
  timestamp: timestampSchema,
});
export type ConversationTurn = z.infer<typeof conversationTurnSchema>;

/** A turn to append; the log stamps `timestamp` from its clock when it is left out. */
export const conversationTurnDraftSchema = conversationTurnSchema.extend({ timestamp: timestampSchema.optional() });
export type ConversationTurnDraft = z.input<typeof conversationTurnDraftSchema>;

/** SPEC M10: a turn as the conversation log holds it, with its position in the log. */
export const loggedTurnSchema = conversationTurnSchema.extend({
  /** Strictly increasing over the life of the log, also across `clear()`. */
  seq: z.number().int().positive(),
});
export type LoggedTurn = z.infer<typeof loggedTurnSchema>;
