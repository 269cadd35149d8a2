import {
  type ConsolidationCursor,
  consolidationCursorSchema,
  type DreamCursorStore,
  SeenFingerprints,
  type SeenUpdate,
} from '@reverie/dream-state';
import type { PostgresClient } from '../client/postgres-client';
import { type DreamStateScope, jsonParam } from './dream-state-scope';

/**
 * The passes' cursors in `reverie_dream_cursors`, one JSON value per pass; the consolidation
 * cursor's fingerprints (`seen`) one row per entry in `reverie_dream_seen`, so a run writes only
 * what it changed, in the transaction that moves the cursor.
 */
export class PostgresDreamCursorStore implements DreamCursorStore {
  constructor(private readonly db: DreamStateScope) {}

  async read(pass: string): Promise<unknown> {
    const client = await this.db.ready();
    const [row] = await client.query<{ value: unknown }>('SELECT value FROM reverie_dream_cursors WHERE scope = $1 AND pass = $2', [
      this.db.scope,
      pass,
    ]);
    return row?.value ?? undefined;
  }

  async write(pass: string, value: unknown): Promise<void> {
    const client = await this.db.ready();
    await this.upsert(client, pass, value);
  }

  /**
   * The cursor with `seen` read whole, in entry-id order, as the fixed-width records
   * `SeenFingerprints` searches in place (one string from the server, not a row object per entry).
   */
  async readConsolidation(pass: string): Promise<ConsolidationCursor> {
    const client = await this.db.ready();
    const [[cursor], [seen]] = await Promise.all([
      client.query<{ value: unknown }>('SELECT value FROM reverie_dream_cursors WHERE scope = $1 AND pass = $2', [this.db.scope, pass]),
      client.query<{ records: string | null }>(
        `SELECT string_agg(entry_id || fingerprint || E'\\n', '' ORDER BY entry_id) AS records FROM reverie_dream_seen WHERE scope = $1 AND pass = $2`,
        [this.db.scope, pass],
      ),
    ]);
    const parsed = consolidationCursorSchema.safeParse(cursor?.value ?? { version: 1 });
    const { seen: _legacy, seenFiles: _files, ...small } = parsed.success ? parsed.data : consolidationCursorSchema.parse({ version: 1 });
    return { ...small, seen: SeenFingerprints.fromFiles(Buffer.from(seen?.records ?? '', 'latin1'), Buffer.alloc(0)) };
  }

  /** The cursor and the changes of `seen` in one transaction; forgets the ids a full listing did not find. */
  async writeConsolidation(
    pass: string,
    cursor: ConsolidationCursor,
    before: ConsolidationCursor,
    update: SeenUpdate = { changes: [] },
  ): Promise<void> {
    const small = smallPart(cursor);
    const changed = JSON.stringify(small) !== JSON.stringify(smallPart(before));
    if (!changed && update.changes.length === 0 && update.live === undefined) return;
    const latest = new Map(update.changes);
    const puts = [...latest].filter((change): change is [string, string] => change[1] !== null);
    const removals = [...latest].filter(([, fingerprint]) => fingerprint === null).map(([id]) => id);
    const client = await this.db.ready();
    await client.transaction(async (tx) => {
      await this.upsert(tx, pass, small);
      if (removals.length > 0) {
        await tx.query('DELETE FROM reverie_dream_seen WHERE scope = $1 AND pass = $2 AND entry_id = ANY($3::text[])', [
          this.db.scope,
          pass,
          removals,
        ]);
      }
      if (puts.length > 0) {
        await tx.query(
          `INSERT INTO reverie_dream_seen (scope, pass, entry_id, fingerprint)
           SELECT $1, $2, id, fingerprint FROM unnest($3::text[], $4::text[]) AS c(id, fingerprint)
           ON CONFLICT (scope, pass, entry_id) DO UPDATE SET fingerprint = excluded.fingerprint`,
          [this.db.scope, pass, puts.map(([id]) => id), puts.map(([, fingerprint]) => fingerprint)],
        );
      }
      if (update.live !== undefined) {
        await tx.query('DELETE FROM reverie_dream_seen WHERE scope = $1 AND pass = $2 AND entry_id <> ALL($3::text[])', [
          this.db.scope,
          pass,
          [...update.live],
        ]);
      }
    });
  }

  private async upsert(client: PostgresClient, pass: string, value: unknown): Promise<void> {
    await client.query(
      `INSERT INTO reverie_dream_cursors (scope, pass, value) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT (scope, pass) DO UPDATE SET value = excluded.value`,
      [this.db.scope, pass, jsonParam(value)],
    );
  }
}

/** The cursor without its fingerprints (and without where a file store keeps them). */
function smallPart(cursor: ConsolidationCursor): Omit<ConsolidationCursor, 'seen' | 'seenFiles'> {
  const { seen: _seen, seenFiles: _files, ...small } = cursor;
  return small;
}
