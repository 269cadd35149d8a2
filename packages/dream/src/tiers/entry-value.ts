import { type DecayOptions, effectiveImportance, holdsNow, type MemoryEntry } from '@reverie/core';
import type { EntryRecallTally } from '@reverie/dream-state';
import type { RecallSignals } from '../recall/recall-score';
import type { TierMigrationOptions } from './tier-options';
import { type ValueFacts, type ValueScore, valueScore } from './value-score';

const DAY_MS = 86_400_000;

/** SPEC B13: the value facts of a stored entry, from its recall tally and signals (none when never recalled). Pure. */
export function valueFactsOf(
  entry: MemoryEntry,
  recall: { tally: EntryRecallTally; signals: RecallSignals } | undefined,
  now: Date,
  decay: DecayOptions,
): ValueFacts {
  const lastActive = Math.max(Date.parse(entry.lastSeenAt), recall ? Date.parse(recall.tally.lastHitAt) : Number.NEGATIVE_INFINITY);
  return {
    category: entry.category,
    importance: effectiveImportance(entry, now, decay),
    reinforcementCount: entry.reinforcementCount,
    idleDays: Math.max(0, (now.getTime() - lastActive) / DAY_MS),
    recallScore: recall?.signals.score ?? 0,
    superseded: entry.supersededBy !== undefined || !holdsNow(entry, now.getTime()),
    fromCorrection: entry.lineage?.origin?.kind === 'feedback',
  };
}

/** What `reverie memory explain` shows of an entry's value (SPEC B13). */
export interface ValueExplanation extends ValueScore {
  facts: ValueFacts;
  /** Days since `createdAt`. */
  ageDays: number;
  tier: 'hot' | 'cold';
  /** What the next `tier-migration` run would do with it, on this score. */
  verdict: 'stays' | 'to cold' | 'to hot' | 'too young';
}

/** The value score of an entry with its parts and what tier migration would do with it. Pure. */
export function explainValue(
  entry: MemoryEntry,
  recall: { tally: EntryRecallTally; signals: RecallSignals } | undefined,
  now: Date,
  decay: DecayOptions,
  options: TierMigrationOptions,
): ValueExplanation {
  const facts = valueFactsOf(entry, recall, now, decay);
  const scored = valueScore(facts, options);
  const ageDays = Math.max(0, (now.getTime() - Date.parse(entry.createdAt)) / DAY_MS);
  const tier = entry.tier === 'cold' ? 'cold' : 'hot';
  return { ...scored, facts, ageDays, tier, verdict: verdictOf(tier, scored.score, ageDays, options) };
}

/** SPEC B13: where tier migration moves an entry of this tier, score and age. Pure. */
export function verdictOf(
  tier: 'hot' | 'cold',
  score: number,
  ageDays: number,
  options: TierMigrationOptions,
): ValueExplanation['verdict'] {
  if (tier === 'cold') return score >= options.promoteAbove ? 'to hot' : 'stays';
  if (score > options.demoteBelow) return 'stays';
  return ageDays >= options.minAgeDays ? 'to cold' : 'too young';
}
