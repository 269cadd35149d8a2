import { type DecayOptions, DEFAULT_DECAY_OPTIONS, effectiveImportance, type ILongTermMemory } from '@reverie/core';
import { ownValue } from '@reverie/core/internal';
import type { PromotionOptions, RecallSignalsOptions } from './recall-options';
import type { RecallSignals } from './recall-score';
import type { RecallStateStore } from '@reverie/dream-state';
import { RecallSignalStore, recallsSincePromotion } from './recall-signal-store';

export interface PromotionExplanation {
  entryId: string;
  /** Whether the entry is, as of the last recall-signals run, promoted or due for promotion. */
  status: 'not-found' | 'no-recalls' | 'promoted' | 'candidate' | 'not-a-candidate';
  hits: number;
  /** Recalls since the last promotion (all of them when it never was promoted). */
  recallsSincePromotion: number;
  signals?: RecallSignals;
  weights: RecallSignalsOptions['weights'];
  promotedAt?: string;
  /** Plain sentences: why the entry was or was not promoted. */
  reasons: string[];
}

/**
 * SPEC O4: why an entry was, or was not, promoted — from the folded signals (events recorded
 * since the last recall-signals run are not in them yet).
 */
export async function explainPromotion(
  entryId: string,
  services: { recall: Pick<RecallStateStore, 'readSignals'>; memory: ILongTermMemory; now: Date; decay?: DecayOptions | undefined },
  options: { signals: RecallSignalsOptions; promotion: PromotionOptions },
): Promise<PromotionExplanation> {
  const { minRecallCount, minScore } = options.promotion;
  const store = new RecallSignalStore(services.recall, options.signals);
  const base = { entryId, hits: 0, recallsSincePromotion: 0, weights: options.signals.weights };
  const entry = await services.memory.get(entryId);
  if (!entry) return { ...base, status: 'not-found', reasons: [`no live memory entry has the id ${entryId}`] };
  if (entry.category.startsWith('_system'))
    return { ...base, status: 'not-a-candidate', reasons: ['entries under _system are never recalled nor promoted'] };
  const tally = ownValue((await store.read()).entries, entryId);
  if (!tally) {
    return {
      ...base,
      status: 'no-recalls',
      reasons: ['no search has returned it since recall signals were last folded (the recall-signals pass)'],
    };
  }
  const signals = store.signalsOf(tally, entry, services.now);
  const since = recallsSincePromotion(tally);
  const described = {
    ...base,
    hits: tally.hits,
    recallsSincePromotion: since,
    signals,
    ...(tally.promotedAt ? { promotedAt: tally.promotedAt } : {}),
  };
  const reasons = [
    `recalled ${tally.hits}× (${since} since its last promotion), score ${signals.score.toFixed(2)} = ` +
      `${options.signals.weights.frequency} × frequency ${signals.frequency.toFixed(2)} + ${options.signals.weights.relevance} × relevance ${signals.relevance.toFixed(2)} + ` +
      `${options.signals.weights.recency} × recency ${signals.recency.toFixed(2)} + ${options.signals.weights.freshness} × freshness ${signals.freshness.toFixed(2)}`,
  ];
  const importance = effectiveImportance(entry, services.now, services.decay ?? DEFAULT_DECAY_OPTIONS);
  if (tally.promotedAt) reasons.push(`promoted at ${tally.promotedAt}; importance now ${importance.toFixed(2)}`);
  const missing: string[] = [];
  if (since < minRecallCount) missing.push(`only ${since} recall(s) since its last promotion (needs ${minRecallCount})`);
  if (signals.score < minScore) missing.push(`score ${signals.score.toFixed(2)} is below ${minScore}`);
  if (missing.length === 0) {
    reasons.push(
      importance >= 1 ? 'qualifies, but its importance is already 1' : 'qualifies: the next promotion pass raises its importance',
    );
    return { ...described, status: 'candidate', reasons };
  }
  reasons.push(...missing);
  return { ...described, status: tally.promotedAt ? 'promoted' : 'not-a-candidate', reasons };
}
