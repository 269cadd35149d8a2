import { type LoggedTurn } from '@reverie/core';
import { tokenize } from '@reverie/core/internal';
import { stripRetentionTags } from '../memory-consolidation/normalise-content';

/** A session's opening request, as the recurring-term signal reads it. */
export interface OpeningRequest {
  sessionId: string;
  text: string;
}

/** A term found in the opening requests of several sessions (SPEC D8). */
export interface RecurringTerm {
  term: string;
  /** In how many distinct sessions it occurs. */
  count: number;
  /** Those sessions, in the order their requests were given. */
  sessionIds: string[];
}

export interface RecurringTermOptions {
  /** A term must occur in at least this many distinct sessions. */
  minSessions: number;
  /** Shorter terms are dropped (default 3: "pr", "db" and the like say little on their own). */
  minLength?: number;
}

const DEFAULT_MIN_TERM_LENGTH = 3;

/**
 * The first user turn of every session in `turns` (log order), one per session, sessions in the
 * order of their first turn. Pass only turns that may be sent: a session whose turns read have
 * no user turn has no opening request. Pure.
 */
export function openingRequests(turns: readonly LoggedTurn[]): OpeningRequest[] {
  const openings = new Map<string, string>();
  for (const turn of turns) {
    if (turn.role === 'user' && !openings.has(turn.sessionId)) openings.set(turn.sessionId, turn.content);
  }
  return [...openings].map(([sessionId, text]) => ({ sessionId, text }));
}

/**
 * SPEC D8: the host's recurring-request signal. Each opening request is tokenised the way
 * search does (`tokenize`: lower case, stop words out), after its retention hints are removed;
 * terms shorter than `minLength` are dropped. A term counts once per session however often it
 * appears there. Terms found in at least `minSessions` sessions are returned with their count
 * and sessions, the most widespread first (ties by term). Pure.
 */
export function recurringTerms(requests: readonly OpeningRequest[], options: RecurringTermOptions): RecurringTerm[] {
  const minLength = options.minLength ?? DEFAULT_MIN_TERM_LENGTH;
  const sessionsByTerm = new Map<string, string[]>();
  const seenSessions = new Set<string>();
  for (const request of requests) {
    if (seenSessions.has(request.sessionId)) continue;
    seenSessions.add(request.sessionId);
    const terms = new Set(tokenize(stripRetentionTags(request.text)).filter((term) => [...term].length >= minLength));
    for (const term of terms) {
      const sessions = sessionsByTerm.get(term);
      if (sessions) sessions.push(request.sessionId);
      else sessionsByTerm.set(term, [request.sessionId]);
    }
  }
  return [...sessionsByTerm]
    .filter(([, sessions]) => sessions.length >= options.minSessions)
    .map(([term, sessionIds]) => ({ term, count: sessionIds.length, sessionIds }))
    .sort((a, b) => b.count - a.count || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
}
