import {
  type ConversationLogReadOptions,
  type ConversationTurnDraft,
  conversationTurnSchema,
  type IConversationLog,
  type LoggedTurn,
  loggedTurnSchema,
  ReverieValidationError,
  validateRange,
} from '@reverie/core';
import { parseDraft } from '@reverie/core/internal';
import { SqlParams, timeRangeSql } from '../sql/sql-params';
import { type PostgresStoreOptions, type ResolvedStoreOptions, resolveStoreOptions } from '../stores/postgres-store-options';
import { isoFromRow, normaliseTime, recordFromRow } from '../stores/row-values';
import { StoreGate } from '../stores/store-gate';

export type PostgresConversationLogOptions = PostgresStoreOptions;

type TurnRow = {
  seq: string | number;
  session_id: string;
  role: string;
  content: string;
  turn_at: Date | string;
};

/**
 * `IConversationLog` (SPEC M10) on PostgreSQL: one row per turn in `reverie_conversation_turns`.
 *
 * `seq` comes from the scope's row in `reverie_conversation_seqs`, which an append increments
 * and so keeps locked until it commits: appends of a scope take turns there, and seqs become
 * visible in the order they were handed out — a reader that has seen seq 8 never finds a seq 7
 * committed later, so a cursor of "the last seq read" skips nothing. The counter outlives
 * clears: no seq is handed out twice.
 */
export class PostgresConversationLog implements IConversationLog {
  private readonly options: ResolvedStoreOptions;
  private readonly gate: StoreGate;

  constructor(options: PostgresConversationLogOptions) {
    this.options = resolveStoreOptions(options, 'PostgresConversationLog');
    this.gate = new StoreGate(this.options.client, 'conversation log');
  }

  async append(turn: ConversationTurnDraft): Promise<LoggedTurn> {
    this.gate.assertOpen();
    const stamped = parseDraft(
      conversationTurnSchema,
      { ...turn, timestamp: turn?.timestamp ?? this.options.clock.now().toISOString() },
      'conversation turn',
    );
    const timestamp = normaliseTime(stamped.timestamp);
    const client = await this.gate.ready();
    const seq = await client.transaction(async (tx) => {
      const [counter] = await tx.query<{ last_seq: string | number }>(
        `INSERT INTO reverie_conversation_seqs AS s (scope, last_seq) VALUES ($1, 1)
         ON CONFLICT (scope) DO UPDATE SET last_seq = s.last_seq + 1
         RETURNING last_seq`,
        [this.options.scope],
      );
      const next = Number(counter!.last_seq);
      await tx.query(
        'INSERT INTO reverie_conversation_turns (scope, seq, session_id, role, content, turn_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [this.options.scope, next, stamped.sessionId, stamped.role, stamped.content, timestamp],
      );
      return next;
    });
    return { sessionId: stamped.sessionId, role: stamped.role, content: stamped.content, timestamp, seq };
  }

  async read(options: ConversationLogReadOptions = {}): Promise<LoggedTurn[]> {
    this.gate.assertOpen();
    validateRange(options);
    const params = new SqlParams();
    const conditions = [`scope = ${params.add(this.options.scope)}`, ...timeRangeSql(params, 'turn_at', options)];
    if (options.afterSeq !== undefined) conditions.push(`seq > ${params.add(finiteNumber(options.afterSeq, 'afterSeq'))}::float8`);
    if (options.sessionId !== undefined) conditions.push(`session_id = ${params.add(options.sessionId)}`);
    const most = options.limit === undefined ? Infinity : finiteNumber(options.limit, 'limit');
    const limit = Number.isFinite(most) ? `LIMIT ${params.add(Math.max(0, Math.ceil(most)))}` : '';
    const client = await this.gate.ready();
    const rows = await client.query<TurnRow>(
      `SELECT seq, session_id, role, content, turn_at FROM reverie_conversation_turns WHERE ${conditions.join(' AND ')} ORDER BY seq ${limit}`,
      params.values,
    );
    return rows.map((row) => this.turnFromRow(row));
  }

  async clear(options: { throughSeq?: number } = {}): Promise<number> {
    this.gate.assertOpen();
    const params = new SqlParams();
    const conditions = [`scope = ${params.add(this.options.scope)}`];
    if (options.throughSeq !== undefined) conditions.push(`seq <= ${params.add(finiteNumber(options.throughSeq, 'throughSeq'))}::float8`);
    const client = await this.gate.ready();
    const removed = await client.query(
      `DELETE FROM reverie_conversation_turns WHERE ${conditions.join(' AND ')} RETURNING seq`,
      params.values,
    );
    return removed.length;
  }

  async close(): Promise<void> {
    this.gate.close();
  }

  private turnFromRow(row: TurnRow): LoggedTurn {
    const turn = {
      seq: Number(row.seq),
      sessionId: row.session_id,
      role: row.role,
      content: row.content,
      timestamp: isoFromRow(row.turn_at),
    };
    return recordFromRow(loggedTurnSchema, turn, {
      table: 'reverie_conversation_turns',
      scope: this.options.scope,
      key: `seq ${turn.seq}`,
    });
  }
}

/** A numeric option (±Infinity allowed, compared as a float8), or INVALID_INPUT. */
function finiteNumber(value: unknown, field: string): number {
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new ReverieValidationError('INVALID_INPUT', `Invalid ${field} ${JSON.stringify(value)}: pass a number.`, {
      details: { field, value },
    });
  }
  return value;
}
