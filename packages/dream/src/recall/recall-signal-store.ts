import type { ILongTermMemory, MemoryEntry } from '@reverie/core';
import type { EntryRecallTally, RecallSignalsFile, RecallStateStore } from '@reverie/dream-state';
import type { RecallSignalsOptions } from './recall-options';
import { type RecallSignals, recallSignals } from './recall-score';

export interface CandidateQuery {
  minRecallCount: number;
  minScore: number;
}

export interface RecallCandidate {
  entry: MemoryEntry;
  tally: EntryRecallTally;
  signals: RecallSignals;
}

/**
 * SPEC O4: the per-entry recall signals as the promotion pass, the signal gate and `explain`
 * read them, from a state store's recall state (the recall-signals pass folds events into them).
 */
export class RecallSignalStore {
  constructor(
    private readonly recall: Pick<RecallStateStore, 'readSignals'>,
    private readonly options: RecallSignalsOptions,
  ) {}

  read(): Promise<RecallSignalsFile> {
    return this.recall.readSignals();
  }

  /** Signals of an entry with a tally. */
  signalsOf(tally: EntryRecallTally, entry: MemoryEntry, now: Date): RecallSignals {
    return recallSignals(tally, entry.lastSeenAt, now, this.options);
  }

  /** Live entries recalled often enough since their last promotion, with a high enough score, best first. */
  async candidates(memory: ILongTermMemory, query: CandidateQuery, now: Date): Promise<RecallCandidate[]> {
    const file = await this.read();
    const found: RecallCandidate[] = [];
    // Only the entries recalled often enough are read: the cost follows the recall signals, not the memory (B12).
    for (const [id, tally] of Object.entries(file.entries)) {
      if (recallsSincePromotion(tally) < query.minRecallCount) continue;
      const entry = await memory.get(id);
      if (!entry || entry.category.startsWith('_system')) continue;
      const signals = this.signalsOf(tally, entry, now);
      if (signals.score >= query.minScore) found.push({ entry, tally, signals });
    }
    return found.sort((a, b) => b.signals.score - a.signals.score || a.entry.id.localeCompare(b.entry.id));
  }
}

/** Recalls since the entry was last promoted (all of them when it never was). */
export function recallsSincePromotion(tally: EntryRecallTally): number {
  return tally.hits - (tally.hitsAtPromotion ?? 0);
}
