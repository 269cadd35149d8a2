import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  assertOpen,
  type ConversationLogReadOptions,
  type ConversationTurn,
  type ConversationTurnDraft,
  conversationTurnSchema,
  type IClock,
  type IConversationLog,
  type ILogger,
  type LoggedTurn,
  loggedTurnSchema,
  ReverieError,
  ReverieValidationError,
  selectTurns,
  silentLogger,
  systemClock,
  validateRange,
} from '@reverie/core';
import { parseDraft } from '@reverie/core/internal';
import { writeFileAtomic } from '../fs/atomic-write';
import { DirectoryLock } from '../fs/directory-lock';
import { quarantineFile } from '../fs/quarantine';
import { validateStoreOptions } from '../options/validate-store-options';
import { JsonlFile } from './jsonl-file';

export interface FileConversationLogOptions {
  /** The agent's data directory; turns go to `<dataPath>/logs/conversation.jsonl`. */
  dataPath: string;
  clock?: IClock;
  logger?: ILogger;
}

interface PendingAppend {
  turn: ConversationTurn;
  resolve(turn: LoggedTurn): void;
  reject(error: unknown): void;
}

/** The highest `seq` ever assigned, kept when a clear removes the turn that carried it. */
const seqMarkSchema = z.object({ lastSeq: z.number().int().nonnegative() });

/**
 * The default `IConversationLog` (SPEC M10): one JSON line per turn in
 * `<dataPath>/logs/conversation.jsonl`, safe for several processes on one data directory.
 *
 * `seq` is assigned under the log's cross-process lock as one more than the highest seq in use:
 * the largest in the file, or the one recorded in `conversation.seq.json` when a clear removed
 * it. A clear writes that mark before it rewrites the file, so no seq is ever handed out twice,
 * across clears, reopens and processes.
 */
export class FileConversationLog implements IConversationLog {
  private readonly clock: IClock;
  private readonly logger: ILogger;
  private readonly dir: string;
  private readonly seqPath: string;
  private readonly file: JsonlFile<LoggedTurn>;
  /** Appends waiting for the lock, to be written as one group; undefined when none is waiting. */
  private gathering: PendingAppend[] | undefined;
  /** The seq mark as read while the log file was `identity`. */
  private seqMark: { identity: string; mark: number } | undefined;
  /** The highest seq among the first `counted` records of the file cache's array `records`. */
  private counted: { records: ReadonlyArray<Readonly<LoggedTurn>>; count: number; highest: number } | undefined;
  private closed = false;

  constructor(options: FileConversationLogOptions) {
    const valid = validateStoreOptions(options, 'FileConversationLog');
    this.clock = valid.clock ?? systemClock;
    this.logger = valid.logger ?? silentLogger;
    this.dir = join(valid.dataPath, 'logs');
    this.seqPath = join(this.dir, 'conversation.seq.json');
    this.file = new JsonlFile({
      path: join(this.dir, 'conversation.jsonl'),
      schema: loggedTurnSchema,
      lock: new DirectoryLock(this.dir, { logger: this.logger }),
      logger: this.logger,
      clock: this.clock,
      what: 'conversation turn',
    });
  }

  /**
   * Appends a turn. Turns appended while an earlier append holds the lock are written together
   * on the next one (one lock, one read, one fsync for the group), in the order they were
   * appended; each call resolves once its turn is on disk, or rejects with the group's failure.
   */
  async append(turn: ConversationTurnDraft): Promise<LoggedTurn> {
    this.assertOpen();
    const stamped = parseDraft(
      conversationTurnSchema,
      { ...turn, timestamp: turn?.timestamp ?? this.clock.now().toISOString() },
      'conversation turn',
    );
    return await new Promise<LoggedTurn>((resolve, reject) => {
      const waiting = { turn: stamped, resolve, reject };
      if (this.gathering) {
        this.gathering.push(waiting);
        return;
      }
      const group: PendingAppend[] = [waiting];
      this.gathering = group;
      this.file
        .withLock(async (file) => {
          // From here on, new appends start the next group, which waits for this one.
          if (this.gathering === group) this.gathering = undefined;
          const { records, identity } = await file.peek();
          // The mark only matters once a clear removed turns, and a clear that removes turns
          // replaces the file: while the file is the one the mark was read with, it still holds.
          const mark = identity !== '' && this.seqMark?.identity === identity ? this.seqMark.mark : await this.readSeqMark();
          this.seqMark = { identity, mark };
          const highest = Math.max(mark, this.highestSeqOf(records));
          const logged = group.map(({ turn: stamped }, i): LoggedTurn => ({ ...stamped, seq: highest + 1 + i }));
          await file.append(logged);
          return logged;
        })
        .then(
          (logged) => group.forEach((pending, i) => pending.resolve({ ...logged[i]! })),
          (error: unknown) => group.forEach((pending) => pending.reject(error)),
        );
    });
  }

  async read(options: ConversationLogReadOptions = {}): Promise<LoggedTurn[]> {
    this.assertOpen();
    validateRange(options);
    const { records } = await this.file.read();
    return selectTurns(records, options);
  }

  async clear(options: { throughSeq?: number } = {}): Promise<number> {
    this.assertOpen();
    const through = options.throughSeq ?? Infinity;
    if (typeof through !== 'number' || Number.isNaN(through)) {
      throw new ReverieValidationError(
        'INVALID_INPUT',
        `Invalid throughSeq ${JSON.stringify(through)}: pass the seq of the last turn to remove, or nothing to remove every turn.`,
        {
          details: { field: 'throughSeq', value: through },
        },
      );
    }
    return this.file.withLock(async (file) => {
      this.seqMark = undefined;
      const { records } = await file.read();
      if (!records.some((turn) => turn.seq <= through)) return 0;
      const mark = await this.readSeqMark();
      const highest = Math.max(mark, highestSeq(records));
      if (highest > mark) await writeFileAtomic(this.seqPath, `${JSON.stringify({ lastSeq: highest })}\n`);
      return file.rewrite((turn) => turn.seq > through);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.file.idle();
  }

  private assertOpen(): void {
    assertOpen(this.closed, 'conversation log');
  }

  /**
   * The highest seq in `records`, the file cache's own array. The cache only ever appends to the
   * array it holds (a file read afresh or rewritten gets a new one), so when `records` is the
   * array counted last time, only the records added since are looked at: an append costs what
   * it adds, not the whole log.
   */
  private highestSeqOf(records: ReadonlyArray<Readonly<LoggedTurn>>): number {
    const known = this.counted?.records === records && this.counted.count <= records.length ? this.counted : undefined;
    const highest = Math.max(known?.highest ?? 0, highestSeq(records, known?.count ?? 0));
    this.counted = { records, count: records.length, highest };
    return highest;
  }

  /** The recorded highest seq (0 when no clear has needed one). Called under the lock. */
  private async readSeqMark(): Promise<number> {
    let text: string;
    try {
      text = await readFile(this.seqPath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw new ReverieError(
        'IO_ERROR',
        `Could not read ${this.seqPath}: ${(error as Error).message}. Check the permissions of the data directory.`,
        {
          cause: error,
          details: { path: this.seqPath },
        },
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const result = seqMarkSchema.safeParse(parsed);
    if (result.success) return result.data.lastSeq;
    await quarantineFile(
      this.seqPath,
      this.dir,
      join(this.dir, '.quarantine'),
      'the conversation seq mark is not {"lastSeq": <number>}; seq numbering continues from the turns in the log, so a seq removed by an earlier clear may be handed out again',
      this.logger,
      this.clock.now(),
    );
    return 0;
  }
}

/** The highest seq of `turns` from index `from` on (0 when there are none). */
function highestSeq(turns: ReadonlyArray<Readonly<LoggedTurn>>, from = 0): number {
  let highest = 0;
  for (let i = from; i < turns.length; i++) if (turns[i]!.seq > highest) highest = turns[i]!.seq;
  return highest;
}
