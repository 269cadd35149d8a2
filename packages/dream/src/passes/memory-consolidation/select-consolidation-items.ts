import type { FeedbackSignal, IFeedbackStore, MemoryEntry } from '@reverie/core';
import type { ConsolidationCursor, CursorPosition } from '@reverie/dream-state';
import { type NeighbourLookup, storeLookup } from '../../review/neighbour-lookup';
import { CandidateLinks, findCandidateClusters, ItemNumbers, seedLinks } from './candidate-clusters';
import { comparePositions, entryPosition } from './consolidation-cursor';
import type { ConsolidationItem } from './consolidation-item';
import type { MemoryConsolidationOptions } from './memory-consolidation-options';
import type { WorkingSet } from './working-set';

const DAY_MS = 86_400_000;

/** Which items the model step looks at in one run, grouped as they should travel. */
export interface Selection {
  groups: string[][];
  /** Items the run looked at (seeds and everything shown). */
  considered: Set<string>;
  /** Where the entries cursor moves once the run is applied. */
  through?: CursorPosition;
  /** The entries whose wording the cursor records as seen once the run is applied. */
  seen: MemoryEntry[];
  notes: string[];
}

/**
 * Incremental (B1): clusters around the oldest changed entries, at most `maxChangedPerRun` of
 * them. With a feed, the store is asked for the seeds' neighbours a slice at a time (all of
 * them when the run listed every entry) and only the links are kept, instead of indexing the
 * listing again.
 */
export async function selectChanged(
  items: readonly ConsolidationItem[],
  itemOf: ReadonlyMap<string, string>,
  scope: WorkingSet,
  corrections: readonly FeedbackSignal[],
  retrying: readonly string[],
  lookup: NeighbourLookup,
  signal: AbortSignal,
  options: MemoryConsolidationOptions,
): Promise<Selection> {
  const changed = scope.changed;
  const batch = changed.slice(0, options.maxChangedPerRun);
  const seeds = [...new Set([...retrying, ...batch.map((entry) => itemOf.get(entry.id)!)])];
  let links: CandidateLinks | undefined;
  if (scope.feed) {
    const found = new CandidateLinks(new ItemNumbers(items.map((item) => item.id)));
    const isItem = (id: string) => itemOf.get(id) === id;
    const limit = Math.min(100, Math.max(1, options.neighbours));
    const itemOfEntry = (id: string) => itemOf.get(id);
    await scope.feed.eachSlice(
      seeds,
      limit,
      (slice, hits) => seedLinks(slice, isItem, options, storeLookup(hits, itemOfEntry, lookup), found),
      signal,
    );
    links = found;
  }
  const clusters = findCandidateClusters(
    items,
    seeds,
    corrections.map((signal) => signal.text),
    options,
    lookup,
    links,
  );
  const inClusters = new Set(clusters.flatMap((cluster) => cluster.ids));
  const alone = seeds.filter((seed) => !inClusters.has(seed)).length;
  const source = scope.live ? `of ${scope.entries.length} entries listed` : 'read from the change feed';
  const notes = [`incremental: ${changed.length} changed since the cursor (${source}), ${batch.length} taken this run`];
  if (changed.length > batch.length) notes.push(`${changed.length - batch.length} changed entries left for the next run`);
  if (retrying.length > 0) notes.push(`${retrying.length} entr(y/ies) whose merge was refused earlier offered again`);
  if (alone > 0) notes.push(`${alone} changed entries have no similar entry: no model call needed for them`);
  const last = batch.at(-1);
  return {
    groups: clusters.map((cluster) => cluster.ids),
    considered: new Set([...seeds, ...inClusters]),
    ...(last ? { through: entryPosition(last) } : {}),
    seen: batch,
    notes,
  };
}

/** Full: every item (up to `maxEntriesFull`), the baseline incremental is measured against. */
export function selectAll(items: readonly ConsolidationItem[], options: MemoryConsolidationOptions): Selection {
  const shown = items.slice(0, options.maxEntriesFull);
  const members = shown.flatMap((item) => item.members);
  const last = members.map(entryPosition).sort(comparePositions).at(-1);
  const notes = [`full: ${shown.length} of ${items.length} entries sent`];
  if (shown.length < items.length)
    notes.push(`${items.length - shown.length} entries over maxEntriesFull (${options.maxEntriesFull}) not sent`);
  return {
    groups: shown.map((item) => [item.id]),
    considered: new Set(shown.map((item) => item.id)),
    ...(last ? { through: last } : {}),
    seen: members,
    notes,
  };
}

/** New feedback since the cursor, from the last `feedbackDays`, at most `maxFeedback` (the most recent). */
export async function unseenFeedback(
  store: IFeedbackStore | undefined,
  cursor: ConsolidationCursor,
  now: Date,
  options: MemoryConsolidationOptions,
): Promise<FeedbackSignal[]> {
  if (!store || options.maxFeedback === 0 || options.feedbackDays === 0) return [];
  const windowStart = new Date(now.getTime() - options.feedbackDays * DAY_MS).toISOString();
  const signals = await store.list({ since: windowStart });
  const unseen = signals.filter(
    (signal) => cursor.feedback === undefined || comparePositions({ at: signal.timestamp, id: signal.id }, cursor.feedback) > 0,
  );
  return unseen.slice(Math.max(0, unseen.length - options.maxFeedback));
}
