import { join } from 'node:path';
import {
  assertOpen,
  type FeedbackDraft,
  type FeedbackListOptions,
  type FeedbackSignal,
  feedbackSignalSchema,
  type IClock,
  type IFeedbackStore,
  type ILogger,
  newId,
  selectFeedback,
  silentLogger,
  systemClock,
  validateRange,
} from '@reverie/core';
import { parseDraft } from '@reverie/core/internal';
import { DirectoryLock } from '../fs/directory-lock';
import { validateStoreOptions } from '../options/validate-store-options';
import { JsonlFile } from './jsonl-file';

export interface FileFeedbackStoreOptions {
  /** The agent's data directory; signals go to `<dataPath>/logs/feedback.jsonl`. */
  dataPath: string;
  clock?: IClock;
  logger?: ILogger;
}

/**
 * The default `IFeedbackStore` (SPEC M12): one JSON line per signal in
 * `<dataPath>/logs/feedback.jsonl`, safe for several processes on one data directory.
 */
export class FileFeedbackStore implements IFeedbackStore {
  private readonly clock: IClock;
  private readonly file: JsonlFile<FeedbackSignal>;
  private closed = false;

  constructor(options: FileFeedbackStoreOptions) {
    const valid = validateStoreOptions(options, 'FileFeedbackStore');
    this.clock = valid.clock ?? systemClock;
    const logger = valid.logger ?? silentLogger;
    const dir = join(valid.dataPath, 'logs');
    this.file = new JsonlFile({
      path: join(dir, 'feedback.jsonl'),
      schema: feedbackSignalSchema,
      lock: new DirectoryLock(dir, { logger }),
      logger,
      clock: this.clock,
      what: 'feedback signal',
    });
  }

  async record(signal: FeedbackDraft): Promise<FeedbackSignal> {
    this.assertOpen();
    const record = parseDraft(
      feedbackSignalSchema,
      { ...signal, id: signal?.id ?? newId(), timestamp: signal?.timestamp ?? this.clock.now().toISOString() },
      'feedback signal',
    );
    await this.file.append([record]);
    return { ...record };
  }

  async list(options: FeedbackListOptions = {}): Promise<FeedbackSignal[]> {
    this.assertOpen();
    validateRange(options);
    const { records } = await this.file.read();
    return selectFeedback(records, options);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.file.idle();
  }

  private assertOpen(): void {
    assertOpen(this.closed, 'feedback store');
  }
}
