import type { IClock } from '../interfaces/clock';
import type { FeedbackListOptions, IFeedbackStore } from '../interfaces/feedback-store';
import { newId } from '../ids/new-id';
import { type FeedbackDraft, type FeedbackSignal, feedbackSignalSchema } from '../schemas/feedback-signal';
import { parseDraft } from '../schemas/parse-record';
import { assertOpen } from '../stores/write-condition';
import { selectFeedback } from '../stores/record-selectors';
import { systemClock } from '../time/system-clock';
import type { InMemoryStoreOptions } from './in-memory-store-options';

/** The reference `IFeedbackStore`: signals in an array. Nothing persists. */
export class InMemoryFeedbackStore implements IFeedbackStore {
  private readonly signals: FeedbackSignal[] = [];
  private readonly clock: IClock;
  private closed = false;

  constructor(options: InMemoryStoreOptions = {}) {
    this.clock = options.clock ?? systemClock;
  }

  async record(signal: FeedbackDraft): Promise<FeedbackSignal> {
    assertOpen(this.closed, 'feedback store');
    const record = parseDraft(
      feedbackSignalSchema,
      { ...signal, id: signal?.id ?? newId(), timestamp: signal?.timestamp ?? this.clock.now().toISOString() },
      'feedback signal',
    );
    this.signals.push(record);
    return { ...record };
  }

  async list(options: FeedbackListOptions = {}): Promise<FeedbackSignal[]> {
    assertOpen(this.closed, 'feedback store');
    return selectFeedback(this.signals, options);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
