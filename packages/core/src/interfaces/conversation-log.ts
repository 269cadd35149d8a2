import type { TimeInput } from '../schemas/common';
import type { ConversationTurnDraft, LoggedTurn } from '../schemas/conversation-turn';

export interface ConversationLogReadOptions {
  /** Only turns with a larger `seq`. */
  afterSeq?: number;
  /** Only turns at or after this ISO timestamp. */
  since?: TimeInput;
  /** Only turns before this ISO timestamp. */
  until?: TimeInput;
  sessionId?: string;
  /** At most this many turns (the oldest first). */
  limit?: number;
}

/**
 * SPEC M10: the persistent log of turns that the dream cycle reads. Turns come back in the
 * order they were appended (ascending `seq`).
 */
export interface IConversationLog {
  append(turn: ConversationTurnDraft): Promise<LoggedTurn>;
  read(options?: ConversationLogReadOptions): Promise<LoggedTurn[]>;
  /**
   * Removes turns with `seq <= throughSeq` (every turn when omitted) and returns how many were
   * removed. Turns appended after the caller's read survive a `clear({ throughSeq })`.
   */
  clear(options?: { throughSeq?: number }): Promise<number>;
  close(): Promise<void>;
}
