import { performance } from 'node:perf_hooks';
import type { IClock } from '../interfaces/clock';

/** The real clock: wall time from `Date`, monotonic time from `performance.now()`. */
export const systemClock: IClock = { now: () => new Date(), monotonicMs: () => performance.now() };

/**
 * A clock that only moves when told to, for tests and replays. `advance(ms)` is time passing:
 * wall and monotonic time move together. `set(time)` is a wall-clock step (NTP, a user, a resumed
 * VM): only wall time moves, as on a real machine.
 */
export class ManualClock implements IClock {
  private current: number;
  private monotonic = 0;

  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  monotonicMs(): number {
    return this.monotonic;
  }

  set(time: Date | string): void {
    this.current = new Date(time).getTime();
  }

  advance(ms: number): void {
    this.current += ms;
    this.monotonic += ms;
  }
}
