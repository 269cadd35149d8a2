import type { RecallSignalsOptions } from './recall-options';

const DAY_MS = 86_400_000;
/** Recalls at which the frequency signal reaches one half; it saturates towards 1 after that. */
const FREQUENCY_HALF_AT = 3;

/** What the recall events say about one entry. */
export interface RecallTally {
  hits: number;
  /** Sum of the normalised relevance (0..1) of each hit. */
  relevanceSum: number;
  lastHitAt: string;
}

export interface RecallSignals {
  frequency: number;
  relevance: number;
  recency: number;
  freshness: number;
  score: number;
}

/**
 * SPEC O4: the four signals of an entry, each in 0..1, and their weighted score. Pure.
 *
 * - frequency `1 − 0.5^(hits / 3)`: three recalls give 0.5, more approach 1;
 * - relevance: the mean normalised relevance of the hits;
 * - recency `0.5^(days since the last hit / recencyHalfLifeDays)`;
 * - freshness `0.5^(days since the entry was last seen / freshnessHalfLifeDays)`.
 */
export function recallSignals(tally: RecallTally, lastSeenAt: string, now: Date, options: RecallSignalsOptions): RecallSignals {
  const frequency = tally.hits <= 0 ? 0 : 1 - 0.5 ** (tally.hits / FREQUENCY_HALF_AT);
  const relevance = tally.hits <= 0 ? 0 : clamp(tally.relevanceSum / tally.hits);
  const recency = halfLife(daysSince(tally.lastHitAt, now), options.recencyHalfLifeDays);
  const freshness = halfLife(daysSince(lastSeenAt, now), options.freshnessHalfLifeDays);
  const w = options.weights;
  const score = clamp(w.frequency * frequency + w.relevance * relevance + w.recency * recency + w.freshness * freshness);
  return { frequency, relevance, recency, freshness, score };
}

function daysSince(iso: string, now: Date): number {
  return Math.max(0, (now.getTime() - Date.parse(iso)) / DAY_MS);
}

function halfLife(days: number, halfLifeDays: number): number {
  return 0.5 ** (days / halfLifeDays);
}

function clamp(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}
