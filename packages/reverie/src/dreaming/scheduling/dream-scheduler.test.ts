import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isReverieError, RecordingLogger, ReverieValidationError } from '@reverie/core';
import type { UserActivity } from '@reverie/dream';
import { DreamScheduler, type DreamSchedulerOptions } from './dream-scheduler';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Stands in for the host's ActivityTracker: a flag, and a signal renewed at every user turn. */
class FakeActivity implements UserActivity {
  active = false;
  private controller = new AbortController();
  isUserActive(): boolean {
    return this.active;
  }
  userTurnSignal(): AbortSignal {
    return this.controller.signal;
  }
  userTurnStarts(): void {
    this.controller.abort(new Error('A user turn started'));
    this.controller = new AbortController();
  }
}

let t0 = 0;
const elapsed = () => Date.now() - t0;
const schedulers: DreamScheduler[] = [];

beforeEach(() => {
  vi.useFakeTimers();
  t0 = Date.now();
});

afterEach(async () => {
  for (const scheduler of schedulers.splice(0)) await scheduler.stop();
  vi.useRealTimers();
});

/**
 * A fake cycle that lasts `durationMs` of fake time and rejects with the abort reason as soon as
 * its signal aborts (after `cleanupMs`), the way a cancelled model call does. Records when each
 * cycle started and ended, and the most cycles ever in flight at once.
 */
function fakeCycles({ durationMs = 0, cleanupMs = 0, failFirst = false } = {}) {
  const starts: number[] = [];
  const ends: number[] = [];
  const signals: AbortSignal[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const runCycle = vi.fn(async (signal: AbortSignal) => {
    starts.push(elapsed());
    signals.push(signal);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      if (failFirst && starts.length === 1) throw new Error('model unavailable');
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, durationMs);
        signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            if (cleanupMs === 0) reject(signal.reason);
            else setTimeout(() => reject(signal.reason), cleanupMs);
          },
          { once: true },
        );
      });
      return `cycle ${starts.length}`;
    } finally {
      inFlight -= 1;
      ends.push(elapsed());
    }
  });
  return { runCycle, starts, ends, signals, maxInFlight: () => maxInFlight };
}

function create(options: Partial<DreamSchedulerOptions> & Pick<DreamSchedulerOptions, 'runCycle'>) {
  const logger = new RecordingLogger();
  const scheduler = new DreamScheduler({ initialDelayMs: 5 * MINUTE, intervalMs: 4 * HOUR, enabled: true, logger, ...options });
  schedulers.push(scheduler);
  return { scheduler, logger };
}

const messages = (logger: RecordingLogger, level: 'debug' | 'info' | 'warn' | 'error') =>
  logger.records.filter((record) => record.level === level).map((record) => record.message);

describe('DreamScheduler timing', () => {
  it('runs the first cycle after the initial delay, then each one an interval after the previous ended', async () => {
    const cycles = fakeCycles({ durationMs: 10 * MINUTE });
    const { scheduler } = create({ runCycle: cycles.runCycle });
    scheduler.start();
    expect(scheduler.isRunning).toBe(true);

    await vi.advanceTimersByTimeAsync(5 * MINUTE - 1);
    expect(cycles.runCycle).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(cycles.starts).toEqual([5 * MINUTE]);

    // The interval counts from the end of the cycle (5 min + 10 min), not from its start.
    await vi.advanceTimersByTimeAsync(10 * MINUTE + 4 * HOUR - 1);
    expect(cycles.starts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(cycles.starts).toEqual([5 * MINUTE, 4 * HOUR + 15 * MINUTE]);

    await vi.advanceTimersByTimeAsync(4 * HOUR + 10 * MINUTE);
    expect(cycles.starts).toEqual([5 * MINUTE, 4 * HOUR + 15 * MINUTE, 8 * HOUR + 25 * MINUTE]);
  });

  it('never overlaps cycles when a cycle outlasts the interval', async () => {
    const cycles = fakeCycles({ durationMs: 3 * MINUTE });
    const { scheduler } = create({ runCycle: cycles.runCycle, initialDelayMs: 0, intervalMs: MINUTE });
    scheduler.start();

    await vi.advanceTimersByTimeAsync(20 * MINUTE);
    expect(cycles.maxInFlight()).toBe(1);
    expect(cycles.starts).toEqual([0, 4, 8, 12, 16, 20].map((minutes) => minutes * MINUTE));
    for (let i = 1; i < cycles.starts.length; i += 1) expect(cycles.starts[i]! - cycles.ends[i - 1]!).toBe(MINUTE);
  });

  it('starts the first cycle at once with an initial delay of 0', async () => {
    const cycles = fakeCycles();
    const { scheduler } = create({ runCycle: cycles.runCycle, initialDelayMs: 0 });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(cycles.starts).toEqual([0]);
  });
});

describe('DreamScheduler and the user', () => {
  it('waits while the user is active, re-checking every 5 s, and starts once they are idle', async () => {
    const activity = new FakeActivity();
    const cycles = fakeCycles();
    const { scheduler, logger } = create({ runCycle: cycles.runCycle, initialDelayMs: MINUTE, activity });
    activity.active = true;
    scheduler.start();

    await vi.advanceTimersByTimeAsync(MINUTE + 12 * SECOND);
    expect(cycles.runCycle).not.toHaveBeenCalled();
    // Checked at 1:00, 1:05 and 1:10, each time logged at debug level.
    expect(messages(logger, 'debug').filter((message) => message.includes('user is active'))).toHaveLength(3);

    activity.active = false;
    await vi.advanceTimersByTimeAsync(3 * SECOND - 1);
    expect(cycles.runCycle).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(cycles.starts).toEqual([MINUTE + 15 * SECOND]);
  });

  it('honours a custom activityPollMs', async () => {
    const activity = new FakeActivity();
    const cycles = fakeCycles();
    const { scheduler } = create({ runCycle: cycles.runCycle, initialDelayMs: 0, activity, activityPollMs: 30 * SECOND });
    activity.active = true;
    scheduler.start();
    await vi.advanceTimersByTimeAsync(10 * SECOND);
    activity.active = false;
    await vi.advanceTimersByTimeAsync(20 * SECOND - 1);
    expect(cycles.runCycle).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(cycles.starts).toEqual([30 * SECOND]);
  });

  it('aborts the cycle when a user turn starts, then schedules the next one an interval later', async () => {
    const activity = new FakeActivity();
    const cycles = fakeCycles({ durationMs: 10 * MINUTE });
    const { scheduler, logger } = create({ runCycle: cycles.runCycle, activity });
    scheduler.start();

    await vi.advanceTimersByTimeAsync(7 * MINUTE);
    expect(cycles.signals[0]?.aborted).toBe(false);
    activity.userTurnStarts();
    const signal = cycles.signals[0]!;
    expect(signal.aborted).toBe(true);
    expect(isReverieError(signal.reason, 'ABORTED')).toBe(true);

    await vi.advanceTimersByTimeAsync(0);
    expect(cycles.ends).toEqual([7 * MINUTE]);
    expect(messages(logger, 'error')).toEqual([]);
    expect(messages(logger, 'info')).toContain('Dream cycle interrupted.');

    // A later user turn does not touch the next cycle before it starts, and the schedule goes on.
    activity.userTurnStarts();
    await vi.advanceTimersByTimeAsync(4 * HOUR);
    expect(cycles.starts).toEqual([5 * MINUTE, 7 * MINUTE + 4 * HOUR]);
    expect(cycles.signals[1]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(cycles.ends).toEqual([7 * MINUTE, 17 * MINUTE + 4 * HOUR]);
  });
});

describe('DreamScheduler start and stop', () => {
  it('stop() aborts the cycle in flight, waits for it to settle, and no cycle runs afterwards', async () => {
    const cycles = fakeCycles({ durationMs: HOUR, cleanupMs: 30 * SECOND });
    const { scheduler } = create({ runCycle: cycles.runCycle });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(6 * MINUTE);
    expect(cycles.starts).toHaveLength(1);

    let stopped = false;
    const stopping = scheduler.stop().then(() => {
      stopped = true;
    });
    expect(scheduler.isRunning).toBe(false);
    expect(cycles.signals[0]?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(30 * SECOND - 1);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await stopping;
    expect(cycles.ends).toEqual([6 * MINUTE + 30 * SECOND]);

    await vi.advanceTimersByTimeAsync(24 * HOUR);
    expect(cycles.starts).toHaveLength(1);
  });

  it('stop() before the first cycle cancels it', async () => {
    const cycles = fakeCycles();
    const { scheduler } = create({ runCycle: cycles.runCycle });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(MINUTE);
    await scheduler.stop();
    await vi.advanceTimersByTimeAsync(24 * HOUR);
    expect(cycles.runCycle).not.toHaveBeenCalled();
  });

  it('stop() while waiting for the user cancels the wait', async () => {
    const activity = new FakeActivity();
    activity.active = true;
    const cycles = fakeCycles();
    const { scheduler } = create({ runCycle: cycles.runCycle, initialDelayMs: 0, activity });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(12 * SECOND);
    await scheduler.stop();
    activity.active = false;
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(cycles.runCycle).not.toHaveBeenCalled();
  });

  it('can start again after stop()', async () => {
    const cycles = fakeCycles();
    const { scheduler } = create({ runCycle: cycles.runCycle });
    scheduler.start();
    await scheduler.stop();
    scheduler.start();
    scheduler.start();
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(cycles.starts).toEqual([5 * MINUTE]);
  });

  it('does nothing when disabled, and says so', async () => {
    const cycles = fakeCycles();
    const { scheduler, logger } = create({ runCycle: cycles.runCycle, enabled: false });
    scheduler.start();
    expect(scheduler.isRunning).toBe(false);
    await vi.advanceTimersByTimeAsync(24 * HOUR);
    expect(cycles.runCycle).not.toHaveBeenCalled();
    expect(messages(logger, 'info').some((message) => message.includes('disabled'))).toBe(true);
  });
});

describe('DreamScheduler.runNow', () => {
  it('returns the in-flight cycle instead of starting a second one', async () => {
    const cycles = fakeCycles({ durationMs: 10 * MINUTE });
    const { scheduler } = create({ runCycle: cycles.runCycle });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(6 * MINUTE);

    const first = scheduler.runNow();
    const second = scheduler.runNow();
    expect(first).toBe(second);
    expect(cycles.runCycle).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(9 * MINUTE);
    await expect(first).resolves.toBe('cycle 1');

    // Once it has ended, runNow starts a fresh cycle.
    const third = scheduler.runNow();
    expect(third).not.toBe(first);
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    await expect(third).resolves.toBe('cycle 2');
  });

  it('runs at once and moves the next scheduled cycle to an interval after it ended', async () => {
    const cycles = fakeCycles({ durationMs: MINUTE });
    const { scheduler } = create({ runCycle: cycles.runCycle });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(MINUTE);
    const manual = scheduler.runNow();
    expect(cycles.starts).toEqual([MINUTE]);
    await vi.advanceTimersByTimeAsync(MINUTE);
    await expect(manual).resolves.toBe('cycle 1');

    await vi.advanceTimersByTimeAsync(4 * HOUR - 1);
    expect(cycles.starts).toEqual([MINUTE]);
    await vi.advanceTimersByTimeAsync(1);
    expect(cycles.starts).toEqual([MINUTE, 2 * MINUTE + 4 * HOUR]);
  });

  it('works without start() and schedules nothing afterwards', async () => {
    const cycles = fakeCycles();
    const { scheduler } = create({ runCycle: cycles.runCycle });
    const manual = scheduler.runNow();
    await vi.advanceTimersByTimeAsync(24 * HOUR);
    await expect(manual).resolves.toBe('cycle 1');
    expect(cycles.runCycle).toHaveBeenCalledTimes(1);
  });

  it('hands a failing cycle’s error to the caller', async () => {
    const cycles = fakeCycles({ failFirst: true });
    const { scheduler, logger } = create({ runCycle: cycles.runCycle });
    await expect(scheduler.runNow()).rejects.toThrow('model unavailable');
    expect(messages(logger, 'error')).toHaveLength(1);
  });
});

describe('DreamScheduler failures', () => {
  it('logs a cycle that throws and still runs the next one', async () => {
    const cycles = fakeCycles({ failFirst: true });
    const { scheduler, logger } = create({ runCycle: cycles.runCycle });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(logger.records.filter((record) => record.level === 'error')).toEqual([
      expect.objectContaining({
        message: expect.stringContaining('failed'),
        context: expect.objectContaining({ error: 'model unavailable' }),
      }),
    ]);
    await vi.advanceTimersByTimeAsync(4 * HOUR);
    expect(cycles.starts).toEqual([5 * MINUTE, 4 * HOUR + 5 * MINUTE]);
    expect(messages(logger, 'error')).toHaveLength(1);
  });

  it('treats a runCycle that throws synchronously like any failed cycle', async () => {
    let calls = 0;
    const runCycle = (() => {
      calls += 1;
      if (calls === 1) throw new Error('not even a promise');
      return Promise.resolve('ok');
    }) as DreamSchedulerOptions['runCycle'];
    const { scheduler, logger } = create({ runCycle, initialDelayMs: 0, intervalMs: MINUTE });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(calls).toBe(2);
    expect(messages(logger, 'error')).toHaveLength(1);
  });
});

describe('DreamScheduler timers', () => {
  it('unrefs every timer whose handle supports it, and accepts handles that do not', async () => {
    const unref = vi.fn();
    const pending = new Map<number, () => void>();
    let next = 0;
    const objectTimers = {
      setTimeout: (callback: () => void) => {
        pending.set(++next, callback);
        return { id: next, unref };
      },
      clearTimeout: (handle: unknown) => pending.delete((handle as { id: number }).id),
    };
    const cycles = fakeCycles();
    const { scheduler } = create({ runCycle: cycles.runCycle, timers: objectTimers });
    scheduler.start();
    expect(unref).toHaveBeenCalledTimes(1);
    pending.get(1)!();
    await vi.advanceTimersByTimeAsync(0);
    expect(cycles.runCycle).toHaveBeenCalledTimes(1);
    expect(unref).toHaveBeenCalledTimes(2); // the next interval's timer

    const numberTimers = {
      setTimeout: (callback: () => void) => (pending.set(++next, callback), next),
      clearTimeout: (id: unknown) => pending.delete(id as number),
    };
    const other = create({ runCycle: cycles.runCycle, timers: numberTimers });
    expect(() => other.scheduler.start()).not.toThrow();
    pending.get(next)!();
    await vi.advanceTimersByTimeAsync(0);
    expect(cycles.runCycle).toHaveBeenCalledTimes(2);
  });

  it('unrefs the default global timers', () => {
    const spy = vi.spyOn(globalThis, 'setTimeout');
    const { scheduler } = create({ runCycle: fakeCycles().runCycle });
    scheduler.start();
    const handle = spy.mock.results.at(-1)?.value as { hasRef?: () => boolean };
    spy.mockRestore();
    expect(typeof handle.hasRef).toBe('function');
    expect(handle.hasRef!()).toBe(false);
  });
});

describe('DreamScheduler triggers (SPEC O2)', () => {
  const triggers = (runCycle: ReturnType<typeof fakeCycles>['runCycle']) => runCycle.mock.calls.map((call) => (call as unknown[])[1]);

  it('ticks every checkIntervalMs on top of the interval, each tick a cycle of its own', async () => {
    const cycles = fakeCycles({ durationMs: MINUTE });
    const { scheduler } = create({ runCycle: cycles.runCycle, checkIntervalMs: 30 * MINUTE });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(95 * MINUTE);
    expect(cycles.starts).toEqual([5 * MINUTE, 30 * MINUTE, 60 * MINUTE, 90 * MINUTE]);
    expect(triggers(cycles.runCycle)).toEqual(['schedule', 'tick', 'tick', 'tick']);
    expect(cycles.maxInFlight()).toBe(1);
  });

  it('skips a tick while a cycle runs or the user is active; the next tick checks again', async () => {
    const activity = new FakeActivity();
    const cycles = fakeCycles({ durationMs: 40 * MINUTE });
    const { scheduler } = create({ runCycle: cycles.runCycle, checkIntervalMs: 30 * MINUTE, initialDelayMs: 0, activity });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(35 * MINUTE);
    expect(cycles.starts).toEqual([0]);
    activity.active = true;
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    expect(cycles.starts).toEqual([0]);
    activity.active = false;
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    expect(cycles.starts).toEqual([0, 90 * MINUTE]);
    expect(triggers(cycles.runCycle)).toEqual(['schedule', 'tick']);
  });

  it('has no ticker without checkIntervalMs', async () => {
    const cycles = fakeCycles();
    const { scheduler } = create({ runCycle: cycles.runCycle });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(3 * HOUR);
    expect(triggers(cycles.runCycle)).toEqual(['schedule']);
  });

  it('triggers once sessions stop ending for sessionEndDebounceMs; each session end restarts the wait', async () => {
    const cycles = fakeCycles({ durationMs: MINUTE });
    const { scheduler } = create({ runCycle: cycles.runCycle, initialDelayMs: 4 * HOUR });
    scheduler.start();
    scheduler.sessionEnded();
    await vi.advanceTimersByTimeAsync(6 * MINUTE);
    scheduler.sessionEnded();
    await vi.advanceTimersByTimeAsync(9 * MINUTE);
    scheduler.sessionEnded();
    await vi.advanceTimersByTimeAsync(10 * MINUTE - 1);
    expect(cycles.runCycle).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(cycles.starts).toEqual([25 * MINUTE]);
    expect(triggers(cycles.runCycle)).toEqual(['session-end']);
    // The interval now counts from that cycle's end.
    await vi.advanceTimersByTimeAsync(4 * HOUR + MINUTE);
    expect(cycles.starts).toEqual([25 * MINUTE, 4 * HOUR + 26 * MINUTE]);
  });

  it('honours a custom debounce, waits while the user is active, and ignores session ends when not started', async () => {
    const activity = new FakeActivity();
    const cycles = fakeCycles();
    const { scheduler } = create({ runCycle: cycles.runCycle, initialDelayMs: 4 * HOUR, sessionEndDebounceMs: MINUTE, activity });
    scheduler.sessionEnded();
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(cycles.runCycle).not.toHaveBeenCalled();

    scheduler.start();
    scheduler.sessionEnded();
    activity.active = true;
    await vi.advanceTimersByTimeAsync(MINUTE + 12 * SECOND);
    expect(cycles.runCycle).not.toHaveBeenCalled();
    activity.active = false;
    await vi.advanceTimersByTimeAsync(5 * SECOND);
    expect(cycles.starts).toEqual([2 * MINUTE + MINUTE + 15 * SECOND]);
  });

  it('stop() cancels a pending session-end trigger and the ticker', async () => {
    const cycles = fakeCycles();
    const { scheduler } = create({ runCycle: cycles.runCycle, initialDelayMs: 4 * HOUR, checkIntervalMs: 30 * MINUTE });
    scheduler.start();
    scheduler.sessionEnded();
    await vi.advanceTimersByTimeAsync(MINUTE);
    await scheduler.stop();
    await vi.advanceTimersByTimeAsync(5 * HOUR);
    expect(cycles.runCycle).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('DreamScheduler options', () => {
  it.each([
    ['intervalMs', { intervalMs: 0 }],
    ['intervalMs', { intervalMs: -1 }],
    ['intervalMs', { intervalMs: Number.NaN }],
    ['intervalMs', { intervalMs: 30 * 24 * HOUR }],
    ['initialDelayMs', { initialDelayMs: -1 }],
    ['initialDelayMs', { initialDelayMs: Number.POSITIVE_INFINITY }],
    ['activityPollMs', { activityPollMs: 0 }],
    ['checkIntervalMs', { checkIntervalMs: 0 }],
    ['sessionEndDebounceMs', { sessionEndDebounceMs: -5 }],
    ['enabled', { enabled: 'yes' }],
    ['runCycle', { runCycle: 'not a function' }],
    ['logger', { logger: undefined }],
  ])('rejects a bad %s with INVALID_OPTIONS naming the field (%o)', (field, bad) => {
    const options = {
      runCycle: async () => undefined,
      initialDelayMs: 0,
      intervalMs: HOUR,
      enabled: true,
      logger: new RecordingLogger(),
      ...bad,
    };
    let thrown: unknown;
    try {
      new DreamScheduler(options as unknown as DreamSchedulerOptions);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ReverieValidationError);
    expect((thrown as ReverieValidationError).code).toBe('INVALID_OPTIONS');
    expect((thrown as ReverieValidationError).message).toContain(field);
    const { issues } = (thrown as ReverieValidationError).details as { issues: Array<{ path: string; message: string }> };
    expect(new Set(issues.map((issue) => issue.path))).toEqual(new Set([field]));
  });
});
