import { importanceDecayPass } from './importance-decay-options';
import { DeclaredPass } from '../../engine/declared-pass';
import { z } from 'zod';
import { DEFAULT_DECAY_OPTIONS, type DecayOptions, effectiveImportance, type MemoryEntry } from '@reverie/core';
import { DAY_MS, timestampMs } from '@reverie/core/internal';
import { PassCursor } from '@reverie/dream-state';
import type { DreamServices, PassContext, PassPlan } from '../../engine/dream-types';
import { parsePassOptions } from '../parse-pass-options';
import { type ImportanceDecayOptions, type ImportanceDecayOptionsInput, importanceDecayOptionsSchema } from './importance-decay-options';
import type { DreamOperation } from '@reverie/dream-state';

/**
 * `decayedThrough`: written by the pass when it rewrote importances (before decay moved to read
 * time): stored values were decayed through that instant. `migratedAt`: when the pass stamped
 * `importanceAt = decayedThrough` on those entries, after which nothing is left to migrate.
 */
const cursorSchema = z.object({ decayedThrough: z.string().optional(), migratedAt: z.string().optional() });
type DecayCursor = z.infer<typeof cursorSchema>;

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * SPEC D7, light sleep. Importance decays where it is read (`effectiveImportance`: stored value,
 * `importanceAt`, `lastSeenAt` and the decay options), so by default this pass writes nothing
 * and reads nothing. With `report: true` it reports how many entries now sit below their stored
 * importance and by how much; with `write: true` it stores the decayed values (4 decimals,
 * stamped `importanceAt` now).
 *
 * Data from before read-time decay: the old cursor's `decayedThrough` means stored importances
 * were already decayed through that instant. Once, the pass stamps `importanceAt =
 * decayedThrough` on entries whose grace period had ended by then (and that carry no
 * `importanceAt`), so the read-time curve never decays them twice; the cursor is then marked
 * migrated.
 */
export class ImportanceDecayPass extends DeclaredPass {
  readonly options: ImportanceDecayOptions;

  constructor(options: ImportanceDecayOptionsInput = {}) {
    super(importanceDecayPass);
    this.options = parsePassOptions('importance-decay', importanceDecayOptionsSchema, options);
  }

  async plan(context: PassContext): Promise<PassPlan> {
    const { memory, state } = context.services;
    const decay: DecayOptions = context.services.decay ?? DEFAULT_DECAY_OPTIONS;
    const cursor = await new PassCursor(state.cursors, this.name, cursorSchema).read();
    const legacyThrough = cursor?.decayedThrough !== undefined && cursor.migratedAt === undefined ? cursor.decayedThrough : undefined;
    const now = context.now();
    if (!this.options.write && !this.options.report && legacyThrough === undefined) {
      return {
        operations: [],
        itemsProcessed: 0,
        notes: ['importance decays where it is read: nothing to write, and no entry read (report: true counts what has decayed)'],
        refusals: [],
      };
    }
    const entries = (await memory!.list()).filter((entry) => !entry.category.startsWith('_system'));
    const operations: DreamOperation[] = [];
    let migrated = 0;
    let rewritten = 0;
    let below = 0;
    let totalDrop = 0;
    let maxDrop = 0;
    for (const stored of entries) {
      const migration = legacyThrough !== undefined && needsMigration(stored, legacyThrough, decay);
      const entry: MemoryEntry = migration ? { ...stored, importanceAt: legacyThrough } : stored;
      if (migration) migrated += 1;
      const effective = effectiveImportance(entry, now, decay);
      const drop = entry.importance - effective;
      if (round4(effective) < entry.importance) {
        below += 1;
        totalDrop += drop;
        maxDrop = Math.max(maxDrop, drop);
      }
      const rewrite = this.options.write && round4(effective) !== entry.importance;
      if (!migration && !rewrite) continue;
      if (rewrite) rewritten += 1;
      operations.push({
        op: 'memory.save',
        entry: rewrite ? { ...entry, importance: round4(effective), importanceAt: now.toISOString() } : entry,
        expectUpdatedAt: stored.updatedAt,
        reason: rewrite
          ? `importance ${entry.importance} → ${round4(effective)} (not seen since ${entry.lastSeenAt.slice(0, 10)})`
          : `read-time decay: importance ${entry.importance} counts as of ${legacyThrough}, when the rewriting pass last decayed it`,
      });
    }
    const notes = [
      below === 0
        ? `none of ${entries.length} entries has decayed below its stored importance`
        : `${below} of ${entries.length} entries have decayed below their stored importance (mean −${(totalDrop / below).toFixed(4)}, max −${maxDrop.toFixed(4)})`,
      this.options.write
        ? `${rewritten} entries rewritten with their decayed importance (write: true)`
        : 'no importance written: it decays at read time (write: false)',
    ];
    if (legacyThrough !== undefined)
      notes.push(
        `migrated to read-time decay: ${migrated} entries decayed through ${legacyThrough} by the rewriting pass now count from then`,
      );
    return {
      operations,
      itemsProcessed: entries.length,
      notes,
      refusals: [],
      details: { decayed: below, meanDrop: below === 0 ? 0 : round4(totalDrop / below), maxDrop: round4(maxDrop), rewritten, migrated },
      ...(legacyThrough === undefined
        ? {}
        : { commit: { decayedThrough: legacyThrough, migratedAt: now.toISOString() } satisfies DecayCursor }),
    };
  }

  /** Marks the old cursor migrated once the plan that stamped its entries is applied. */
  async commit(services: DreamServices, data: unknown): Promise<void> {
    await new PassCursor(services.state.cursors, this.name, cursorSchema).write(cursorSchema.parse(data));
  }
}

/**
 * True for an entry whose stored importance the rewriting pass had decayed through `through`:
 * one without `importanceAt` whose grace period ended before then. (Entries still in grace at
 * `through` were never decayed; counting them from `lastSeenAt` is the same curve.)
 */
function needsMigration(entry: MemoryEntry, through: string, decay: DecayOptions): boolean {
  if (entry.importanceAt !== undefined) return false;
  return timestampMs(entry.lastSeenAt) + decay.graceDays * DAY_MS < timestampMs(through);
}
