import type { LineageOrigin, LineageOriginKind } from '../schemas/memory-lineage';
import type { MemoryEntry } from '../schemas/memory-entry';
import { contentExcerpt } from './memory-lineage';

/** One step of an entry's history (SPEC B10). */
export interface MemoryHistoryStep {
  /**
   * `merged`: entry `id` was merged into `into`; `superseded`: `id` was superseded by `into`;
   * `written`: the entry itself was written (`origin` says how; absent: unknown origin).
   */
  kind: 'merged' | 'superseded' | 'written';
  id: string;
  into?: string;
  at: string;
  runId?: string;
  /** How the entry of this step had been written (for `written`, the whole origin record). */
  origin?: LineageOriginKind;
  /** For the `written` step: tool, pass, sessions and turns, import source. */
  details?: Omit<LineageOrigin, 'kind' | 'at' | 'runId'>;
  excerpt: string;
  /** Whether the store still holds that entry; a merged source is deleted, a superseded one is kept. */
  stored: boolean;
}

export interface MemoryHistory {
  id: string;
  /**
   * Oldest first; the entry's own `written` step comes after every step that fed it at the same
   * time, and a superseded entry's last step says so (at its `validTo`).
   */
  steps: MemoryHistoryStep[];
  /** Older ancestors the entry no longer lists (`lineage.folded`). */
  folded: number;
}

/**
 * SPEC B10: the chain an entry descends from, through merges and supersessions, oldest first,
 * from what its lineage recorded (so it still shows ancestors the store purged); `stored` says
 * which of them the store still holds. Pure.
 */
export function memoryHistory(entry: MemoryEntry, stored: (id: string) => boolean): MemoryHistory {
  const lineage = entry.lineage;
  const steps: MemoryHistoryStep[] = (lineage?.ancestors ?? []).map((ancestor) => ({
    kind: ancestor.relation,
    id: ancestor.id,
    into: ancestor.into,
    at: ancestor.at,
    ...(ancestor.runId === undefined ? {} : { runId: ancestor.runId }),
    ...(ancestor.origin === undefined ? {} : { origin: ancestor.origin }),
    excerpt: ancestor.excerpt,
    stored: stored(ancestor.id),
  }));
  const origin = lineage?.origin;
  const { kind, at, runId, ...details } = origin ?? { kind: undefined, at: entry.createdAt, runId: undefined };
  steps.push({
    kind: 'written',
    id: entry.id,
    at,
    ...(runId === undefined ? {} : { runId }),
    ...(kind === undefined ? {} : { origin: kind }),
    ...(Object.keys(details).length === 0 ? {} : { details }),
    excerpt: contentExcerpt(entry.content),
    stored: true,
  });
  const order = (step: MemoryHistoryStep) => (step.kind === 'written' ? 1 : 0);
  steps.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || order(a) - order(b));
  // A superseded entry ends its own history: the successor took over at its validTo.
  if (entry.supersededBy !== undefined && entry.validTo !== undefined) {
    steps.push({
      kind: 'superseded',
      id: entry.id,
      into: entry.supersededBy,
      at: entry.validTo,
      excerpt: contentExcerpt(entry.content),
      stored: true,
    });
  }
  return { id: entry.id, steps, folded: lineage?.folded ?? 0 };
}
