import type { IClock } from '../interfaces/clock';

/** The real clock. */
export const systemClock: IClock = { now: () => new Date() };

/** A clock that only moves when told to, for tests and replays. */
export class ManualClock implements IClock {
  private current: number;

  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(time: Date | string): void {
    this.current = new Date(time).getTime();
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
