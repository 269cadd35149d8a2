import { z } from 'zod';
import { type ILogger, invalidOptions, parseOptions, ReverieError } from '@reverie/core';
import { hasMethods } from '@reverie/core/internal';
import type { UserActivity } from '@reverie/dream';

/** How often a waiting cycle checks again whether the user is still being served (SPEC D1). */
export const DEFAULT_ACTIVITY_POLL_MS = 5000;
/** Quiet time after the last session end before the session-end trigger fires (SPEC O2). */
export const DEFAULT_SESSION_END_DEBOUNCE_MS = 10 * 60_000;

/** What started a cycle: the interval schedule, the gate ticker, a session end, or a call. */
export type SchedulerTrigger = 'schedule' | 'tick' | 'session-end' | 'manual';

/** The longest delay a JavaScript timer honours (about 24.8 days); longer ones fire at once. */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

/** The timer functions the scheduler uses; the globals by default. */
export interface SchedulerTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface DreamSchedulerOptions {
  /**
   * Runs one dream cycle (through the gates, typically `DreamTrigger.trigger`). The signal aborts
   * when a user turn starts or the scheduler stops; `trigger` says what started it.
   */
  runCycle: (signal: AbortSignal, trigger: SchedulerTrigger) => Promise<unknown>;
  /** Wait after `start()` before the first cycle. */
  initialDelayMs: number;
  /** Wait between the end of one cycle and the start of the next. */
  intervalMs: number;
  /** False: `start()` schedules nothing (`runNow()` still works). */
  enabled: boolean;
  /** The host's user activity; without it cycles never wait and are never preempted. */
  activity?: UserActivity | undefined;
  /** While the user is active, how long a due cycle waits before checking again (default 5 s). */
  activityPollMs?: number | undefined;
  /**
   * The gate ticker (SPEC O2): while started, a cycle is triggered this often, on top of the
   * interval, so the gates are re-checked. Undefined: no ticker.
   */
  checkIntervalMs?: number | undefined;
  /** After `sessionEnded()`, wait this long without another session end, then trigger (default 10 min). */
  sessionEndDebounceMs?: number | undefined;
  logger: ILogger;
  timers?: SchedulerTimers | undefined;
}

const delay = (field: string, min: 'zero' | 'positive') =>
  z
    .number({ error: `${field} must be a number of milliseconds` })
    .refine(Number.isFinite, `${field} must be a finite number of milliseconds`)
    .refine((value) => (min === 'zero' ? value >= 0 : value > 0), `${field} must be ${min === 'zero' ? '>= 0' : '> 0'}`)
    .refine((value) => value <= MAX_TIMER_DELAY_MS, `${field} must be at most ${MAX_TIMER_DELAY_MS} ms (about 24 days)`);

const isFunction = (value: unknown) => typeof value === 'function';

const schedulerOptionsSchema = z.object({
  runCycle: z.custom<DreamSchedulerOptions['runCycle']>(isFunction, 'runCycle must be a function'),
  initialDelayMs: delay('initialDelayMs', 'zero'),
  intervalMs: delay('intervalMs', 'positive'),
  enabled: z.boolean({ error: 'enabled must be true or false' }),
  activity: z
    .custom<UserActivity>(
      (value) => hasMethods(value, ['isUserActive', 'userTurnSignal']),
      'activity must have isUserActive() and userTurnSignal()',
    )
    .optional(),
  activityPollMs: delay('activityPollMs', 'positive').optional(),
  checkIntervalMs: delay('checkIntervalMs', 'positive').optional(),
  sessionEndDebounceMs: delay('sessionEndDebounceMs', 'zero').optional(),
  logger: z.custom<ILogger>(
    (value) => hasMethods(value, ['debug', 'info', 'warn', 'error']),
    'logger must be an ILogger (debug, info, warn, error)',
  ),
  timers: z
    .custom<SchedulerTimers>((value) => hasMethods(value, ['setTimeout', 'clearTimeout']), 'timers must have setTimeout and clearTimeout')
    .optional(),
});

const globalTimers: SchedulerTimers = {
  // Looked up at call time, so timers faked after construction are honoured.
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as Parameters<typeof globalThis.clearTimeout>[0]),
};

interface CycleInFlight {
  controller: AbortController;
  /** The cycle's own promise: what `runNow()` hands out. */
  promise: Promise<unknown>;
  /** Resolves once the cycle has settled and been logged; never rejects. */
  settled: Promise<void>;
}

/**
 * Runs the dream cycle in the background (SPEC D1, O2): after `initialDelayMs`, then `intervalMs`
 * after the previous cycle ended, never two at once. On top of that, an optional ticker triggers
 * every `checkIntervalMs` (the gates decide whether anything runs), and `sessionEnded()` triggers
 * once sessions have stopped ending for `sessionEndDebounceMs`. A due cycle waits while the user
 * is being served, re-checking every `activityPollMs`; a user turn that starts mid-cycle aborts
 * the cycle's signal, so the user never waits behind a dream. Timers are unref'ed: the scheduler
 * never keeps a process alive.
 */
export class DreamScheduler {
  private readonly runCycle: DreamSchedulerOptions['runCycle'];
  private readonly initialDelayMs: number;
  private readonly intervalMs: number;
  private readonly enabled: boolean;
  private readonly activity: UserActivity | undefined;
  private readonly activityPollMs: number;
  private readonly checkIntervalMs: number | undefined;
  private readonly sessionEndDebounceMs: number;
  private readonly logger: ILogger;
  private readonly timers: SchedulerTimers;

  private running = false;
  private timer: { handle: unknown } | undefined;
  private ticker: { handle: unknown } | undefined;
  private debounce: { handle: unknown } | undefined;
  private current: CycleInFlight | undefined;

  constructor(options: DreamSchedulerOptions) {
    if (options === null || typeof options !== 'object') {
      throw invalidOptions('DreamScheduler needs an options object (runCycle, initialDelayMs, intervalMs, enabled, logger).', [
        { path: '', message: 'an options object is required' },
      ]);
    }
    parseOptions(schedulerOptionsSchema, options, 'DreamScheduler options');
    this.runCycle = options.runCycle;
    this.initialDelayMs = options.initialDelayMs;
    this.intervalMs = options.intervalMs;
    this.enabled = options.enabled;
    this.activity = options.activity;
    this.activityPollMs = options.activityPollMs ?? DEFAULT_ACTIVITY_POLL_MS;
    this.checkIntervalMs = options.checkIntervalMs;
    this.sessionEndDebounceMs = options.sessionEndDebounceMs ?? DEFAULT_SESSION_END_DEBOUNCE_MS;
    this.logger = options.logger;
    this.timers = options.timers ?? globalTimers;
  }

  /** True between `start()` (when enabled) and `stop()`. */
  get isRunning(): boolean {
    return this.running;
  }

  /** Schedules the first cycle after `initialDelayMs`. Does nothing when disabled or already running. */
  start(): void {
    if (!this.enabled) {
      this.logger.info('Dream scheduling is disabled (enabled: false); no cycle will run on a timer.');
      return;
    }
    if (this.running) return;
    this.running = true;
    this.logger.info('Dream scheduler started.', {
      initialDelayMs: this.initialDelayMs,
      intervalMs: this.intervalMs,
      checkIntervalMs: this.checkIntervalMs,
    });
    // A cycle already in flight (from runNow) schedules the next one when it ends.
    if (!this.current) this.schedule(this.initialDelayMs);
    if (this.checkIntervalMs !== undefined) this.ticker = this.arm(this.checkIntervalMs, () => this.tick());
  }

  /**
   * A session ended (SPEC O2): once no other session has ended for `sessionEndDebounceMs`, a
   * cycle is triggered. Each call restarts the wait. Does nothing unless the scheduler is running.
   */
  sessionEnded(): void {
    if (!this.running) return;
    this.armDebounce(this.sessionEndDebounceMs);
  }

  /** Cancels the pending timer, aborts a cycle in flight and waits for it to settle. */
  async stop(): Promise<void> {
    const wasRunning = this.running;
    this.running = false;
    this.clearTimer();
    this.disarm(this.ticker);
    this.ticker = undefined;
    this.disarm(this.debounce);
    this.debounce = undefined;
    const cycle = this.current;
    if (cycle) {
      cycle.controller.abort(new ReverieError('ABORTED', 'The dream scheduler was stopped; the cycle was cancelled.'));
      await cycle.settled;
    }
    if (wasRunning) this.logger.info('Dream scheduler stopped.');
  }

  /**
   * Runs a cycle now, whether or not the schedule is running, and resolves with its result (or
   * rejects with its error). While a cycle is in flight, returns that cycle's promise instead of
   * starting another. The next scheduled cycle comes `intervalMs` after this one ends.
   */
  runNow(): Promise<unknown> {
    if (this.current) return this.current.promise;
    return this.launch('manual').promise;
  }

  private schedule(ms: number): void {
    this.clearTimer();
    const timer: { handle: unknown } = { handle: undefined };
    timer.handle = this.timers.setTimeout(() => {
      if (this.timer !== timer) return;
      this.timer = undefined;
      this.due();
    }, ms);
    unref(timer.handle);
    this.timer = timer;
  }

  private clearTimer(): void {
    if (!this.timer) return;
    this.timers.clearTimeout(this.timer.handle);
    this.timer = undefined;
  }

  /** A one-shot, unref'ed timer of its own (the ticker's, the debounce's). */
  private arm(ms: number, callback: () => void): { handle: unknown } {
    const slot: { handle: unknown } = { handle: undefined };
    slot.handle = this.timers.setTimeout(callback, ms);
    unref(slot.handle);
    return slot;
  }

  private disarm(slot: { handle: unknown } | undefined): void {
    if (slot) this.timers.clearTimeout(slot.handle);
  }

  private armDebounce(ms: number): void {
    this.disarm(this.debounce);
    const slot = this.arm(ms, () => {
      if (this.debounce !== slot) return;
      this.debounce = undefined;
      this.sessionEndDue();
    });
    this.debounce = slot;
  }

  /** The ticker fired: trigger a cycle unless one is running or the user is being served (the next tick checks again). */
  private tick(): void {
    if (!this.running || this.checkIntervalMs === undefined) return;
    this.ticker = this.arm(this.checkIntervalMs, () => this.tick());
    if (this.current) {
      this.logger.debug('Gate check skipped: a dream cycle is running.');
      return;
    }
    if (this.activity?.isUserActive()) {
      this.logger.debug('Gate check skipped: the user is active; the next tick checks again.');
      return;
    }
    this.launch('tick');
  }

  /** The session-end wait is over: trigger, or wait a little more while a cycle runs or the user is active. */
  private sessionEndDue(): void {
    if (!this.running) return;
    if (this.current || this.activity?.isUserActive()) {
      this.armDebounce(this.activityPollMs);
      return;
    }
    this.launch('session-end');
  }

  /** A scheduled cycle is due: run it, or wait while the user is being served. */
  private due(): void {
    if (!this.running || this.current) return;
    if (this.activity?.isUserActive()) {
      this.logger.debug('Dream cycle due but the user is active; checking again shortly.', { retryInMs: this.activityPollMs });
      this.schedule(this.activityPollMs);
      return;
    }
    this.launch('schedule');
  }

  private launch(trigger: SchedulerTrigger): CycleInFlight {
    this.clearTimer();
    const controller = new AbortController();
    const stopWatching = this.preemptOnUserTurn(controller);
    this.logger.debug('Dream cycle starting.', { trigger });
    const promise = (async () => {
      try {
        return await this.runCycle(controller.signal, trigger);
      } finally {
        stopWatching();
      }
    })();
    // The handlers are attached before anyone else can await `promise`, so by the time a caller
    // resumes the cycle is no longer in flight and the next one is scheduled.
    const settled = promise.then(
      () => {
        this.cycleEnded(cycle);
        if (controller.signal.aborted)
          this.logger.info('Dream cycle ended early.', { trigger, reason: reasonText(controller.signal.reason) });
        else this.logger.debug('Dream cycle finished.', { trigger });
      },
      (error: unknown) => {
        this.cycleEnded(cycle);
        if (controller.signal.aborted) {
          this.logger.info('Dream cycle interrupted.', { trigger, reason: reasonText(controller.signal.reason), error: reasonText(error) });
        } else {
          this.logger.error('Dream cycle failed; the schedule continues.', { trigger, error: reasonText(error), cause: error });
        }
      },
    );
    const cycle: CycleInFlight = { controller, promise, settled };
    this.current = cycle;
    return cycle;
  }

  private cycleEnded(cycle: CycleInFlight): void {
    if (this.current === cycle) this.current = undefined;
    if (this.running && !this.current) this.schedule(this.intervalMs);
  }

  /** Aborts the cycle's signal when the next user turn starts; returns the unsubscribe. */
  private preemptOnUserTurn(controller: AbortController): () => void {
    if (!this.activity) return () => {};
    const userTurn = this.activity.userTurnSignal();
    const onUserTurn = () => {
      this.logger.info('A user turn started; the dream cycle yields to it.');
      controller.abort(
        new ReverieError('ABORTED', 'A user turn started; the dream cycle was cancelled and runs again at the next interval.', {
          cause: userTurn.reason,
        }),
      );
    };
    if (userTurn.aborted) {
      onUserTurn();
      return () => {};
    }
    userTurn.addEventListener('abort', onUserTurn, { once: true });
    return () => userTurn.removeEventListener('abort', onUserTurn);
  }
}

function unref(handle: unknown): void {
  if (typeof handle === 'object' && handle !== null && typeof (handle as { unref?: unknown }).unref === 'function') {
    (handle as { unref(): void }).unref();
  }
}

function reasonText(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
