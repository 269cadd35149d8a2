import { promotionPass } from './recall-options';
import { DeclaredPass } from '../engine/declared-pass';
import { DEFAULT_DECAY_OPTIONS, effectiveImportance, type MemoryEntry } from '@reverie/core';
import { ownValue } from '@reverie/core/internal';
import { z } from 'zod';
import type { DreamServices, PassContext, PassPlan, PassSkip } from '../engine/dream-types';
import {
  type PromotionOptions,
  type PromotionOptionsInput,
  promotionOptionsSchema,
  type RecallSignalsOptionsInput,
  recallSignalsOptionsSchema,
} from './recall-options';
import { RecallSignalStore } from './recall-signal-store';
import { parsePassOptions } from '../passes/parse-pass-options';
import { describeServiceNeeds } from '../engine/service-needs';
import type { DreamOperation } from '@reverie/dream-state';

/**
 * SPEC O4 (deep sleep): raises the importance of entries the recall signals validate — recalled
 * at least `minRecallCount` times since their last promotion, with a score of at least
 * `minScore` — by `importanceStep` (up to 1), best score first, at most `maxPerRun`. The raise
 * starts from the effective importance (SPEC D7, decayed to now) and is stored as of now
 * (`importanceAt`), so it is never decayed twice. Only importance changes: never the content,
 * never `lastSeenAt` (D4), never `_system`.
 */
export class PromotionPass extends DeclaredPass {
  readonly options: PromotionOptions;
  private readonly signals;

  constructor(options: PromotionOptionsInput = {}, signalOptions: RecallSignalsOptionsInput = {}) {
    super(promotionPass);
    this.options = parsePassOptions('promotion', promotionOptionsSchema, options);
    this.signals = parsePassOptions('promotion (recall signals)', recallSignalsOptionsSchema, signalOptions);
  }

  async plan(context: PassContext): Promise<PassPlan | PassSkip> {
    const { memory, state } = context.services;
    if (!memory) return { skipped: describeServiceNeeds(['memory']) };
    const store = new RecallSignalStore(state.recall, this.signals);
    const now = context.now();
    const decay = context.services.decay ?? DEFAULT_DECAY_OPTIONS;
    const candidates = await store.candidates(memory, this.options, now);
    const operations: DreamOperation[] = [];
    const promoted: Array<{ id: string; importance: number; hits: number }> = [];
    const notes: string[] = [];
    let atTop = 0;
    for (const { entry, tally, signals } of candidates) {
      if (promoted.length >= this.options.maxPerRun) break;
      const current = effectiveImportance(entry, now, decay);
      if (current >= 1) {
        atTop += 1;
        continue;
      }
      const importance = Math.min(1, round(current + this.options.importanceStep));
      const raised: MemoryEntry = { ...entry, importance, importanceAt: now.toISOString() };
      operations.push({
        op: 'memory.save',
        entry: raised,
        expectUpdatedAt: entry.updatedAt,
        reason: `recalled ${tally.hits}× with score ${signals.score.toFixed(2)}: importance ${current.toFixed(2)} → ${importance.toFixed(2)}`,
      });
      promoted.push({ id: entry.id, importance, hits: tally.hits });
    }
    notes.push(
      `${candidates.length} candidate(s) (≥ ${this.options.minRecallCount} recalls since their last promotion, score ≥ ${this.options.minScore})`,
      `${promoted.length} promoted`,
    );
    if (atTop > 0) notes.push(`${atTop} candidate(s) already at importance 1`);
    if (candidates.length - atTop > promoted.length)
      notes.push(`maxPerRun (${this.options.maxPerRun}) reached: the rest wait for the next run`);
    return {
      operations,
      itemsProcessed: candidates.length,
      notes,
      refusals: [],
      details: { promoted: promoted.map(({ id, importance }) => ({ id, importance })) },
      commit: { at: now.toISOString(), promoted } satisfies PromotionCommit,
    };
  }

  /** Marks the promotions of the applied plan in the recall signals. */
  async commit(services: DreamServices, data: unknown): Promise<void> {
    const { at, promoted } = promotionCommitSchema.parse(data);
    // Mark only what landed: a promotion skipped as a conflict stays a candidate.
    const file = await services.state.recall.readSignals();
    for (const { id, importance, hits } of promoted) {
      const tally = ownValue(file.entries, id);
      if (tally && (await services.memory?.get(id))?.importance === importance)
        Object.assign(tally, { promotedAt: at, hitsAtPromotion: hits });
    }
    await services.state.recall.writeSignals(file);
  }
}

/** What `commit` needs of a plan: when it was made and what it promoted. */
const promotionCommitSchema = z.object({
  at: z.string(),
  promoted: z.array(z.object({ id: z.string(), importance: z.number(), hits: z.number() })),
});
type PromotionCommit = z.infer<typeof promotionCommitSchema>;

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
