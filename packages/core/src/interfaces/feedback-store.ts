import type { TimeInput } from '../schemas/common';
import type { FeedbackDraft, FeedbackKind, FeedbackSignal } from '../schemas/feedback-signal';

export interface FeedbackListOptions {
  since?: TimeInput;
  until?: TimeInput;
  sessionId?: string;
  kinds?: FeedbackKind[];
  /** At most this many signals: the most recent ones, still returned oldest first. */
  limit?: number;
}

/** SPEC M12: feedback signals about sessions, oldest first. */
export interface IFeedbackStore {
  record(signal: FeedbackDraft): Promise<FeedbackSignal>;
  list(options?: FeedbackListOptions): Promise<FeedbackSignal[]>;
  close(): Promise<void>;
}
