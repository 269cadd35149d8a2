import type { LanguageModelMiddleware } from 'ai';
import { type IClock, systemClock } from '@reverie/core';
import { monotonicMs } from '@reverie/core/internal';
import { isBackgroundCall } from './background-calls';

/**
 * Knows whether the host's user is being served right now (SPEC D1), so background work such as
 * the dream cycle can wait instead of competing with a user turn, and can be interrupted the
 * moment a new user turn starts.
 *
 * Hosts either wrap their model with `middleware()` (every call marks the user active while it
 * runs) or call `markUserActive()` themselves when a user message arrives.
 */
export class ActivityTracker {
  private inFlight = 0;
  private lastActivityMs = Number.NEGATIVE_INFINITY;
  private controller = new AbortController();

  constructor(
    private readonly clock: IClock = systemClock,
    /** A user counts as active for this long after the last activity (default 5 s). */
    private readonly quietPeriodMs = 5000,
  ) {}

  /** Monotonic: a wall-clock step neither keeps the user "active" for hours nor ends a quiet period early. */
  private now(): number {
    return monotonicMs(this.clock);
  }

  /** Records that a user turn has started; aborts whatever subscribed to `userTurnSignal()`. */
  markUserActive(): void {
    this.lastActivityMs = this.now();
    this.controller.abort(new Error('A user turn started'));
    this.controller = new AbortController();
  }

  /** Marks the start of a model call made for the user; returns the function that ends it. */
  begin(): () => void {
    this.markUserActive();
    this.inFlight += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight -= 1;
      this.lastActivityMs = this.now();
    };
  }

  /** True while a user call runs, and for the quiet period after the last activity. */
  isUserActive(): boolean {
    return this.inFlight > 0 || this.now() - this.lastActivityMs < this.quietPeriodMs;
  }

  /** A signal that aborts when the next user turn starts. Background model calls pass it on. */
  userTurnSignal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * AI SDK middleware that brackets every generate and stream call with `begin()`. Calls Reverie
   * makes for itself (dream passes, note expansion) pass through unmarked.
   */
  middleware(): LanguageModelMiddleware {
    return {
      specificationVersion: 'v3',
      wrapGenerate: async ({ doGenerate }) => {
        if (isBackgroundCall()) return doGenerate();
        const end = this.begin();
        try {
          return await doGenerate();
        } finally {
          end();
        }
      },
      wrapStream: async ({ doStream }) => {
        if (isBackgroundCall()) return doStream();
        const end = this.begin();
        try {
          const result = await doStream();
          const ended = new TransformStream({
            flush: () => end(),
          });
          return { ...result, stream: result.stream.pipeThrough(ended) };
        } catch (error) {
          end();
          throw error;
        }
      },
    };
  }
}
