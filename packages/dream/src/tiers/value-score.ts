import { isUnderPrefix } from '@reverie/core';
import type { TierMigrationOptions } from './tier-options';

/** What the value score of one entry is computed from (see `valueFactsOf`). */
export interface ValueFacts {
  category: string;
  /** Importance after decay, now (SPEC D7), 0..1. */
  importance: number;
  reinforcementCount: number;
  /** Days since the entry was last seen or last recalled, whichever is later (≥ 0). */
  idleDays: number;
  /** The recall signals' score (SPEC O4), 0..1; 0 when it was never recalled. */
  recallScore: number;
  /** Superseded or ended (SPEC B9). */
  superseded: boolean;
  /** Written from the user's correction (lineage origin `feedback`, SPEC B10). */
  fromCorrection: boolean;
}

/** Which rule decided the score: the weighted parts, or a rule over them. */
export type ValueRule = 'weighted' | 'pinned' | 'superseded' | 'correction';

export interface ValueScore {
  /** 0..1: what keeping the entry hot is worth. */
  score: number;
  /** The four parts, each 0..1, before weighting. */
  parts: { recall: number; importance: number; reinforcement: number; recency: number };
  /** Their weighted sum. */
  weighted: number;
  rule: ValueRule;
}

/**
 * SPEC B13: the value of keeping an entry hot, from what Reverie knows of it. Pure.
 *
 * - the weighted sum of four parts: the recall score, importance after decay, reinforcement
 *   `1 − 0.5^((count − 1) / 2)` (one observation 0, three 0.5) and recency
 *   `0.5^(idle days / recencyHalfLifeDays)`;
 * - then, in this order: an entry under a pinned category scores 1; a superseded or ended one at
 *   most `supersededCeiling`; one written from a correction at least `correctionFloor`.
 */
export function valueScore(facts: ValueFacts, options: TierMigrationOptions): ValueScore {
  const parts = {
    recall: unit(facts.recallScore),
    importance: unit(facts.importance),
    reinforcement: unit(1 - 0.5 ** ((Math.max(1, facts.reinforcementCount) - 1) / 2)),
    recency: unit(0.5 ** (Math.max(0, facts.idleDays) / options.recencyHalfLifeDays)),
  };
  const w = options.weights;
  const weighted = unit(
    w.recall * parts.recall + w.importance * parts.importance + w.reinforcement * parts.reinforcement + w.recency * parts.recency,
  );
  if (options.pinnedCategories.some((prefix) => isUnderPrefix(facts.category, prefix)))
    return { score: 1, parts, weighted, rule: 'pinned' };
  if (facts.superseded) return { score: Math.min(weighted, options.supersededCeiling), parts, weighted, rule: 'superseded' };
  if (facts.fromCorrection) return { score: Math.max(weighted, options.correctionFloor), parts, weighted, rule: 'correction' };
  return { score: weighted, parts, weighted, rule: 'weighted' };
}

function unit(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}
