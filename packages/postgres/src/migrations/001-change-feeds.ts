import type { PostgresMigration } from './postgres-migration';
import { requireExtension } from './extensions';

/**
 * What every store family builds on: `btree_gin` (so a GIN index can lead with `scope`), and the
 * change feeds (SPEC B12): one row per scope and feed holding its epoch and the sequence number
 * of its last change, which a writer locks (UPDATE) until it commits, so sequence numbers are
 * handed out in commit order; and the changes themselves.
 */
export const changeFeedsMigration: PostgresMigration = {
  version: 1,
  name: 'change-feeds',
  async up(tx) {
    await requireExtension(tx, 'btree_gin', 'to index full-text search by scope');
    await tx.query(`
      CREATE TABLE reverie_change_feeds (
        scope text NOT NULL,
        feed text NOT NULL,
        epoch text NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', ''),
        seq bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (scope, feed)
      )`);
    await tx.query(`
      CREATE TABLE reverie_changes (
        scope text NOT NULL,
        feed text NOT NULL,
        seq bigint NOT NULL,
        key text NOT NULL,
        op text NOT NULL CHECK (op IN ('save', 'delete')),
        PRIMARY KEY (scope, feed, seq)
      )`);
  },
};
