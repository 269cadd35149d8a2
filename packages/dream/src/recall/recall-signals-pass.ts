import { recallSignalsPass } from './recall-options';
import { DeclaredPass } from '../engine/declared-pass';
import { z } from 'zod';
import type { DreamServices, PassContext, PassPlan, PassSkip } from '../engine/dream-types';
import { type RecallSignalsOptions, type RecallSignalsOptionsInput, recallSignalsOptionsSchema } from './recall-options';
import { parsePassOptions } from '../passes/parse-pass-options';
import { foldRecallEvents, type RecallSignalsFile, recallSignalsFileSchema } from '@reverie/dream-state';
import type { ILogger, ILongTermMemory } from '@reverie/core';
import { changeFeedOf, readFeed } from '../changes/memory-feed';
import { describeServiceNeeds } from '../engine/service-needs';

/**
 * The tallied entries no longer in memory. With a change feed (B12), the ids deleted since the
 * file's feed cursor; otherwise (or when the feed cannot say) every live id is listed.
 */
async function goneEntries(
  memory: ILongTermMemory,
  logger: ILogger,
  file: RecallSignalsFile,
): Promise<{ gone: string[]; memoryFeed?: string; notes: string[] }> {
  const feed = changeFeedOf(memory, logger);
  if (feed) {
    const read = await readFeed(feed, file.memoryFeed, { maxSaved: 0, accept: () => false });
    if (!read.reset) {
      // A move out of a tier reads as a delete in a feed kept per tier (the file store's, SPEC B13): only what `get` cannot find is gone.
      const gone: string[] = [];
      for (const id of read.deleted) if (Object.hasOwn(file.entries, id) && !(await memory.get(id))) gone.push(id);
      return {
        gone,
        memoryFeed: read.cursor,
        notes: [`change feed: ${read.read} memory change(s) read`],
      };
    }
    const live = new Set((await memory.list()).map((entry) => entry.id));
    return {
      gone: Object.keys(file.entries).filter((id) => !live.has(id)),
      memoryFeed: read.head,
      notes: ['change feed: every entry listed once'],
    };
  }
  const live = new Set((await memory.list()).map((entry) => entry.id));
  return { gone: Object.keys(file.entries).filter((id) => !live.has(id)), notes: [] };
}

/** What `commit` writes: the folded signals. */
const recallCommitSchema = z.object({ file: recallSignalsFileSchema });

/**
 * SPEC O4 (light sleep): folds the recall events written since the last run into the per-entry
 * signals (the state store's recall state: `_system/dreams/recall-signals.json` for files),
 * dropping entries that no longer exist. It changes no memory; the aggregate and the event
 * position are written together in `commit`, so every event is counted once, and a dry run
 * writes nothing. Once the folded events pass `compactEventsBytes`, they are dropped
 * (`RecallStateStore.compactEvents`).
 */
export class RecallSignalsPass extends DeclaredPass {
  readonly options: RecallSignalsOptions;

  constructor(options: RecallSignalsOptionsInput = {}) {
    super(recallSignalsPass);
    this.options = parsePassOptions('recall-signals', recallSignalsOptionsSchema, options);
  }

  /** The memory change-feed cursor the next run reads deletions from. */
  async memoryFeedCursors(services: DreamServices): Promise<string[]> {
    const { memoryFeed } = await services.state.recall.readSignals();
    return memoryFeed === undefined ? [] : [memoryFeed];
  }

  async plan(context: PassContext): Promise<PassPlan | PassSkip> {
    const { memory, state } = context.services;
    if (!memory) return { skipped: describeServiceNeeds(['memory']) };
    const file = await state.recall.readSignals();
    const { events, invalid, position } = await state.recall.readNewEvents(file);
    Object.assign(file, position);
    foldRecallEvents(file.entries, events);
    const { gone, memoryFeed, notes: feedNotes } = await goneEntries(memory, context.services.logger, file);
    for (const id of gone) delete file.entries[id];
    if (memoryFeed !== undefined) file.memoryFeed = memoryFeed;

    const notes = [`${events.length} recall event(s) folded into the signals of ${Object.keys(file.entries).length} entr(y/ies)`];
    if (gone.length > 0) notes.push(`${gone.length} entr(y/ies) no longer in memory dropped from the signals`);
    if (invalid > 0) notes.push(`${invalid} unreadable event line(s) skipped`);
    notes.push(...feedNotes);
    const commit: z.input<typeof recallCommitSchema> = { file };
    return { operations: [], itemsProcessed: events.length, notes, refusals: [], commit };
  }

  /** Writes the folded signals and the event position of the applied plan, then compacts the events when they are many. */
  async commit(services: DreamServices, data: unknown): Promise<void> {
    const { file } = recallCommitSchema.parse(data);
    await services.state.recall.writeSignals(file);
    await services.state.recall.compactEvents(file, { compactEventsBytes: this.options.compactEventsBytes });
  }
}
