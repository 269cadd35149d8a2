import { type IClock, type IConversationLog, type ILogger, ReverieError, type TurnRole } from '@reverie/core';
import { fileSystemError, toStorableText } from '@reverie/core/internal';
import { restorableTurns } from './restorable-turns';

export interface RecordedTurn {
  role: Extract<TurnRole, 'user' | 'assistant'>;
  content: string;
  timestamp: string;
  /** Its position in the conversation log, once appended (SPEC M10, B10); absent without a log or before the append. */
  seq?: number;
}

export interface ConversationMemoryOptions {
  clock: IClock;
  logger: ILogger;
  /** When set, every turn is also appended here for the dream cycle (SPEC M10), and read back after a restart (M9). */
  log?: IConversationLog | undefined;
  /** Turns kept per session in memory (default 200; replay uses the last `replayTurns`). */
  maxTurnsPerSession?: number;
  /** A session with no turn for this long ends (SPEC M9); 0 (the default) keeps sessions until `endSession`. */
  idleMs?: number;
}

/** Ended sessions remembered at most (when sessions never go idle, nothing else bounds them). */
const MAX_ENDED_SESSIONS = 10_000;

/** A turn the conversation log refused, kept until `flush()` reports it. */
interface FailedAppend {
  sessionId: string;
  error: unknown;
}

/** The turns of one session held in process memory. */
interface SessionTurns {
  turns: RecordedTurn[];
  /** When the session last had a turn (ms). */
  lastActiveMs: number;
}

/** A session that left process memory, with the turns it held. */
export interface EndedSession {
  sessionId: string;
  turns: RecordedTurn[];
}

/**
 * SPEC M9: the turns of each session, in process memory, replayed into the model's context.
 * Turns can also go to the persistent conversation log; turns of dream runs (marked
 * `ephemeral`) never do, so the dream cycle never digests its own output (D16). A session this
 * process does not hold (after a restart) is restored from the log (`restore`); a session idle
 * for `idleMs` leaves memory (`expireIdle`).
 *
 * Recording a turn never waits for the log: the append starts at once, in the order the turns
 * were recorded (the file log writes the appends that arrive together as one fsynced group),
 * and `flush()` waits for every append started so far. The runtime flushes before a dream
 * cycle reads the log and when it closes, so a turn recorded before a cycle is in that cycle.
 */
export class ConversationMemory {
  /** Sessions in the order of their last turn, least recent first (a turn moves its session to the end). */
  private readonly sessions = new Map<string, SessionTurns>();
  /** Sessions ended with `endSession`, and when (ms): their logged turns up to then are not restored. Kept for `idleMs`. */
  private readonly ended = new Map<string, number>();
  /** Restores from the log under way, one per session. */
  private readonly restoring = new Map<string, Promise<void>>();
  private readonly maxTurns: number;
  private readonly idleMs: number;
  /** Appends started and not yet settled. */
  private readonly appending = new Set<Promise<void>>();
  /** Appends that failed since the last `flush()`. */
  private failed: FailedAppend[] = [];

  constructor(private readonly options: ConversationMemoryOptions) {
    this.maxTurns = options.maxTurnsPerSession ?? 200;
    this.idleMs = options.idleMs ?? 0;
  }

  /**
   * Records a turn, and starts appending it to the conversation log unless `ephemeral` (without
   * waiting for the append: see `flush()`). A failed append is a warning at once. The text is
   * made storable first (`toStorableText`: a lone surrogate becomes U+FFFD, NULs are dropped), so
   * that the log never refuses a turn for its characters. Returns the turn as held: its `seq` is
   * set once the append succeeded.
   */
  record(sessionId: string, role: RecordedTurn['role'], content: string, options: { ephemeral?: boolean } = {}): RecordedTurn {
    const now = this.options.clock.now();
    const turn: RecordedTurn = { role, content: toStorableText(content), timestamp: now.toISOString() };
    const session = this.touch(sessionId, now.getTime());
    session.turns.push(turn);
    if (session.turns.length > this.maxTurns) session.turns.splice(0, session.turns.length - this.maxTurns);
    const log = this.options.log;
    if (options.ephemeral || !log) return turn;
    const appended = startAppend(() => log.append({ sessionId, role, content: turn.content, timestamp: turn.timestamp })).then(
      (logged) => {
        const seq = (logged as { seq?: unknown } | undefined)?.seq;
        if (typeof seq === 'number') turn.seq = seq;
      },
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
    return turn;
  }

  /**
   * Resolves once every turn recorded so far is in the conversation log. Rejects when appends
   * failed since the last `flush()` (each was also a warning when it failed), with the first
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
      {
        cause: first.error,
        details: { ...cause.details, failed: failed.length, sessionIds: [...new Set(failed.map((turn) => turn.sessionId))] },
      },
    );
  }

  /** Resolves once every append started so far has settled, whether or not it succeeded. */
  async settled(): Promise<void> {
    while (this.appending.size > 0) await Promise.all(this.appending);
  }

  /** The last `count` turns of a session, oldest first. */
  recent(sessionId: string, count: number): RecordedTurn[] {
    const turns = this.sessions.get(sessionId)?.turns ?? [];
    return turns.slice(Math.max(0, turns.length - count)).map((turn) => ({ ...turn }));
  }

  /** How many turns of the session are held. */
  size(sessionId: string): number {
    return this.sessions.get(sessionId)?.turns.length ?? 0;
  }

  /** Whether this process holds the session (it had a turn here, or was restored, and has not ended). */
  has(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  /**
   * SPEC M9: after a restart, the session's turns come back from the conversation log — those
   * since it last went idle or was ended here, at most `maxTurnsPerSession` — so its replay and
   * recall go on. Does nothing for a session held already or without a log; a log that cannot
   * be read is a warning, and the session starts afresh. Concurrent calls share one read.
   */
  async restore(sessionId: string): Promise<void> {
    const log = this.options.log;
    if (!log || this.sessions.has(sessionId)) return;
    let restoring = this.restoring.get(sessionId);
    if (!restoring) {
      restoring = this.readBack(log, sessionId).finally(() => this.restoring.delete(sessionId));
      this.restoring.set(sessionId, restoring);
    }
    await restoring;
  }

  /** Forgets a session and returns the turns it held (its logged turns stay in the log, and are not restored afterwards). */
  endSession(sessionId: string): RecordedTurn[] {
    const session = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    this.ended.delete(sessionId);
    this.ended.set(sessionId, this.options.clock.now().getTime());
    if (this.ended.size > MAX_ENDED_SESSIONS) this.ended.delete(this.ended.keys().next().value!);
    return session?.turns ?? [];
  }

  /**
   * SPEC M9: ends the sessions idle for `idleMs` (none when it is 0) and returns them with their
   * turns. Costs what it removes: sessions are kept in the order of their last turn.
   */
  expireIdle(): EndedSession[] {
    if (this.idleMs <= 0) return [];
    const cutoff = this.options.clock.now().getTime() - this.idleMs;
    const expired: EndedSession[] = [];
    for (const [sessionId, session] of this.sessions) {
      if (session.lastActiveMs > cutoff) break;
      this.sessions.delete(sessionId);
      expired.push({ sessionId, turns: session.turns });
    }
    for (const [sessionId, endedAt] of this.ended) {
      if (endedAt > cutoff) break;
      this.ended.delete(sessionId);
    }
    return expired;
  }

  /** How many sessions are held in memory. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  private touch(sessionId: string, nowMs: number): SessionTurns {
    const session = this.sessions.get(sessionId) ?? { turns: [], lastActiveMs: nowMs };
    session.lastActiveMs = nowMs;
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, session);
    return session;
  }

  private async readBack(log: IConversationLog, sessionId: string): Promise<void> {
    let logged;
    try {
      logged = await log.read({ sessionId });
    } catch (error) {
      this.options.logger.warn(
        `Could not read the conversation log to continue session ${sessionId}, so it starts afresh: its earlier turns are not replayed (${errorMessage(error)}). Check the conversation log store.`,
        { sessionId },
      );
      return;
    }
    if (this.sessions.has(sessionId)) return;
    const nowMs = this.options.clock.now().getTime();
    const turns = restorableTurns(logged, { nowMs, idleMs: this.idleMs, endedAtMs: this.ended.get(sessionId), max: this.maxTurns });
    if (turns.length === 0) return;
    this.sessions.set(sessionId, {
      turns: turns.map((turn) => ({
        role: turn.role as RecordedTurn['role'],
        content: turn.content,
        timestamp: turn.timestamp,
        seq: turn.seq,
      })),
      lastActiveMs: Date.parse(turns[turns.length - 1]!.timestamp),
    });
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
  return new ReverieError(
    'IO_ERROR',
    `The conversation log store could not append a turn: ${errorMessage(error)}. Check the store (its database, its disk).`,
    { cause: error },
  );
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
