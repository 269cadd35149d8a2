import { type DecayOptions, DEFAULT_DECAY_OPTIONS, type ILongTermMemory, isUnderPrefix, type MemoryEntry } from '@reverie/core';
import { ownValue, SYSTEM_CATEGORY } from '@reverie/core/internal';
import type { RecallStateStore } from '@reverie/dream-state';
import type { RecallSignalsOptions } from '../recall/recall-options';
import { RecallSignalStore } from '../recall/recall-signal-store';
import { explainValue, type ValueExplanation } from './entry-value';
import type { TierMigrationOptions } from './tier-options';

export interface TierServices {
  recall: Pick<RecallStateStore, 'readSignals'>;
  memory: ILongTermMemory;
  now: Date;
  decay?: DecayOptions | undefined;
}

export interface TierOptionsPair {
  signals: RecallSignalsOptions;
  tiers: TierMigrationOptions;
}

/** An entry near a threshold, as `reverie memory tiers` lists it. */
export interface TierNeighbour {
  id: string;
  category: string;
  content: string;
  score: number;
  ageDays: number;
  verdict: ValueExplanation['verdict'];
}

/** SPEC B13: what `reverie memory tiers` shows. */
export interface TierReport {
  hot: number;
  cold: number;
  /** Whether the store keeps tiers at all (`ILongTermMemory.tiers`). */
  tiered: boolean;
  thresholds: { demoteBelow: number; promoteAbove: number; minAgeDays: number };
  /** Hot entries nearest `demoteBelow` (either side), closest first. */
  nearDemotion: TierNeighbour[];
  /** Cold entries nearest `promoteAbove` (either side), closest first. */
  nearPromotion: TierNeighbour[];
}

/** The value scorer of one memory's entries, with the recall signals read once, and the ids those signals tally. */
export interface EntryScorer {
  scoreEntry(entry: MemoryEntry): ValueExplanation;
  /** The ids with a recall tally: the only cold entries whose score can rise. */
  recalledIds: string[];
}

/** SPEC B13: scores entries as `tier-migration` does, from the recall signals as the recall-signals pass last folded them. */
export async function entryScorer(services: TierServices, options: TierOptionsPair): Promise<EntryScorer> {
  const recall = new RecallSignalStore(services.recall, options.signals);
  const file = await recall.read();
  const decay = services.decay ?? DEFAULT_DECAY_OPTIONS;
  return {
    scoreEntry(entry) {
      const tally = ownValue(file.entries, entry.id);
      return explainValue(
        entry,
        tally && { tally, signals: recall.signalsOf(tally, entry, services.now) },
        services.now,
        decay,
        options.tiers,
      );
    },
    recalledIds: Object.keys(file.entries),
  };
}

/** SPEC B13: the value score of one entry with its parts, or undefined when no entry has that id. */
export async function explainEntryValue(
  entryId: string,
  services: TierServices,
  options: TierOptionsPair,
): Promise<ValueExplanation | undefined> {
  const entry = await services.memory.get(entryId);
  return entry && (await entryScorer(services, options)).scoreEntry(entry);
}

/** SPEC B13: the tiers' counts and the `nearest` entries on each side of each threshold (reads both tiers). */
export async function tierReport(services: TierServices, options: TierOptionsPair, nearest = 5): Promise<TierReport> {
  const { scoreEntry } = await entryScorer(services, options);
  const entries = (await services.memory.list()).filter((entry) => !isUnderPrefix(entry.category, SYSTEM_CATEGORY));
  const near = (tier: 'hot' | 'cold', threshold: number) =>
    entries
      .filter((entry) => (entry.tier === 'cold' ? 'cold' : 'hot') === tier)
      .map((entry) => ({ entry, value: scoreEntry(entry) }))
      .sort((a, b) => Math.abs(a.value.score - threshold) - Math.abs(b.value.score - threshold) || a.entry.id.localeCompare(b.entry.id))
      .slice(0, nearest)
      .map(({ entry, value }) => ({
        id: entry.id,
        category: entry.category,
        content: entry.content,
        score: Math.round(value.score * 1000) / 1000,
        ageDays: Math.floor(value.ageDays),
        verdict: value.verdict,
      }));
  const cold = entries.filter((entry) => entry.tier === 'cold').length;
  const { demoteBelow, promoteAbove, minAgeDays } = options.tiers;
  return {
    hot: entries.length - cold,
    cold,
    tiered: services.memory.tiers === true,
    thresholds: { demoteBelow, promoteAbove, minAgeDays },
    nearDemotion: near('hot', demoteBelow),
    nearPromotion: near('cold', promoteAbove),
  };
}
