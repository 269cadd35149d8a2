import { appendFile, mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { newId } from '@reverie/core';
import { writeFileAtomic } from '../../fs/atomic-write';
import { recallEventsPath, recallSignalsPath } from '../dream-state-paths';
import type { RecallEventPosition, RecallStateStore } from '@reverie/dream-state';
import {
  emptyRecallSignals,
  foldRecallEvents,
  type RecallEvent,
  recallEventSchema,
  type RecallSignalsFile,
  recallSignalsFileSchema,
} from '@reverie/dream-state';

/** How long a compaction waits, after setting the events file aside, for an append that opened it just before. */
const COMPACTION_GRACE_MS = 200;

/**
 * Recall events and signals as files (SPEC O4): the events appended to
 * `_system/dreams/recall-events.jsonl`, one JSON line each; the folded signals in
 * `_system/dreams/recall-signals.json` with `offset`, the bytes of the events file folded in.
 *
 * Compaction sets the events file aside as `recall-events.folding-<id>.jsonl` (appenders create a
 * fresh one at their next write), folds what was appended to it after the last fold, writes the
 * signals with offset 0 and `doneFolding: <id>`, and deletes the aside file. A crash at any step
 * is finished by the next read: an aside file whose id is not `doneFolding` is folded from the
 * signals' offset, one whose id is, is deleted at the next `writeSignals`.
 */
export class FileRecallState implements RecallStateStore {
  private readonly eventsFile: string;
  private readonly signalsFile: string;

  constructor(dataPath: string) {
    this.eventsFile = recallEventsPath(dataPath);
    this.signalsFile = recallSignalsPath(dataPath);
  }

  async appendEvents(events: readonly RecallEvent[]): Promise<void> {
    if (events.length === 0) return;
    const text = events.map((event) => `${JSON.stringify(event)}\n`).join('');
    try {
      await appendFile(this.eventsFile, text);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      // The folder is made when a write finds it missing, not checked before every write.
      await mkdir(dirname(this.eventsFile), { recursive: true });
      await appendFile(this.eventsFile, text);
    }
  }

  async readSignals(): Promise<RecallSignalsFile> {
    try {
      const parsed = recallSignalsFileSchema.safeParse(JSON.parse(await readFile(this.signalsFile, 'utf8')));
      return parsed.success ? parsed.data : emptyRecallSignals();
    } catch {
      return emptyRecallSignals();
    }
  }

  async readNewEvents(signals: RecallSignalsFile): Promise<{ events: RecallEvent[]; invalid: number; position: RecallEventPosition }> {
    // A compaction interrupted by a crash left its aside file: fold what it had not folded yet.
    const folding = await this.folding();
    const carried =
      folding !== undefined && folding.id !== signals.doneFolding ? await this.eventsAfter(signals.offset, folding.path) : undefined;
    const fresh = await this.eventsAfter(carried === undefined ? signals.offset : 0);
    const doneFolding = folding?.id ?? signals.doneFolding;
    return {
      events: [...(carried?.events ?? []), ...fresh.events],
      invalid: fresh.invalid + (carried?.invalid ?? 0),
      position: { offset: fresh.nextOffset, ...(doneFolding === undefined ? {} : { doneFolding }) },
    };
  }

  async writeSignals(signals: RecallSignalsFile): Promise<void> {
    await writeFileAtomic(this.signalsFile, `${JSON.stringify(recallSignalsFileSchema.parse(signals))}\n`);
    const folding = await this.folding();
    if (folding !== undefined && folding.id === signals.doneFolding) await unlink(folding.path).catch(() => undefined);
  }

  async compactEvents(signals: RecallSignalsFile, options: { compactEventsBytes: number }): Promise<boolean> {
    if (signals.offset < options.compactEventsBytes || (await this.folding()) !== undefined) return false;
    const id = newId();
    const aside = join(dirname(this.eventsFile), `${basename(this.eventsFile, '.jsonl')}.folding-${id}.jsonl`);
    try {
      await rename(this.eventsFile, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    // A writer that opened the file just before the rename finishes its append to it meanwhile.
    await new Promise((resolve) => setTimeout(resolve, COMPACTION_GRACE_MS));
    const tail = await this.eventsAfter(signals.offset, aside);
    foldRecallEvents(signals.entries, tail.events);
    await this.writeSignals({ ...signals, offset: 0, doneFolding: id });
    return true;
  }

  /** The events file set aside by a compaction (`recall-events.folding-<id>.jsonl`), if one is there. */
  private async folding(): Promise<{ id: string; path: string } | undefined> {
    const prefix = `${basename(this.eventsFile, '.jsonl')}.folding-`;
    const names = await readdir(dirname(this.eventsFile)).catch(() => [] as string[]);
    const name = names.find((candidate) => candidate.startsWith(prefix) && candidate.endsWith('.jsonl'));
    return name === undefined ? undefined : { id: name.slice(prefix.length, -'.jsonl'.length), path: join(dirname(this.eventsFile), name) };
  }

  /** The complete event lines after `offset`, and the offset just past the last of them. */
  private async eventsAfter(
    offset: number,
    path = this.eventsFile,
  ): Promise<{ events: RecallEvent[]; nextOffset: number; invalid: number }> {
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
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
