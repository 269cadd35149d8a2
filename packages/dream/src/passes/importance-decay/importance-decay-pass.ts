import { z } from 'zod';
import { decayImportance, type DecayOptions } from '@reverie/core';
import { PassCursor } from '../../cursors/pass-cursor';
import type { DreamOperation, DreamPass, DreamServices, PassContext, PassPlan } from '../../engine/dream-types';
import { type ImportanceDecayOptions, importanceDecayOptionsSchema } from './importance-decay-options';

const cursorSchema = z.object({ decayedThrough: z.string() });

/**
 * SPEC D7, light sleep: lowers the importance of entries not seen for a while, on a half-life,
 * never under a floor. The pass remembers when it last decayed (`decayedThrough`) and applies
 * only the time since, so however often cycles run the curve is the same (decay composes).
 * Importance is stored to 4 decimals; a change that rounds to nothing is not written.
 */
export class ImportanceDecayPass implements DreamPass {
  readonly name = 'importance-decay';
  readonly phase = 'light-sleep' as const;
  readonly requires = ['memory'] as const;
  readonly model = 'none' as const;
  private readonly options: ImportanceDecayOptions;

  constructor(options: z.input<typeof importanceDecayOptionsSchema> = {}) {
    this.options = importanceDecayOptionsSchema.parse(options);
  }

  async plan(context: PassContext): Promise<PassPlan> {
    const { memory, dataPath } = context.services;
    const cursor = new PassCursor(dataPath, this.name, cursorSchema);
    const previous = await cursor.read();
    const now = context.now().toISOString();
    const decay: DecayOptions = this.options;
    const entries = await memory!.list();
    const operations: DreamOperation[] = [];
    for (const entry of entries) {
      if (entry.category.startsWith('_system')) continue;
      const from = previous?.decayedThrough ?? entry.lastSeenAt;
      const decayed = decayImportance(entry.importance, { lastSeenAt: entry.lastSeenAt, from, to: now }, decay);
      const importance = Math.round(decayed * 10_000) / 10_000;
      if (importance === entry.importance) continue;
      operations.push({
        op: 'memory.save',
        entry: { ...entry, importance },
        expectUpdatedAt: entry.updatedAt,
        reason: `importance ${entry.importance} → ${importance} (not seen since ${entry.lastSeenAt.slice(0, 10)})`,
      });
    }
    return {
      operations,
      itemsProcessed: entries.length,
      notes: [`${operations.length} of ${entries.length} entries decayed`],
      refusals: [],
      commit: { decayedThrough: now } satisfies z.infer<typeof cursorSchema>,
    };
  }

  /** Records how far the applied plan decayed, so the next run applies only the time since. */
  async commit(services: DreamServices, data: unknown): Promise<void> {
    await new PassCursor(services.dataPath, this.name, cursorSchema).write(cursorSchema.parse(data));
  }
}
