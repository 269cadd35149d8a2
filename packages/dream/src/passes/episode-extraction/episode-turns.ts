import type { LoggedTurn } from '@reverie/core';
import { packIntoCalls } from '../memory-consolidation/pack-calls';
import type { SessionPiece } from './render-episode-prompt';

/**
 * Groups turns by session (sessions in the order of their first turn, turns in log order) and
 * packs the sessions into calls of at most `budget` tokens (`cost` per turn). A session that
 * fits is never split; a longer one is cut, in order, into pieces that fit. Pure.
 */
export function packSessions(turns: readonly LoggedTurn[], cost: (turn: LoggedTurn) => number, budget: number): SessionPiece[][] {
  const bySeq = new Map<string, LoggedTurn>();
  const sessions = new Map<string, string[]>();
  for (const turn of turns) {
    const key = String(turn.seq);
    bySeq.set(key, turn);
    const list = sessions.get(turn.sessionId);
    if (list) list.push(key);
    else sessions.set(turn.sessionId, [key]);
  }
  const calls = packIntoCalls([...sessions.values()], (key) => cost(bySeq.get(key)!), budget);
  return calls.map((keys) => {
    const pieces = new Map<string, SessionPiece>();
    for (const key of keys) {
      const turn = bySeq.get(key)!;
      const piece = pieces.get(turn.sessionId);
      if (piece) piece.turns.push(turn);
      else pieces.set(turn.sessionId, { sessionId: turn.sessionId, turns: [turn] });
    }
    return [...pieces.values()];
  });
}
