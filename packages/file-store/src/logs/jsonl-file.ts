// About 400 lines: one file format (append-only JSON lines) with its torn-line repair, its locked
// read-modify-append and its reads that never write, which all must agree on what a whole line is.
import { randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { type FileHandle, mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ZodType } from 'zod';
import { type IClock, type ILogger, parseRecord, invalidOptions, systemClock } from '@reverie/core';
import { describeIssues, fileSystemError } from '@reverie/core/internal';
import { fsyncDirectory, isTemporaryFile, writeFileAtomic } from '../fs/atomic-write';
import type { DirectoryLock } from '../fs/directory-lock';
import { SerialQueue } from '../fs/serial-queue';

export interface JsonlFileOptions<T> {
  /** The file, e.g. `<dataPath>/logs/feedback.jsonl`. Its directory is created on first write. */
  path: string;
  /** Every line is checked with it on read; every record is checked with it before it is written. */
  schema: ZodType<T>;
  /**
   * The cross-process lock every operation holds (usually one per directory). Without one, the
   * processes that share the file only append whole lines to it (each append is one write to a
   * file opened for appending), reads never write, and `rewrite` is refused: how the dream
   * state's ledger and completed sessions are kept, read on a read-only data directory too.
   */
  lock?: DirectoryLock | undefined;
  logger: ILogger;
  /** What one record is, for messages ("feedback signal"). */
  what: string;
  /** Dates the quarantine files of `rewrite` (default: the system clock). */
  clock?: IClock;
}

export interface JsonlReadResult<T> {
  /** The valid records in file order. They are shared with the file's cache and frozen. */
  records: ReadonlyArray<Readonly<T>>;
  /** How many lines could not be read (torn, not JSON, not a valid record) and were left out. */
  skipped: number;
}

/** The operations on a `JsonlFile` inside `withLock`; valid only until the callback settles. */
export interface LockedJsonlFile<T> {
  read(): Promise<JsonlReadResult<T>>;
  /**
   * Like `read`, without copying the records: the array is the cache's own, valid only until the
   * callback settles. The cache only ever appends to the array it holds (a file read afresh or
   * rewritten gets a new one), so a later `peek` that returns the same array holds the same
   * records first. `identity` names the file (device, inode, birth time; '' when missing): it
   * changes when a rewrite replaces the file.
   */
  peek(): Promise<JsonlReadResult<T> & { identity: string }>;
  append(records: readonly T[]): Promise<void>;
  /** Keeps the records `keep` accepts and returns how many were removed. */
  rewrite(keep: (record: Readonly<T>) => boolean): Promise<number>;
}

interface BadLine {
  line: number;
  text: string;
}

/** What this instance knows of the file, up to `size` bytes (always the end of a line). */
interface FileState<T> {
  /** Device, inode and birth time; '' when the file does not exist. */
  identity: string;
  size: number;
  mtimeNs: bigint;
  /** The last bytes read, to recognise the same file when it has grown. */
  tail: Buffer;
  lines: number;
  records: Array<Readonly<T>>;
  bad: BadLine[];
  /** Without a lock: the text after the last newline (a line being written, or one a crash cut short); '' when there is none. */
  unterminated: string;
}

const NEWLINE = 0x0a;
const TAIL_BYTES = 256;

/**
 * An append-only file of JSON lines, one record per line, safe to share between processes.
 *
 * - Every operation runs in an in-process queue and holds the cross-process lock, so nothing
 *   interleaves: `withLock` gives a caller read-then-append under one lock (the conversation log
 *   assigns `seq` that way).
 * - Appends are fsynced. A line left unterminated by a process killed mid-append is closed with
 *   "\n" before anything else happens, so the fragment stays its own line and never glues onto
 *   the next record.
 * - A line that is not JSON or not a valid record is skipped and reported once through the
 *   logger with its line number; it never makes the file unreadable. `rewrite` moves such lines
 *   to `.quarantine/` next to the file.
 * - Reads are incremental: this instance remembers what it parsed and reads only the lines added
 *   since (by this or another process); a file replaced by another process's `rewrite` is
 *   recognised and read again from the start.
 */
export class JsonlFile<T> {
  private readonly path: string;
  private readonly schema: ZodType<T>;
  private readonly lock: DirectoryLock | undefined;
  private readonly logger: ILogger;
  private readonly what: string;
  private readonly clock: IClock;
  private readonly queue = new SerialQueue();
  private readonly reported = new Set<string>();
  private state: FileState<T> = emptyState('');

  constructor(options: JsonlFileOptions<T>) {
    this.path = options.path;
    this.schema = options.schema;
    this.lock = options.lock;
    this.logger = options.logger;
    this.what = options.what;
    this.clock = options.clock ?? systemClock;
  }

  read(): Promise<JsonlReadResult<T>> {
    return this.withLock((file) => file.read());
  }

  append(records: readonly T[]): Promise<void> {
    return this.withLock((file) => file.append(records));
  }

  rewrite(keep: (record: Readonly<T>) => boolean): Promise<number> {
    return this.withLock((file) => file.rewrite(keep));
  }

  /**
   * Runs `critical` after every operation queued before it, holding the cross-process lock, so
   * what it reads is still true when it appends. Do not call the methods of this `JsonlFile`
   * from inside (they would wait for `critical` to finish): use the ones it is given.
   */
  withLock<R>(critical: (file: LockedJsonlFile<T>) => Promise<R>): Promise<R> {
    return this.queue.run(() =>
      this.locked(() =>
        critical({
          read: () => this.readLocked(),
          peek: async () => {
            const state = await this.refresh();
            return { records: state.records, skipped: state.bad.length, identity: state.identity };
          },
          append: (records) => this.appendLocked(records),
          rewrite: (keep) => this.rewriteLocked(keep),
        }),
      ),
    );
  }

  private locked<R>(critical: () => Promise<R>): Promise<R> {
    return this.lock === undefined ? critical() : this.lock.run(critical);
  }

  /** Resolves when every queued operation has finished. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  private async readLocked(): Promise<JsonlReadResult<T>> {
    const state = await this.refresh();
    if (state.unterminated === '') return { records: state.records.slice(), skipped: state.bad.length };
    // Without a lock, a last line without its newline is judged as it is and read again next time.
    const parsed = this.schema.safeParse(parseJson(state.unterminated));
    return parsed.success
      ? { records: [...state.records, Object.freeze(parsed.data)], skipped: state.bad.length }
      : { records: state.records.slice(), skipped: state.bad.length + 1 };
  }

  private async appendLocked(records: readonly T[]): Promise<void> {
    if (records.length === 0) return;
    // Check every record before touching the file: what is written can always be read back.
    const lines = records.map((record) => JSON.stringify(record));
    const parsed = lines.map((line) => Object.freeze(parseRecord(this.schema, JSON.parse(line), this.what)));
    const text = `${lines.join('\n')}\n`;
    await this.io(`append to ${this.path}`, async () => {
      const handle = await openForAppend(this.path);
      try {
        const before = await handle.stat({ bigint: true });
        const size = Number(before.size);
        // A file this instance read or wrote to its end ends with a complete line.
        const torn = size > 0 && !this.isCurrent(before) && !(await endsWithNewline(handle, size));
        const data = Buffer.from(torn ? `\n${text}` : text);
        await handle.appendFile(data);
        await handle.sync();
        if (size === 0) await fsyncDirectory(dirname(this.path));
        const after = await handle.stat({ bigint: true });
        // When this instance had read the whole file just before, it has just read the new
        // lines too: keep the cache current instead of parsing them back on the next read.
        const state = this.state;
        if (!torn && this.isCurrent(before) && Number(after.size) === size + data.length) {
          state.records.push(...parsed);
          state.lines += parsed.length;
          state.size = Number(after.size);
          state.mtimeNs = after.mtimeNs;
          state.tail = lastBytes(Buffer.concat([state.tail, data]), TAIL_BYTES);
        }
      } finally {
        await handle.close();
      }
    });
  }

  private async rewriteLocked(keep: (record: Readonly<T>) => boolean): Promise<number> {
    if (this.lock === undefined) {
      throw invalidOptions(`${this.path} is shared by appends only: rewriting it needs a JsonlFile with a lock.`, [
        { path: 'lock', message: 'rewrite needs the directory lock' },
      ]);
    }
    const state = await this.refresh();
    const kept = state.records.filter((record) => keep(record));
    const removed = state.records.length - kept.length;
    if (removed === 0) return 0;
    if (state.bad.length > 0) await this.quarantineBadLines(state.bad);
    await this.removeOrphanedTemporaries();
    const data = Buffer.from(kept.map((record) => `${JSON.stringify(record)}\n`).join(''));
    await writeFileAtomic(this.path, data);
    const stats = await this.io(`read ${this.path}`, () => stat(this.path, { bigint: true }));
    this.state = {
      identity: identityOf(stats),
      size: Number(stats.size),
      mtimeNs: stats.mtimeNs,
      tail: lastBytes(data, TAIL_BYTES),
      lines: kept.length,
      records: kept,
      bad: [],
      unterminated: '',
    };
    return removed;
  }

  /** Brings the cache up to date with the file. Runs under the lock. */
  private async refresh(): Promise<FileState<T>> {
    return this.io(`read ${this.path}`, async () => {
      let current: BigIntStats;
      try {
        current = await stat(this.path, { bigint: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        this.state = emptyState('');
        return this.state;
      }
      if (this.isCurrent(current)) return this.state;
      const handle = await open(this.path, this.lock === undefined ? 'r' : 'r+');
      try {
        let stats = await handle.stat({ bigint: true });
        const size = Number(stats.size);
        if (this.lock !== undefined && size > 0 && !(await endsWithNewline(handle, size))) {
          // Nobody writes while we hold the lock: an unterminated last line is torn. Close it,
          // so it is judged as a line now and the next append starts on a line of its own.
          await handle.write('\n', size);
          await handle.sync();
          stats = await handle.stat({ bigint: true });
        }
        this.state = await this.catchUp(handle, stats);
        return this.state;
      } finally {
        await handle.close();
      }
    });
  }

  private async catchUp(handle: FileHandle, stats: BigIntStats): Promise<FileState<T>> {
    const identity = identityOf(stats);
    const size = Number(stats.size);
    const known = this.state;
    if (known.identity === identity && size > known.size) {
      // Appended to since we last read: parse only the new lines, after checking that the bytes
      // we saw last are still there (an inode number can be reused by a replacement file).
      const from = known.size - known.tail.length;
      const bytes = await readRange(handle, from, size - from);
      if (bytes.subarray(0, known.tail.length).equals(known.tail)) {
        this.parse(known, bytes, known.tail.length, from);
        known.mtimeNs = stats.mtimeNs;
        return known;
      }
    }
    const fresh = emptyState<T>(identity);
    this.parse(fresh, await readRange(handle, 0, size), 0, 0);
    fresh.mtimeNs = stats.mtimeNs;
    return fresh;
  }

  /** Parses the complete lines of `bytes` from `start`; `bytes` begins at file offset `base`. */
  private parse(state: FileState<T>, bytes: Buffer, start: number, base: number): void {
    let position = start;
    for (;;) {
      const end = bytes.indexOf(NEWLINE, position);
      if (end === -1) break;
      state.lines += 1;
      const text = bytes.toString('utf8', position, end);
      if (text.trim() !== '') this.accept(state, text, base + position);
      position = end + 1;
    }
    state.size = base + position;
    state.tail = lastBytes(bytes.subarray(0, position), TAIL_BYTES);
    state.unterminated = bytes.toString('utf8', position).trim();
  }

  private accept(state: FileState<T>, text: string, offset: number): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.skip(state, text, offset, `it is not valid JSON (${(error as Error).message}); a process may have been killed while writing it`);
      return;
    }
    const result = this.schema.safeParse(value);
    if (result.success) state.records.push(Object.freeze(result.data));
    else this.skip(state, text, offset, `it is not a valid ${this.what}: ${describeIssues(result.error)}`);
  }

  private skip(state: FileState<T>, text: string, offset: number, reason: string): void {
    const line = state.lines;
    state.bad.push({ line, text });
    const key = `${state.identity}@${offset}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.logger.warn(`Skipped line ${line} of ${this.path}: ${reason}. The other lines are read as usual.`, {
      file: this.path,
      line,
      reason,
    });
  }

  private isCurrent(stats: BigIntStats): boolean {
    const state = this.state;
    return state.identity === identityOf(stats) && state.size === Number(stats.size) && state.mtimeNs === stats.mtimeNs;
  }

  /** Keeps the unreadable lines a rewrite drops, verbatim, in `.quarantine/` beside the file. */
  private async quarantineBadLines(bad: readonly BadLine[]): Promise<void> {
    const stamp = this.clock.now().toISOString().replace(/[:.]/g, '-');
    const target = join(dirname(this.path), '.quarantine', `${basename(this.path)}.${stamp}.${randomBytes(3).toString('hex')}`);
    await writeFileAtomic(target, bad.map((line) => `${line.text}\n`).join(''));
    this.logger.warn(`Moved ${bad.length} unreadable line(s) of ${this.path} to quarantine while rewriting it.`, {
      file: this.path,
      lines: bad.map((line) => line.line),
      quarantinedAs: target,
    });
  }

  /** Temp files of this file's atomic writes; we hold the lock, so nobody is writing them. */
  private async removeOrphanedTemporaries(): Promise<void> {
    const dir = dirname(this.path);
    const prefix = `.${basename(this.path)}.`;
    await this.io(`clean up ${dir}`, async () => {
      for (const name of await readdir(dir)) {
        if (name.startsWith(prefix) && isTemporaryFile(name)) await rm(join(dir, name), { force: true });
      }
    });
  }

  /** Runs file-system work, turning a failure into a file-system ReverieError (READ_ONLY, NO_SPACE, IO_ERROR…). */
  private async io<R>(action: string, operation: () => Promise<R>): Promise<R> {
    try {
      return await operation();
    } catch (error) {
      throw fileSystemError(error, action, this.path);
    }
  }
}

function emptyState<T>(identity: string): FileState<T> {
  return { identity, size: 0, mtimeNs: -1n, tail: Buffer.alloc(0), lines: 0, records: [], bad: [], unterminated: '' };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function identityOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.birthtimeNs}`;
}

function lastBytes(bytes: Buffer, count: number): Buffer {
  return Buffer.from(bytes.subarray(Math.max(0, bytes.length - count)));
}

async function openForAppend(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'a+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dirname(path), { recursive: true });
    return open(path, 'a+');
  }
}

async function endsWithNewline(handle: FileHandle, size: number): Promise<boolean> {
  const { buffer } = await handle.read(Buffer.alloc(1), 0, 1, size - 1);
  return buffer[0] === NEWLINE;
}

async function readRange(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
