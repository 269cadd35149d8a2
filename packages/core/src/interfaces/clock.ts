/** Where time comes from. Logic never calls `Date.now()`; tests inject a clock they can move. */
export interface IClock {
  /** Wall time: what to write in records. It can jump (NTP, a user, a VM resumed). */
  now(): Date;
  /**
   * Milliseconds on a monotonic clock (any origin, never goes back, does not follow wall-clock
   * steps), for durations that must survive a jump: TTLs, staleness, debounces. A clock without
   * it falls back to wall time (`monotonicMs(clock)`).
   */
  monotonicMs?(): number;
}

/** The clock's monotonic reading, or its wall time when it has none. */
export function monotonicMs(clock: IClock): number {
  return clock.monotonicMs ? clock.monotonicMs() : clock.now().getTime();
}
