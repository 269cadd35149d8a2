import type { LoggedTurn } from '@reverie/core';

export interface RestoreWindow {
  /** Now, in ms since the epoch. */
  nowMs: number;
  /** A session with no turn for this long has ended (SPEC M9); 0: sessions never go idle. */
  idleMs: number;
  /** When the session was last ended with `endSession()`, if this process knows: turns up to then are over. */
  endedAtMs?: number | undefined;
  /** At most this many turns, the latest. */
  max: number;
}

/**
 * SPEC M9: the logged turns of one session (oldest first) that the session still holds after a
 * restart — the user and assistant turns since it last went idle or was ended: none when its
 * last turn is older than `idleMs`, else the latest run of turns with no gap longer than
 * `idleMs` between them, at most `max`. Pure.
 */
export function restorableTurns(turns: readonly LoggedTurn[], window: RestoreWindow): LoggedTurn[] {
  const spoken = turns.filter(
    (turn) =>
      (turn.role === 'user' || turn.role === 'assistant') &&
      (window.endedAtMs === undefined || Date.parse(turn.timestamp) > window.endedAtMs),
  );
  if (spoken.length === 0 || window.max <= 0) return [];
  let start = spoken.length;
  if (window.idleMs > 0) {
    let later = window.nowMs;
    while (start > 0 && later - Date.parse(spoken[start - 1]!.timestamp) <= window.idleMs) {
      later = Date.parse(spoken[start - 1]!.timestamp);
      start -= 1;
    }
  } else {
    start = 0;
  }
  return spoken.slice(Math.max(start, spoken.length - window.max));
}
