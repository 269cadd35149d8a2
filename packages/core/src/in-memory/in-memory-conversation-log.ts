import type { IClock } from '../interfaces/clock';
import { ReverieValidationError } from '../errors/reverie-error';
import type { ConversationLogReadOptions, IConversationLog } from '../interfaces/conversation-log';
import { type ConversationTurnDraft, type LoggedTurn, loggedTurnSchema } from '../schemas/conversation-turn';
import { parseDraft } from '../schemas/parse-record';
import { assertOpen } from '../stores/write-condition';
import { selectTurns } from '../stores/record-selectors';
import { systemClock } from '../time/system-clock';
import type { InMemoryStoreOptions } from './in-memory-store-options';

/** The reference `IConversationLog`: turns in an array, `seq` from a counter. Nothing persists. */
export class InMemoryConversationLog implements IConversationLog {
  private turns: LoggedTurn[] = [];
  private lastSeq = 0;
  private readonly clock: IClock;
  private closed = false;

  constructor(options: InMemoryStoreOptions = {}) {
    this.clock = options.clock ?? systemClock;
  }

  async append(turn: ConversationTurnDraft): Promise<LoggedTurn> {
    assertOpen(this.closed, 'conversation log');
    const logged = parseDraft(
      loggedTurnSchema,
      { ...turn, timestamp: turn?.timestamp ?? this.clock.now().toISOString(), seq: this.lastSeq + 1 },
      'conversation turn',
    );
    this.lastSeq = logged.seq;
    this.turns.push(logged);
    return { ...logged };
  }

  async read(options: ConversationLogReadOptions = {}): Promise<LoggedTurn[]> {
    assertOpen(this.closed, 'conversation log');
    return selectTurns(this.turns, options);
  }

  async clear(options: { throughSeq?: number } = {}): Promise<number> {
    assertOpen(this.closed, 'conversation log');
    if (options.throughSeq !== undefined && (typeof options.throughSeq !== 'number' || Number.isNaN(options.throughSeq))) {
      throw new ReverieValidationError(
        'INVALID_INPUT',
        `Invalid throughSeq ${JSON.stringify(options.throughSeq)}: pass the seq of the last turn you read, or nothing to clear everything.`,
      );
    }
    const through = options.throughSeq ?? Infinity;
    const before = this.turns.length;
    this.turns = this.turns.filter((turn) => turn.seq > through);
    return before - this.turns.length;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
