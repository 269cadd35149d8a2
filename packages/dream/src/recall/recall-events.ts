import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { IClock, ILogger } from '@reverie/core';
import { recallEventsPath } from '../runs/run-paths';

/** One entry returned by one search (SPEC O4). */
export const recallEventSchema = z.object({
  at: z.string(),
  entryId: z.string().min(1),
  /** The entry's search score relative to the best result of that search, 0..1. */
  relevance: z.number().min(0).max(1),
  source: z.enum(['turn', 'tool', 'api']),
});
export type RecallEvent = z.infer<typeof recallEventSchema>;
export type RecallSource = RecallEvent['source'];

/** A search's results as the recorder takes them: ids with their raw scores. */
export interface RecalledResult {
  entryId: string;
  score: number;
}

/** How the runtime reports what its searches returned; implementations must never throw into a search. */
export interface RecallRecorder {
  record(results: readonly RecalledResult[], source: RecallSource): void;
}

/**
 * SPEC O4: records what searches returned without slowing them. `record` only pushes onto an
 * in-memory buffer; the buffer is appended to `_system/dreams/recall-events.jsonl` in one write
 * on the next turn of the event loop (or at `flush()` / `close()`). A failed write is logged and
 * dropped: recall signals are a hint, the search result never depends on them.
 */
export class RecallEventLog implements RecallRecorder {
  private buffer: RecallEvent[] = [];
  private pending: Promise<void> = Promise.resolve();
  private scheduled = false;
  private closed = false;
  private readonly path: string;

  constructor(private readonly services: { dataPath: string; clock: IClock; logger: ILogger }) {
    this.path = recallEventsPath(services.dataPath);
  }

  record(results: readonly RecalledResult[], source: RecallSource): void {
    if (this.closed || results.length === 0) return;
    const best = Math.max(...results.map((result) => result.score));
    const at = this.services.clock.now().toISOString();
    for (const { entryId, score } of results) {
      const relevance = best > 0 && Number.isFinite(score) ? Math.min(1, Math.max(0, score / best)) : 0;
      this.buffer.push({ at, entryId, relevance, source });
    }
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  /** Writes what is buffered; resolves when it is on disk (or the failure was logged). */
  flush(): Promise<void> {
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
      await mkdir(dirname(this.path), { recursive: true });
      const handle = await open(this.path, 'a');
      try {
        await handle.write(batch.map((event) => `${JSON.stringify(event)}\n`).join(''));
      } finally {
        await handle.close();
      }
    } catch (error) {
      this.services.logger.warn('Could not record recall events; they are dropped (search results are not affected).', {
        error: (error as Error).message,
        events: batch.length,
      });
    }
  }
}
