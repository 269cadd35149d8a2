import { ownValue, setOwn } from '@reverie/core/internal';
import { z } from 'zod';
import type { RecallEvent } from './recall-event';

const tallySchema = z.object({
  hits: z.number().int().min(0),
  relevanceSum: z.number().min(0),
  firstHitAt: z.string(),
  lastHitAt: z.string(),
  /** When the promotion pass last raised the entry. */
  promotedAt: z.string().optional(),
  /** `hits` at that moment: only recalls since then count towards the next promotion. */
  hitsAtPromotion: z.number().int().min(0).optional(),
});
export type EntryRecallTally = z.infer<typeof tallySchema>;

/**
 * The folded recall signals (SPEC O4) and how far into the recall events they go;
 * `_system/dreams/recall-signals.json` for files.
 */
export const recallSignalsFileSchema = z.object({
  schemaVersion: z.literal(1),
  /** Where in the events the fold has reached: bytes of `recall-events.jsonl` for files, an event number for a database. */
  offset: z.number().int().min(0),
  entries: z.record(z.string(), tallySchema),
  /** Files: the id of the last set-aside events file whose events are all folded (it may still await deletion). */
  doneFolding: z.string().optional(),
  /** SPEC B12: the memory store's change-feed cursor up to which deleted entries were dropped. */
  memoryFeed: z.string().optional(),
});
export type RecallSignalsFile = z.infer<typeof recallSignalsFileSchema>;

/** The signals before any fold. */
export function emptyRecallSignals(): RecallSignalsFile {
  return { schemaVersion: 1, offset: 0, entries: {} };
}

/** Adds events to the tallies. Pure apart from mutating `entries`. */
export function foldRecallEvents(entries: Record<string, EntryRecallTally>, events: readonly RecallEvent[]): void {
  for (const event of events) {
    const tally = ownValue(entries, event.entryId);
    if (!tally) {
      setOwn(entries, event.entryId, { hits: 1, relevanceSum: event.relevance, firstHitAt: event.at, lastHitAt: event.at });
      continue;
    }
    tally.hits += 1;
    tally.relevanceSum += event.relevance;
    if (event.at < tally.firstHitAt) tally.firstHitAt = event.at;
    if (event.at > tally.lastHitAt) tally.lastHitAt = event.at;
  }
}
