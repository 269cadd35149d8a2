import {
  type FeedbackDraft,
  type FeedbackListOptions,
  type FeedbackSignal,
  feedbackSignalSchema,
  type IFeedbackStore,
  newId,
  ReverieValidationError,
  validateRange,
} from '@reverie/core';
import { parseDraft } from '@reverie/core/internal';
import { SqlParams, timeRangeSql } from '../sql/sql-params';
import { type PostgresStoreOptions, type ResolvedStoreOptions, resolveStoreOptions } from '../stores/postgres-store-options';
import { isoFromRow, normaliseTime, recordFromRow } from '../stores/row-values';
import { StoreGate } from '../stores/store-gate';

export type PostgresFeedbackStoreOptions = PostgresStoreOptions;

type SignalRow = {
  id: string;
  kind: string;
  session_id: string;
  text: string;
  rating: string | null;
  signal_at: Date | string;
};

/**
 * `IFeedbackStore` (SPEC M12) on PostgreSQL: one row per signal in `reverie_feedback`, listed by
 * time (signals recorded with the same timestamp in the order they were recorded).
 */
export class PostgresFeedbackStore implements IFeedbackStore {
  private readonly options: ResolvedStoreOptions;
  private readonly gate: StoreGate;

  constructor(options: PostgresFeedbackStoreOptions) {
    this.options = resolveStoreOptions(options, 'PostgresFeedbackStore');
    this.gate = new StoreGate(this.options.client, 'feedback store');
  }

  async record(signal: FeedbackDraft): Promise<FeedbackSignal> {
    this.gate.assertOpen();
    const parsed = parseDraft(
      feedbackSignalSchema,
      { ...signal, id: signal?.id ?? newId(), timestamp: signal?.timestamp ?? this.options.clock.now().toISOString() },
      'feedback signal',
    );
    const record: FeedbackSignal = { ...parsed, timestamp: normaliseTime(parsed.timestamp) };
    const client = await this.gate.ready();
    await client.query(
      'INSERT INTO reverie_feedback (scope, id, kind, session_id, text, rating, signal_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [this.options.scope, record.id, record.kind, record.sessionId, record.text, record.rating ?? null, record.timestamp],
    );
    return record;
  }

  async list(options: FeedbackListOptions = {}): Promise<FeedbackSignal[]> {
    this.gate.assertOpen();
    validateRange(options);
    const params = new SqlParams();
    const conditions = [`scope = ${params.add(this.options.scope)}`, ...timeRangeSql(params, 'signal_at', options)];
    if (options.sessionId !== undefined) conditions.push(`session_id = ${params.add(options.sessionId)}`);
    if (options.kinds !== undefined) conditions.push(`kind = ANY(${params.add(options.kinds)}::text[])`);
    const where = conditions.join(' AND ');
    const columns = 'id, kind, session_id, text, rating, signal_at, position';
    const limit = limitOf(options.limit);
    const client = await this.gate.ready();
    // With a limit, the most recent signals, still returned oldest first.
    const rows =
      limit === undefined
        ? await client.query<SignalRow>(
            `SELECT ${columns} FROM reverie_feedback WHERE ${where} ORDER BY signal_at, position`,
            params.values,
          )
        : await client.query<SignalRow>(
            `SELECT * FROM (SELECT ${columns} FROM reverie_feedback WHERE ${where} ORDER BY signal_at DESC, position DESC LIMIT ${params.add(limit)}) recent
              ORDER BY signal_at, position`,
            params.values,
          );
    return rows.map((row) => this.signalFromRow(row));
  }

  async close(): Promise<void> {
    this.gate.close();
  }

  private signalFromRow(row: SignalRow): FeedbackSignal {
    const signal = {
      id: row.id,
      kind: row.kind,
      sessionId: row.session_id,
      text: row.text,
      ...(row.rating === null ? {} : { rating: row.rating }),
      timestamp: isoFromRow(row.signal_at),
    };
    return recordFromRow(feedbackSignalSchema, signal, { table: 'reverie_feedback', scope: this.options.scope, key: row.id });
  }
}

/** `limit` as a row count, undefined for no limit; INVALID_INPUT when it is not a number. */
function limitOf(limit: number | undefined): number | undefined {
  if (limit === undefined) return undefined;
  if (typeof limit !== 'number' || Number.isNaN(limit)) {
    throw new ReverieValidationError('INVALID_INPUT', `Invalid limit ${JSON.stringify(limit)}: pass how many signals to return at most.`, {
      details: { field: 'limit', value: limit },
    });
  }
  return Number.isFinite(limit) ? Math.max(0, Math.ceil(limit)) : undefined;
}
