import { statSync, type Stats } from 'node:fs';
import { appendFile, open, stat } from 'node:fs/promises';
import { newId } from '@reverie/core';
import { writeFileAtomic } from './atomic-write';
import type { SnapshotPosition } from './snapshot-file';
import { statOrUndefined } from './stat-or-undefined';

export interface JournalLine {
  op: 'put' | 'del';
  key: string;
  path: string;
  /** Sequence number in the journal's epoch (absent in journals written before the change feed). */
  seq?: number;
}

/** The first line of every journal this version writes: whose history it is, and where it starts. */
export interface JournalStart {
  op: 'start';
  epoch: string;
  /** The sequence number of the last change before this journal (0 for a new history). */
  seq: number;
}

/** One record change as the change feed reports it. */
export interface CollectionChange {
  key: string;
  op: 'put' | 'del';
  seq: number;
}

/** What `changesSince` answers: see `MemoryChangePage`. */
export interface CollectionChangePage {
  epoch: string;
  changes: CollectionChange[];
  /** Sequence number of the last change returned, or of the head when there were none. */
  through: number;
  more: boolean;
  reset: boolean;
}

export const JOURNAL = '.changes.jsonl';

/**
 * A collection's change journal (`.changes.jsonl`), which every process appends a line to after
 * each write (`{"op":"put"|"del","key","path","seq"}`, numbered after a `{"op":"start","epoch","seq"}`
 * first line), and how far this process has read it. It is also the change feed (SPEC B12).
 * Past `compactBytes` it is replaced by a new start line; a replaced file (new inode) tells every
 * process to reload from the directory.
 */
export class ChangeJournal {
  // The position below is read by the collection and its snapshot, and changed only here.
  /** Bytes of the journal this process has read (or written) and applied. */
  offset = 0;
  /** The inode of the journal file read, -1 when there was none. */
  inode = -1;
  /** The journal's history (from its start line) and the last sequence number seen in it. */
  epoch: string | undefined;
  baseSeq = 0;
  lastSeq = 0;
  /** Where the last `changes` stopped reading, to resume there instead of at the start. */
  private feedHint: { inode: number; seq: number; offset: number } | undefined;

  constructor(
    readonly path: string,
    private readonly compactBytes: number,
  ) {}

  /**
   * Follows the journal as it is now, after a full load of the directory: `info` is its `stat`
   * taken before the directory was read (undefined when there is none).
   */
  async followFrom(info: Stats | undefined): Promise<void> {
    this.offset = info?.size ?? 0;
    this.inode = info?.ino ?? -1;
    const edges = info ? await readJournalEdges(this.path, info.size) : undefined;
    this.epoch = edges?.start?.epoch;
    this.baseSeq = edges?.start?.seq ?? 0;
    this.lastSeq = Math.max(this.baseSeq, edges?.lastSeq ?? 0);
    this.feedHint = undefined;
  }

  /** Follows the journal from where an open from the snapshot resumes reading it. */
  resumeAt(at: { epoch: string; baseSeq: number; lastSeq: number; inode: number; offset: number }): void {
    this.epoch = at.epoch;
    this.baseSeq = at.baseSeq;
    this.lastSeq = at.lastSeq;
    this.inode = at.inode;
    this.offset = at.offset;
  }

  /** Whether `at` is exactly where this process has read the journal to. */
  isAt(at: SnapshotPosition): boolean {
    return at.epoch === this.epoch && at.inode === this.inode && at.offset === this.offset;
  }

  /**
   * Whether the journal is the file and size last read, by a synchronous `stat`: every read asks
   * this, and a promise-based `stat` would queue on the thread pool behind whatever else is in
   * flight there (the check after an open stats many files), a wait of milliseconds.
   */
  unchanged(): boolean {
    try {
      const info = statSync(this.path, { throwIfNoEntry: false });
      return info === undefined ? this.inode === -1 : info.ino === this.inode && info.size === this.offset;
    } catch {
      // readAppended stats it again and reports what went wrong.
      return false;
    }
  }

  /**
   * The lines other processes appended since the last look, the latest per key (with the last
   * sequence number seen moved on), or 'replaced' when the journal is gone, another file or
   * shorter than what was read: then only a reload from the directory is sure.
   */
  async readAppended(): Promise<Iterable<JournalLine> | 'replaced'> {
    const info = await statOrUndefined(this.path);
    if (!info) return this.inode !== -1 ? 'replaced' : [];
    if (info.ino !== this.inode || info.size < this.offset) return 'replaced';
    if (info.size === this.offset) return [];
    const handle = await open(this.path, 'r');
    let chunk: string;
    try {
      const buffer = Buffer.alloc(info.size - this.offset);
      await handle.read(buffer, 0, buffer.length, this.offset);
      chunk = buffer.toString('utf8');
    } finally {
      await handle.close();
    }
    const complete = chunk.lastIndexOf('\n') + 1;
    this.offset += Buffer.byteLength(chunk.slice(0, complete));
    const latest = new Map<string, JournalLine>();
    for (const text of chunk.slice(0, complete).split('\n')) {
      // A torn journal line names nothing; the file it was about is found on the next full load.
      const line = parseJournalLine(text);
      if (!line) continue;
      latest.set(line.key, line);
      if (line.seq !== undefined && line.seq > this.lastSeq) this.lastSeq = line.seq;
    }
    return latest.values();
  }

  /** Appends the line of a change this process made, under the lock. */
  async append(line: JournalLine): Promise<void> {
    // A line torn by a writer that died mid-append would swallow ours: start on a line of our own.
    const before = await statOrUndefined(this.path);
    const torn = before !== undefined && before.size > this.offset;
    await appendFile(this.path, `${torn ? '\n' : ''}${JSON.stringify(line)}\n`);
    const info = await stat(this.path);
    // Everything up to here is ours or already applied (we hold the lock).
    this.offset = info.size;
    this.inode = info.ino;
    if (line.seq !== undefined) this.lastSeq = line.seq;
  }

  /**
   * Gives a journal without a start line (none yet, or one written before the change feed) a
   * history of its own. Under the lock. Replacing the file tells other processes to reload.
   */
  async startIfNeeded(): Promise<void> {
    if (this.epoch !== undefined) return;
    await this.writeStart({ op: 'start', epoch: newId(), seq: 0 });
  }

  async compactIfLarge(): Promise<void> {
    if (this.offset < this.compactBytes) return;
    // Replacing the file (new inode) tells every other process to reload from the directory. The
    // history goes on from the last sequence number; cursors before it get a reset.
    await this.writeStart({ op: 'start', epoch: this.epoch ?? newId(), seq: this.lastSeq });
  }

  private async writeStart(start: JournalStart): Promise<void> {
    await writeFileAtomic(this.path, `${JSON.stringify(start)}\n`);
    const info = await stat(this.path);
    this.offset = info.size;
    this.inode = info.ino;
    this.epoch = start.epoch;
    this.baseSeq = start.seq;
    this.lastSeq = start.seq;
    this.feedHint = undefined;
  }

  /** Journal lines after `sinceSeq`, up to what this process has synced; undefined if the file was replaced. */
  async changes(sinceSeq: number, limit: number): Promise<Omit<CollectionChangePage, 'epoch' | 'reset'> | undefined> {
    const hint = this.feedHint;
    const from = hint && hint.inode === this.inode && hint.seq <= sinceSeq ? hint.offset : 0;
    const end = this.offset;
    const handle = await open(this.path, 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!handle) return undefined;
    let text: string;
    try {
      if ((await handle.stat()).ino !== this.inode) return undefined;
      const buffer = Buffer.alloc(Math.max(0, end - from));
      await handle.read(buffer, 0, buffer.length, from);
      text = buffer.toString('utf8');
    } finally {
      await handle.close();
    }
    const changes: CollectionChange[] = [];
    let offset = from;
    let through = sinceSeq;
    let stoppedAt = from;
    for (const raw of text.split('\n')) {
      const lineEnd = offset + Buffer.byteLength(raw) + 1;
      offset = lineEnd;
      const line = parseJournalLine(raw);
      if (!line || line.seq === undefined || line.seq <= sinceSeq) continue;
      if (changes.length === limit) break;
      changes.push({ key: line.key, op: line.op, seq: line.seq });
      through = line.seq;
      stoppedAt = Math.min(lineEnd, end);
    }
    const more = through < this.lastSeq;
    if (changes.length > 0) this.feedHint = { inode: this.inode, seq: through, offset: stoppedAt };
    return { changes, through: more ? through : Math.max(through, this.lastSeq), more };
  }
}

/** A journal line that names a change, or undefined (a start line, a torn or foreign line). */
function parseJournalLine(text: string): JournalLine | undefined {
  if (!text) return undefined;
  try {
    const line = JSON.parse(text) as Partial<JournalLine>;
    if ((line.op !== 'put' && line.op !== 'del') || typeof line.key !== 'string' || typeof line.path !== 'string') return undefined;
    return { op: line.op, key: line.key, path: line.path, ...(typeof line.seq === 'number' ? { seq: line.seq } : {}) };
  } catch {
    return undefined;
  }
}

/** The journal's start line (if it has one) and the highest sequence number in its last lines. */
export async function readJournalEdges(path: string, size: number): Promise<{ start?: JournalStart; lastSeq?: number }> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (!handle) return {};
  try {
    const head = Buffer.alloc(Math.min(size, 512));
    await handle.read(head, 0, head.length, 0);
    const first = head.toString('utf8').split('\n')[0] ?? '';
    let start: JournalStart | undefined;
    try {
      const parsed = JSON.parse(first) as Partial<JournalStart>;
      if (parsed.op === 'start' && typeof parsed.epoch === 'string' && typeof parsed.seq === 'number')
        start = { op: 'start', epoch: parsed.epoch, seq: parsed.seq };
    } catch {
      // No start line: a journal from before the change feed, or a torn first write.
    }
    const tailLength = Math.min(size, 64 * 1024);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    let lastSeq: number | undefined;
    for (const text of tail.toString('utf8').split('\n')) {
      const seq = parseJournalLine(text)?.seq;
      if (seq !== undefined && (lastSeq === undefined || seq > lastSeq)) lastSeq = seq;
    }
    return { ...(start ? { start } : {}), ...(lastSeq !== undefined ? { lastSeq } : {}) };
  } finally {
    await handle.close();
  }
}
