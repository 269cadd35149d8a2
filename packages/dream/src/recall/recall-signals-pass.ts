import { unlink } from 'node:fs/promises';
import { z } from 'zod';
import type { DreamPass, DreamServices, PassContext, PassPlan, PassSkip } from '../engine/dream-types';
import { type RecallSignalsOptions, type RecallSignalsOptionsInput, recallSignalsOptionsSchema } from './recall-options';
import { parsePassOptions } from '../passes/parse-pass-options';
import { foldRecallEvents, type RecallSignalsFile, recallSignalsFileSchema, RecallSignalStore } from './recall-signal-store';
import type { ILogger, ILongTermMemory } from '@reverie/core';
import { changeFeedOf, readFeed } from '../changes/memory-feed';

/**
 * The tallied entries no longer in memory. With a change feed (B12), the ids deleted since the
 * file's feed cursor; otherwise (or when the feed cannot say) every live id is listed.
 */
async function goneEntries(memory: ILongTermMemory, logger: ILogger, file: RecallSignalsFile): Promise<{ gone: string[]; memoryFeed?: string; notes: string[] }> {
  const feed = changeFeedOf(memory, logger);
  if (feed) {
    const read = await readFeed(feed, file.memoryFeed, { maxSaved: 0, accept: () => false });
    if (!read.reset) return { gone: read.deleted.filter((id) => id in file.entries), memoryFeed: read.cursor, notes: [`change feed: ${read.read} memory change(s) read`] };
    const live = new Set((await memory.list()).map((entry) => entry.id));
    return { gone: Object.keys(file.entries).filter((id) => !live.has(id)), memoryFeed: read.head, notes: ['change feed: every entry listed once'] };
  }
  const live = new Set((await memory.list()).map((entry) => entry.id));
  return { gone: Object.keys(file.entries).filter((id) => !live.has(id)), notes: [] };
}

/** What `commit` writes: the folded signals, and the aside file of a compaction they finished folding. */
const recallCommitSchema = z.object({ file: recallSignalsFileSchema, foldingPath: z.string().optional() });

/**
 * SPEC O4 (light sleep): folds the recall events written since the last run into the per-entry
 * signals (`_system/dreams/recall-signals.json`), dropping entries that no longer exist. It
 * changes no memory; the aggregate and the event offset are written together in `commit`,
 * so every event is counted once, and a dry run writes nothing. Once the folded part of the
 * events file passes `compactEventsBytes`, it is dropped (`RecallSignalStore.compactIfLarge`).
 */
export class RecallSignalsPass implements DreamPass {
  readonly name = 'recall-signals';
  readonly phase = 'light-sleep' as const;
  readonly requires = ['memory'] as const;
  readonly model = 'none' as const;
  readonly options: RecallSignalsOptions;

  constructor(options: RecallSignalsOptionsInput = {}) {
    this.options = parsePassOptions('recall-signals', recallSignalsOptionsSchema, options);
  }

  async plan(context: PassContext): Promise<PassPlan | PassSkip> {
    const { memory, dataPath } = context.services;
    if (!memory) return { skipped: 'needs long-term memory (.withMemory())' };
    const store = new RecallSignalStore(dataPath, this.options);
    const file = await store.read();
    // A compaction interrupted by a crash left its aside file: fold what it had not folded yet.
    const folding = await store.folding();
    const carried = folding !== undefined && folding.id !== file.doneFolding ? await store.eventsAfter(file.offset, folding.path) : undefined;
    const fresh = await store.eventsAfter(carried === undefined ? file.offset : 0);
    const events = [...(carried?.events ?? []), ...fresh.events];
    const invalid = fresh.invalid + (carried?.invalid ?? 0);
    const nextOffset = fresh.nextOffset;
    if (folding !== undefined) file.doneFolding = folding.id;
    foldRecallEvents(file.entries, events);
    const { gone, memoryFeed, notes: feedNotes } = await goneEntries(memory, context.services.logger, file);
    for (const id of gone) delete file.entries[id];
    if (memoryFeed !== undefined) file.memoryFeed = memoryFeed;
    file.offset = nextOffset;

    const notes = [`${events.length} recall event(s) folded into the signals of ${Object.keys(file.entries).length} entr(y/ies)`];
    if (gone.length > 0) notes.push(`${gone.length} entr(y/ies) no longer in memory dropped from the signals`);
    if (invalid > 0) notes.push(`${invalid} unreadable event line(s) skipped`);
    notes.push(...feedNotes);
    const commit: z.input<typeof recallCommitSchema> = { file, ...(folding !== undefined ? { foldingPath: folding.path } : {}) };
    return { operations: [], itemsProcessed: events.length, notes, refusals: [], commit };
  }

  /** Writes the folded signals and the event offset of the applied plan, then compacts the events file when it is large. */
  async commit(services: DreamServices, data: unknown): Promise<void> {
    const { file, foldingPath } = recallCommitSchema.parse(data);
    const store = new RecallSignalStore(services.dataPath, this.options);
    await store.write(file);
    if (foldingPath !== undefined) await unlink(foldingPath).catch(() => undefined);
    await store.compactIfLarge(file);
  }
}
