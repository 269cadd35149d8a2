import {
  emptyRecallSignals,
  type RecallEvent,
  type RecallEventPosition,
  recallEventSchema,
  type RecallSignalsFile,
  recallSignalsFileSchema,
  type RecallStateStore,
} from '@reverie/dream-state';
import { type DreamStateScope, jsonParam } from './dream-state-scope';

/**
 * Recall events and signals (SPEC O4). Events are numbered per scope from the counter row of
 * `reverie_dream_recall_heads`, which an append locks until it commits: numbers are handed out
 * in commit order, so a fold that read through event n never misses an event numbered below n
 * that committed later. The signals' `offset` is the number of the last event folded.
 */
export class PostgresRecallState implements RecallStateStore {
  constructor(private readonly db: DreamStateScope) {}

  /** One statement: the counter moves by the number of events and the events take the numbers below it. */
  async appendEvents(events: readonly RecallEvent[]): Promise<void> {
    if (events.length === 0) return;
    const client = await this.db.ready();
    await client.query(
      `WITH head AS (
         INSERT INTO reverie_dream_recall_heads (scope, seq) VALUES ($1, $2)
         ON CONFLICT (scope) DO UPDATE SET seq = reverie_dream_recall_heads.seq + excluded.seq
         RETURNING seq
       )
       INSERT INTO reverie_dream_recall_events (scope, seq, event)
       SELECT $1, head.seq - $2 + e.n, e.event::jsonb FROM head, unnest($3::text[]) WITH ORDINALITY AS e(event, n)`,
      [this.db.scope, events.length, events.map((event) => jsonParam(event))],
    );
  }

  async readSignals(): Promise<RecallSignalsFile> {
    const client = await this.db.ready();
    const [row] = await client.query<{ signals: unknown }>('SELECT signals FROM reverie_dream_recall_signals WHERE scope = $1', [
      this.db.scope,
    ]);
    const parsed = recallSignalsFileSchema.safeParse(row?.signals);
    return parsed.success ? parsed.data : emptyRecallSignals();
  }

  async readNewEvents(signals: RecallSignalsFile): Promise<{ events: RecallEvent[]; invalid: number; position: RecallEventPosition }> {
    const client = await this.db.ready();
    const rows = await client.query<{ seq: string | number; event: unknown }>(
      'SELECT seq, event FROM reverie_dream_recall_events WHERE scope = $1 AND seq > $2 ORDER BY seq',
      [this.db.scope, signals.offset],
    );
    const events: RecallEvent[] = [];
    let invalid = 0;
    for (const row of rows) {
      const parsed = recallEventSchema.safeParse(row.event);
      if (parsed.success) events.push(parsed.data);
      else invalid += 1;
    }
    return { events, invalid, position: { offset: rows.length === 0 ? signals.offset : Number(rows.at(-1)!.seq) } };
  }

  async writeSignals(signals: RecallSignalsFile): Promise<void> {
    const client = await this.db.ready();
    await client.query(
      `INSERT INTO reverie_dream_recall_signals (scope, signals) VALUES ($1, $2::jsonb)
       ON CONFLICT (scope) DO UPDATE SET signals = excluded.signals`,
      [this.db.scope, jsonParam(recallSignalsFileSchema.parse(signals))],
    );
  }

  /**
   * Deletes the events `signals` were folded through once their JSON takes more than
   * `compactEventsBytes`. Event numbers never restart, so the events appended meanwhile keep
   * theirs and are folded next time: `signals` need not change.
   */
  async compactEvents(signals: RecallSignalsFile, options: { compactEventsBytes: number }): Promise<boolean> {
    const client = await this.db.ready();
    const [row] = await client.query<{ bytes: string | number }>(
      'SELECT coalesce(sum(octet_length(event::text)), 0) AS bytes FROM reverie_dream_recall_events WHERE scope = $1 AND seq <= $2',
      [this.db.scope, signals.offset],
    );
    if (Number(row?.bytes ?? 0) < options.compactEventsBytes || Number(row?.bytes ?? 0) === 0) return false;
    await client.query('DELETE FROM reverie_dream_recall_events WHERE scope = $1 AND seq <= $2', [this.db.scope, signals.offset]);
    return true;
  }
}
