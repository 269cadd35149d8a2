import { hasTiers, isUnderPrefix, type MemoryEntry } from '@reverie/core';
import { SYSTEM_CATEGORY } from '@reverie/core/internal';
import type { DreamOperation } from '@reverie/dream-state';
import { DeclaredPass } from '../engine/declared-pass';
import type { PassContext, PassPlan, PassSkip } from '../engine/dream-types';
import { describeServiceNeeds } from '../engine/service-needs';
import { parsePassOptions } from '../passes/parse-pass-options';
import { type RecallSignalsOptionsInput, recallSignalsOptionsSchema } from '../recall/recall-options';
import type { ValueExplanation } from './entry-value';
import { entryScorer } from './tier-report';
import { type TierMigrationOptions, type TierMigrationOptionsInput, tierMigrationOptionsSchema, tierMigrationPass } from './tier-options';

const warned = new WeakSet<object>();

/** One planned move, as the plan's details list it. */
export interface TierMove {
  id: string;
  to: 'hot' | 'cold';
  score: number;
}

/**
 * SPEC B13, O1 (deep sleep, after `promotion`): moves entries between the hot and the cold tier by
 * their value score (`valueScore`). A hot entry at least `minAgeDays` old scoring at most
 * `demoteBelow` goes cold; a cold entry scoring at least `promoteAbove` comes back (only a
 * recalled cold entry can: its tally is what raises it). Promotions first, then the lowest scores,
 * at most `maxMovesPerRun`. A move is a `memory.save` of the entry with only its tier changed, so it
 * is journaled, archived and undone like any other write. A store without tiers keeps every entry
 * hot: the pass skips it and says so once.
 */
export class TierMigrationPass extends DeclaredPass {
  readonly options: TierMigrationOptions;
  private readonly signals;

  constructor(options: TierMigrationOptionsInput = {}, signalOptions: RecallSignalsOptionsInput = {}) {
    super(tierMigrationPass);
    this.options = parsePassOptions('tier-migration', tierMigrationOptionsSchema, options);
    this.signals = parsePassOptions('tier-migration (recall signals)', recallSignalsOptionsSchema, signalOptions);
  }

  async plan(context: PassContext): Promise<PassPlan | PassSkip> {
    const { memory, state, logger } = context.services;
    if (!memory) return { skipped: describeServiceNeeds(['memory']) };
    if (!hasTiers(memory)) {
      const reason = 'the memory store has no tiers (ILongTermMemory.tiers): it keeps every entry hot';
      if (!warned.has(memory)) {
        warned.add(memory);
        logger.warn(
          `tier-migration: ${reason}. Implement tiers in the store (see docs/custom-stores.md) to move cold entries out of recall.`,
        );
      }
      return { skipped: reason };
    }
    const now = context.now();
    const { scoreEntry, recalledIds } = await entryScorer(
      { recall: state.recall, memory, now, decay: context.services.decay },
      { signals: this.signals, tiers: this.options },
    );
    const outside = (entry: MemoryEntry) => isUnderPrefix(entry.category, SYSTEM_CATEGORY);

    const hot = (await memory.list({ tier: 'hot' })).filter((entry) => !outside(entry));
    const hotIds = new Set(hot.map((entry) => entry.id));
    const demote: Array<{ entry: MemoryEntry; value: ValueExplanation }> = [];
    let young = 0;
    for (const entry of hot) {
      const value = scoreEntry(entry);
      if (value.verdict === 'to cold') demote.push({ entry, value });
      else if (value.verdict === 'too young') young += 1;
    }
    // Only a recalled cold entry can earn its way back: the candidates are the tallied ids that are not hot.
    const promote: Array<{ entry: MemoryEntry; value: ValueExplanation }> = [];
    for (const id of recalledIds) {
      if (hotIds.has(id)) continue;
      const entry = await memory.get(id);
      if (!entry || entry.tier !== 'cold' || outside(entry)) continue;
      const value = scoreEntry(entry);
      if (value.verdict === 'to hot') promote.push({ entry, value });
    }
    promote.sort((a, b) => b.value.score - a.value.score || a.entry.id.localeCompare(b.entry.id));
    demote.sort((a, b) => a.value.score - b.value.score || a.entry.id.localeCompare(b.entry.id));

    const moves = [
      ...promote.map((item) => ({ ...item, to: 'hot' as const })),
      ...demote.map((item) => ({ ...item, to: 'cold' as const })),
    ].slice(0, this.options.maxMovesPerRun);
    const operations: DreamOperation[] = moves.map(({ entry, value, to }) => ({
      op: 'memory.save',
      entry: { ...entry, tier: to },
      expectUpdatedAt: entry.updatedAt,
      reason: moveReason(value, to, this.options),
    }));
    const notes = [
      `${hot.length} hot entr(y/ies) scored; ${demote.length} at most ${this.options.demoteBelow} and at least ${this.options.minAgeDays} days old, ${young} too young to move`,
      `${promote.length} cold entr(y/ies) at least ${this.options.promoteAbove}`,
      `${moves.filter((move) => move.to === 'cold').length} to cold, ${moves.filter((move) => move.to === 'hot').length} to hot`,
    ];
    if (promote.length + demote.length > moves.length)
      notes.push(`maxMovesPerRun (${this.options.maxMovesPerRun}) reached: the rest wait for the next run`);
    const planned: TierMove[] = moves.map(({ entry, value, to }) => ({ id: entry.id, to, score: round(value.score) }));
    return { operations, itemsProcessed: hot.length + promote.length, notes, refusals: [], details: { moves: planned } };
  }
}

function moveReason(value: ValueExplanation, to: 'hot' | 'cold', options: TierMigrationOptions): string {
  const { recall, importance, reinforcement, recency } = value.parts;
  const parts = `recall ${recall.toFixed(2)}, importance ${importance.toFixed(2)}, reinforcement ${reinforcement.toFixed(2)}, recency ${recency.toFixed(2)}`;
  const rule = value.rule === 'weighted' ? '' : ` (${value.rule})`;
  return to === 'cold'
    ? `value ${value.score.toFixed(2)}${rule} ≤ ${options.demoteBelow} (${parts}), ${Math.floor(value.ageDays)} days old: to cold`
    : `value ${value.score.toFixed(2)}${rule} ≥ ${options.promoteAbove} (${parts}): back to hot`;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
