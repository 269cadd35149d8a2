import { open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '@reverie/file-store';
import { type ILongTermMemory, type MemoryEntry, newId } from '@reverie/core';
import { recallEventsPath, recallSignalsPath } from '../runs/run-paths';
import { type RecallEvent, recallEventSchema } from './recall-events';
import type { RecallSignalsOptions } from './recall-options';
import { type RecallSignals, recallSignals } from './recall-score';

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

/** `_system/dreams/recall-signals.json`: the folded events and how far into the event file they go. */
export const recallSignalsFileSchema = z.object({
  schemaVersion: z.literal(1),
  /** Bytes of `recall-events.jsonl` already folded in. */
  offset: z.number().int().min(0),
  entries: z.record(z.string(), tallySchema),
  /** The id of the last set-aside events file whose events are all folded (it may still await deletion). */
  doneFolding: z.string().optional(),
  /** SPEC B12: the memory store's change-feed cursor up to which deleted entries were dropped. */
  memoryFeed: z.string().optional(),
});
export type RecallSignalsFile = z.infer<typeof recallSignalsFileSchema>;

export interface CandidateQuery {
  minRecallCount: number;
  minScore: number;
}

export interface RecallCandidate {
  entry: MemoryEntry;
  tally: EntryRecallTally;
  signals: RecallSignals;
}

const EMPTY: RecallSignalsFile = { schemaVersion: 1, offset: 0, entries: {} };

/**
 * SPEC O4: the per-entry recall signals. The recall-signals pass folds new events in (each
 * event exactly once: the aggregate and the event offset are written together, atomically); the
 * promotion pass, the signal gate and `explain` read it.
 */
export class RecallSignalStore {
  constructor(
    private readonly dataPath: string,
    private readonly options: RecallSignalsOptions,
  ) {}

  async read(): Promise<RecallSignalsFile> {
    try {
      const parsed = recallSignalsFileSchema.safeParse(JSON.parse(await readFile(recallSignalsPath(this.dataPath), 'utf8')));
      return parsed.success ? parsed.data : structuredClone(EMPTY);
    } catch {
      return structuredClone(EMPTY);
    }
  }

  async write(file: RecallSignalsFile): Promise<void> {
    await writeFileAtomic(recallSignalsPath(this.dataPath), `${JSON.stringify(recallSignalsFileSchema.parse(file))}\n`);
  }

  /** The complete event lines after `offset`, and the offset just past the last of them. */
  async eventsAfter(offset: number, path = recallEventsPath(this.dataPath)): Promise<{ events: RecallEvent[]; nextOffset: number; invalid: number }> {
    let text: string;
    try {
      const handle = await open(path, 'r');
      try {
        const { size } = await handle.stat();
        // A file shorter than the offset was replaced: start over from its beginning.
        const from = size < offset ? 0 : offset;
        const buffer = Buffer.alloc(size - from);
        await handle.read(buffer, 0, buffer.length, from);
        text = buffer.toString('utf8');
        offset = from;
      } finally {
        await handle.close();
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { events: [], nextOffset: 0, invalid: 0 };
      throw error;
    }
    // Only whole lines: a line still being appended is read next time.
    const complete = text.slice(0, text.lastIndexOf('\n') + 1);
    const events: RecallEvent[] = [];
    let invalid = 0;
    for (const line of complete.split('\n')) {
      if (!line.trim()) continue;
      const parsed = recallEventSchema.safeParse(safeJson(line));
      if (parsed.success) events.push(parsed.data);
      else invalid += 1;
    }
    return { events, nextOffset: offset + Buffer.byteLength(complete, 'utf8'), invalid };
  }

  /** Signals of an entry with a tally. */
  /** The events file set aside by a compaction (`recall-events.folding-<id>.jsonl`), if one is there. */
  async folding(): Promise<{ id: string; path: string } | undefined> {
    const live = recallEventsPath(this.dataPath);
    const prefix = `${basename(live, '.jsonl')}.folding-`;
    const names = await readdir(dirname(live)).catch(() => [] as string[]);
    const name = names.find((candidate) => candidate.startsWith(prefix) && candidate.endsWith('.jsonl'));
    return name === undefined ? undefined : { id: name.slice(prefix.length, -'.jsonl'.length), path: join(dirname(live), name) };
  }

  /**
   * Drops the folded part of `recall-events.jsonl` once it is over `compactEventsBytes`: the file
   * is renamed aside (appenders create a fresh one at their next write), the events appended to
   * it after the fold are folded now, and `file` is written with offset 0 and the aside file's id
   * before that file is deleted. A crash at any step is finished by the next fold: an aside file
   * whose id is not `doneFolding` is folded from `file.offset`, one whose id is, is only deleted.
   */
  async compactIfLarge(file: RecallSignalsFile, graceMs = 200): Promise<boolean> {
    if (file.offset < this.options.compactEventsBytes || (await this.folding()) !== undefined) return false;
    const id = newId();
    const live = recallEventsPath(this.dataPath);
    const aside = join(dirname(live), `${basename(live, '.jsonl')}.folding-${id}.jsonl`);
    try {
      await rename(live, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    // A writer that opened the file just before the rename finishes its append to it meanwhile.
    await new Promise((resolve) => setTimeout(resolve, graceMs));
    const tail = await this.eventsAfter(file.offset, aside);
    foldRecallEvents(file.entries, tail.events);
    await this.write({ ...file, offset: 0, doneFolding: id });
    await unlink(aside).catch(() => undefined);
    return true;
  }

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

/** Adds events to the tallies. Pure apart from mutating `entries`. */
export function foldRecallEvents(entries: Record<string, EntryRecallTally>, events: readonly RecallEvent[]): void {
  for (const event of events) {
    const tally = entries[event.entryId];
    if (!tally) {
      entries[event.entryId] = { hits: 1, relevanceSum: event.relevance, firstHitAt: event.at, lastHitAt: event.at };
      continue;
    }
    tally.hits += 1;
    tally.relevanceSum += event.relevance;
    if (event.at < tally.firstHitAt) tally.firstHitAt = event.at;
    if (event.at > tally.lastHitAt) tally.lastHitAt = event.at;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
