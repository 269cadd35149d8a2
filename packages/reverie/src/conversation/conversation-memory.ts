import { type IClock, type IConversationLog, type ILogger, fileSystemError, ReverieError, type TurnRole } from '@reverie/core';

export interface RecordedTurn {
  role: Extract<TurnRole, 'user' | 'assistant'>;
  content: string;
  timestamp: string;
}

export interface ConversationMemoryOptions {
  clock: IClock;
  logger: ILogger;
  /** When set, every turn is also appended here for the dream cycle (SPEC M10). */
  log?: IConversationLog | undefined;
  /** Turns kept per session in memory (default 200; replay uses the last `replayTurns`). */
  maxTurnsPerSession?: number;
}

/** A turn the conversation log refused, kept until `flush()` reports it. */
interface FailedAppend {
  sessionId: string;
  error: unknown;
}

/**
 * SPEC M9: the turns of each session, in process memory, replayed into the model's context.
 * Turns can also go to the persistent conversation log; turns of dream runs (marked
 * `ephemeral`) never do, so the dream cycle never digests its own output (D16).
 *
 * Recording a turn never waits for the log: the append starts at once, in the order the turns
 * were recorded (the file log writes the appends that arrive together as one fsynced group),
 * and `flush()` waits for every append started so far. The runtime flushes before a dream
 * cycle reads the log and when it closes, so a turn recorded before a cycle is in that cycle.
 */
export class ConversationMemory {
  private readonly sessions = new Map<string, RecordedTurn[]>();
  private readonly maxTurns: number;
  /** Appends started and not yet settled. */
  private readonly appending = new Set<Promise<void>>();
  /** Appends that failed since the last `flush()`. */
  private failed: FailedAppend[] = [];

  constructor(private readonly options: ConversationMemoryOptions) {
    this.maxTurns = options.maxTurnsPerSession ?? 200;
  }

  /**
   * Records a turn, and starts appending it to the conversation log unless `ephemeral` (without
   * waiting for the append: see `flush()`). A failed append is logged as an error at once.
   */
  record(sessionId: string, role: RecordedTurn['role'], content: string, options: { ephemeral?: boolean } = {}): void {
    const timestamp = this.options.clock.now().toISOString();
    const turns = this.sessions.get(sessionId) ?? [];
    turns.push({ role, content, timestamp });
    if (turns.length > this.maxTurns) turns.splice(0, turns.length - this.maxTurns);
    this.sessions.set(sessionId, turns);
    const log = this.options.log;
    if (options.ephemeral || !log) return;
    const appended = startAppend(() => log.append({ sessionId, role, content, timestamp })).then(
      () => undefined,
      (error: unknown) => {
        const cause = appendFailure(error);
        this.options.logger.warn(
          `A ${role} turn of session ${sessionId} was not appended to the conversation log, so the dream cycle will not learn from it and it will not be replayed after a restart (this process still replays it). ${cause.message}`,
          { sessionId, role, code: cause.code },
        );
        this.failed.push({ sessionId, error });
      },
    );
    this.appending.add(appended);
    void appended.finally(() => this.appending.delete(appended));
  }

  /**
   * Resolves once every turn recorded so far is in the conversation log. Rejects when appends
   * failed since the last `flush()` (each was also logged when it failed), with the first
   * failure's code (READ_ONLY, NO_SPACE, IO_ERROR…) and details; the failures are reported once.
   */
  async flush(): Promise<void> {
    await this.settled();
    const failed = this.failed;
    if (failed.length === 0) return;
    this.failed = [];
    const first = failed[0]!;
    const cause = appendFailure(first.error);
    throw new ReverieError(
      cause.code,
      `${failed.length} turn(s) could not be appended to the conversation log (the first, of session ${first.sessionId}: ${errorMessage(first.error)}). ` +
        'They are still replayed in their sessions, but the dream cycle will not see them.',
      { cause: first.error, details: { ...cause.details, failed: failed.length, sessionIds: [...new Set(failed.map((turn) => turn.sessionId))] } },
    );
  }

  /** Resolves once every append started so far has settled, whether or not it succeeded. */
  async settled(): Promise<void> {
    while (this.appending.size > 0) await Promise.all(this.appending);
  }

  /** The last `count` turns of a session, oldest first. */
  recent(sessionId: string, count: number): RecordedTurn[] {
    const turns = this.sessions.get(sessionId) ?? [];
    return turns.slice(Math.max(0, turns.length - count)).map((turn) => ({ ...turn }));
  }

  /** How many turns of the session are held. */
  size(sessionId: string): number {
    return this.sessions.get(sessionId)?.length ?? 0;
  }

  /** Forgets a session (its logged turns stay in the log). */
  endSession(sessionId: string): void {
    this.sessions.delete(sessionId);
  }
}

/** Calls `append`, turning a synchronous throw (a store that is not async) into a rejection. */
function startAppend(append: () => Promise<unknown>): Promise<unknown> {
  try {
    return Promise.resolve(append());
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * What an append failure is: a ReverieError as the store threw it, a file-system error by its
 * code (READ_ONLY, NO_SPACE…, with what to do), anything else a custom store threw as IO_ERROR
 * of that store (it is the store's failure, not a fault of Reverie).
 */
function appendFailure(error: unknown): ReverieError {
  const failure = fileSystemError(error, 'append a turn to the conversation log', 'the conversation log');
  if (failure.code !== 'INTERNAL' || error instanceof ReverieError) return failure;
  return new ReverieError('IO_ERROR', `The conversation log store could not append a turn: ${errorMessage(error)}. Check the store (its database, its disk).`, { cause: error });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
