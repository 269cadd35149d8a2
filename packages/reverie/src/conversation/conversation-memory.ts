import type { IClock, IConversationLog, ILogger, TurnRole } from '@reverie/core';

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

/**
 * SPEC M9: the turns of each session, in process memory, replayed into the model's context.
 * Turns can also go to the persistent conversation log; turns of dream runs (marked
 * `ephemeral`) never do, so the dream cycle never digests its own output (D16).
 */
export class ConversationMemory {
  private readonly sessions = new Map<string, RecordedTurn[]>();
  private readonly maxTurns: number;

  constructor(private readonly options: ConversationMemoryOptions) {
    this.maxTurns = options.maxTurnsPerSession ?? 200;
  }

  /** Records a turn; appends it to the conversation log unless `ephemeral`. */
  async record(sessionId: string, role: RecordedTurn['role'], content: string, options: { ephemeral?: boolean } = {}): Promise<void> {
    const timestamp = this.options.clock.now().toISOString();
    const turns = this.sessions.get(sessionId) ?? [];
    turns.push({ role, content, timestamp });
    if (turns.length > this.maxTurns) turns.splice(0, turns.length - this.maxTurns);
    this.sessions.set(sessionId, turns);
    if (options.ephemeral || !this.options.log) return;
    try {
      await this.options.log.append({ sessionId, role, content, timestamp });
    } catch (error) {
      this.options.logger.error('Could not append a turn to the conversation log.', { sessionId, error: String(error) });
      throw error;
    }
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
