import type { IClock, ILogger } from '@reverie/core';
import { type RecallEvent, type RecallSource, type RecallStateStore } from '@reverie/dream-state';

/** A search's results as the recorder takes them: ids with their raw scores. */
export interface RecalledResult {
  entryId: string;
  score: number;
}

/** How the runtime reports what its searches returned; implementations must never throw into a search. */
export interface RecallRecorder {
  record(results: readonly RecalledResult[], source: RecallSource): void;
}

/** How long recorded events wait before they are written, by default: one write gathers every turn of that time. */
export const RECALL_EVENTS_FLUSH_MS = 200;

/**
 * SPEC O4: records what searches returned without slowing them. `record` only pushes onto an
 * in-memory buffer; the buffer is appended to the state store's recall events
 * (`_system/dreams/recall-events.jsonl` for files) in one write `flushMs` after the first event
 * it holds (or at `flush()` / `close()`, which the runtime calls before a dream cycle reads
 * them), so under load one write carries the events of many turns instead of one write per
 * turn of the event loop. A failed write is logged and dropped:
 * recall signals are a hint, the search result never depends on them.
 */
export class RecallEventLog implements RecallRecorder {
  private buffer: RecallEvent[] = [];
  private pending: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly flushMs: number;

  constructor(
    private readonly services: { events: Pick<RecallStateStore, 'appendEvents'>; clock: IClock; logger: ILogger; flushMs?: number },
  ) {
    this.flushMs = services.flushMs ?? RECALL_EVENTS_FLUSH_MS;
  }

  record(results: readonly RecalledResult[], source: RecallSource): void {
    if (this.closed || results.length === 0) return;
    const best = Math.max(...results.map((result) => result.score));
    const at = this.services.clock.now().toISOString();
    for (const { entryId, score } of results) {
      const relevance = best > 0 && Number.isFinite(score) ? Math.min(1, Math.max(0, score / best)) : 0;
      this.buffer.push({ at, entryId, relevance, source });
    }
    // Not unref'd: a process that ends right after a search still writes what it recorded.
    this.timer ??= setTimeout(() => void this.flush(), this.flushMs);
  }

  /** Writes what is buffered; resolves when it is on disk (or the failure was logged). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = this.pending.then(() => this.writeBuffered());
    return this.pending;
  }

  /** Flushes and stops recording. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  private async writeBuffered(): Promise<void> {
    const batch = this.buffer;
    if (batch.length === 0) return;
    this.buffer = [];
    try {
      await this.services.events.appendEvents(batch);
    } catch (error) {
      this.services.logger.warn(
        "Could not record recall events: they are dropped, so the recall-signals pass and promotion will not count these recalls (search results are not affected). Check that the dream state (the data directory's _system/dreams, or the database) can be written.",
        { error: (error as Error).message, events: batch.length },
      );
    }
  }
}
