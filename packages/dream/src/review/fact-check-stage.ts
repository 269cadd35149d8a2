import type { MemoryEntry } from '@reverie/core';
import { checkMergeFacts, type FactVerdict } from './fact-check';

/** One fact check a reply asks for: the sources of a save, its text, and whether a source is protected. */
export interface FactCheckJob {
  sources: readonly MemoryEntry[];
  content: string;
  strict: boolean;
}

/** The most time the stage spends judging before it lets the event loop run (SPEC B11: no stall over 50 ms). */
export const FACT_CHECK_SLICE_MS = 10;

/** How the stage yields: to the event loop by default; tests count the calls (and pass their own clock). */
export type Yield = () => Promise<void>;

const toEventLoop: Yield = () => new Promise((resolve) => setImmediate(resolve));

const keyOf = (job: FactCheckJob) => `${job.strict ? 1 : 0}\n${job.sources.map((source) => source.id).join(',')}\n${job.content}`;

/**
 * The fact-check stage of the review pipeline, made before the item rules: every save of a reply
 * is judged here, in slices of at most `FACT_CHECK_SLICE_MS` with the event loop let through
 * between them and the abort signal checked at each, so that a long reply holds up neither the
 * agent's turns nor an abort. The rules then look verdicts up (`verdictOf`), computing one only
 * for a job the stage did not see.
 */
export class FactCheckStage {
  private readonly verdicts = new Map<string, FactVerdict>();

  constructor(
    private readonly yieldNow: Yield = toEventLoop,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async judgeAll(jobs: Iterable<FactCheckJob>, signal: AbortSignal): Promise<void> {
    let sliceStart = this.now();
    for (const job of jobs) {
      signal.throwIfAborted();
      const key = keyOf(job);
      if (!this.verdicts.has(key)) this.verdicts.set(key, checkMergeFacts(job.sources, job.content, { strict: job.strict }));
      if (this.now() - sliceStart >= FACT_CHECK_SLICE_MS) {
        await this.yieldNow();
        sliceStart = this.now();
      }
    }
    signal.throwIfAborted();
  }

  /** The verdict of a job (judged now if the stage did not see it). */
  verdictOf(job: FactCheckJob): FactVerdict {
    const key = keyOf(job);
    let verdict = this.verdicts.get(key);
    if (!verdict) {
      verdict = checkMergeFacts(job.sources, job.content, { strict: job.strict });
      this.verdicts.set(key, verdict);
    }
    return verdict;
  }
}
