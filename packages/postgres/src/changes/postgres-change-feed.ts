import { type MemoryChangeQuery } from '@reverie/core';
import { type ChangePosition, formatChangeCursor, oldestPosition, parseChangeQuery } from '@reverie/core/internal';
import type { PostgresClient } from '../client/postgres-client';

/**
 * A scope's change feed of one store family (SPEC B12) in `reverie_change_feeds` and
 * `reverie_changes`. A writer calls `lockFeed` first in its transaction: the feed row stays
 * locked until it commits, so the writers of a scope take turns and sequence numbers are handed
 * out in commit order — a reader never sees seq 8 committed while seq 7 is still to come (which
 * a PostgreSQL sequence would allow). Cursors are `epoch.seq`; the epoch is random per scope and
 * feed, so a cursor of another scope, store or database is answered with a reset. Sequence
 * numbers have no gaps and `compact` removes the oldest changes first, so a cursor whose next
 * change is no longer there is older than what is kept: it is answered with a reset too.
 */
export class PostgresChangeFeed {
  constructor(
    private readonly scope: string,
    private readonly feed: string,
  ) {}

  /** Locks the feed until the transaction ends (creating it on first use). Call it first in a write. */
  async lock(tx: PostgresClient): Promise<void> {
    const locked = await tx.query('UPDATE reverie_change_feeds SET seq = seq WHERE scope = $1 AND feed = $2 RETURNING seq', [
      this.scope,
      this.feed,
    ]);
    if (locked.length > 0) return;
    await tx.query('INSERT INTO reverie_change_feeds (scope, feed) VALUES ($1, $2) ON CONFLICT DO NOTHING', [this.scope, this.feed]);
    await tx.query('SELECT seq FROM reverie_change_feeds WHERE scope = $1 AND feed = $2 FOR UPDATE', [this.scope, this.feed]);
  }

  /** Records a change of each of `keys`, in this order, in a transaction that called `lock`: one statement. */
  async append(tx: PostgresClient, keys: readonly string[], op: 'save' | 'delete'): Promise<void> {
    if (keys.length === 0) return;
    await tx.query(
      `WITH next AS (UPDATE reverie_change_feeds SET seq = seq + cardinality($3::text[]) WHERE scope = $1 AND feed = $2 RETURNING seq - cardinality($3::text[]) AS base)
       INSERT INTO reverie_changes (scope, feed, seq, key, op)
       SELECT $1, $2, next.base + k.n, k.key, $4 FROM next CROSS JOIN unnest($3::text[]) WITH ORDINALITY AS k(key, n)`,
      [this.scope, this.feed, keys, op],
    );
  }

  /** The changes after `query.since`, read in one snapshot with the head they were read at. */
  async read(client: PostgresClient, query?: MemoryChangeQuery): Promise<ChangePage> {
    const { since, limit } = parseChangeQuery(query);
    let rows = await this.readRows(client, since, limit);
    if (rows.length === 0) {
      await client.query('INSERT INTO reverie_change_feeds (scope, feed) VALUES ($1, $2) ON CONFLICT DO NOTHING', [this.scope, this.feed]);
      rows = await this.readRows(client, since, limit);
    }
    const epoch = rows[0]!.epoch;
    const head = Number(rows[0]!.head);
    const at = (seq: number) => formatChangeCursor({ epoch, seq });
    const next = rows[0]!.seq === null ? undefined : Number(rows[0]!.seq);
    const compactedAway = since !== undefined && since.seq < head && next !== since.seq + 1;
    if (!since || since.epoch !== epoch || since.seq > head || compactedAway)
      return { changes: [], cursor: at(head), more: false, reset: true };
    const changes = rows.filter((row) => row.seq !== null).map((row) => ({ key: row.key!, op: row.op!, cursor: at(Number(row.seq)) }));
    const more = changes.length > limit;
    const page = changes.slice(0, limit);
    return { changes: page, cursor: page.at(-1)?.cursor ?? at(head), more, reset: false };
  }

  /**
   * Removes the changes up to the oldest of `keep` that is a cursor of this feed (see
   * `IMemoryChangeFeed.compactChanges`), oldest first, `batch` rows per statement so that no
   * statement runs long; each statement commits on its own, and a reader never sees a gap
   * (the rows left always run from some seq to the head). Returns how many were removed.
   */
  async compact(client: PostgresClient, keep: readonly string[], batch: number): Promise<number> {
    const [feed] = await client.query<{ epoch: string; seq: string | number }>(
      'SELECT epoch, seq FROM reverie_change_feeds WHERE scope = $1 AND feed = $2',
      [this.scope, this.feed],
    );
    const through = feed && oldestPosition(keep, feed.epoch, Number(feed.seq));
    if (through === undefined || through === 0) return 0;
    let removed = 0;
    for (;;) {
      const [deleted] = await client.query<{ count: string | number }>(
        `WITH gone AS (
           DELETE FROM reverie_changes WHERE scope = $1 AND feed = $2 AND seq IN (
             SELECT seq FROM reverie_changes WHERE scope = $1 AND feed = $2 AND seq <= $3 ORDER BY seq LIMIT $4
           ) RETURNING 1
         ) SELECT count(*) AS count FROM gone`,
        [this.scope, this.feed, through, batch],
      );
      const count = Number(deleted!.count);
      removed += count;
      if (count < batch) return removed;
    }
  }

  private readRows(client: PostgresClient, since: ChangePosition | undefined, limit: number) {
    return client.query<{
      epoch: string;
      head: string | number;
      seq: string | number | null;
      key: string | null;
      op: 'save' | 'delete' | null;
    }>(
      `SELECT f.epoch, f.seq AS head, c.seq, c.key, c.op
         FROM reverie_change_feeds f
         LEFT JOIN LATERAL (
           SELECT seq, key, op FROM reverie_changes
            WHERE scope = f.scope AND feed = f.feed AND seq > $3 AND seq <= f.seq
            ORDER BY seq LIMIT $4
         ) c ON true
        WHERE f.scope = $1 AND f.feed = $2
        ORDER BY c.seq`,
      [this.scope, this.feed, since?.seq ?? 0, since ? limit + 1 : 0],
    );
  }
}

export interface ChangePage {
  changes: Array<{ key: string; op: 'save' | 'delete'; cursor: string }>;
  cursor: string;
  more: boolean;
  reset: boolean;
}
