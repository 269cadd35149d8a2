import type { PostgresMigration } from './postgres-migration';

/**
 * Tiers (SPEC B13): a `tier` column, `hot` for every row written before, and the text index split
 * into one partial GIN index per tier (led by scope, as every index is), so that a hot search
 * reads postings of hot rows only and a cold one is not slowed by the hot set. Browsing and
 * listing by tier get a partial index each on the order they read.
 */
export const memoryTiersMigration: PostgresMigration = {
  version: 15,
  name: 'memory-tiers',
  async up(tx) {
    await tx.query(`ALTER TABLE reverie_memory ADD COLUMN tier text NOT NULL DEFAULT 'hot' CHECK (tier IN ('hot', 'cold'))`);
    await tx.query('DROP INDEX IF EXISTS reverie_memory_search');
    await tx.query(`CREATE INDEX reverie_memory_search_hot ON reverie_memory USING gin (scope, search_terms) WHERE tier = 'hot'`);
    await tx.query(`CREATE INDEX reverie_memory_search_cold ON reverie_memory USING gin (scope, search_terms) WHERE tier = 'cold'`);
    await tx.query(`CREATE INDEX reverie_memory_cold_created ON reverie_memory (scope, created_at, id) WHERE tier = 'cold'`);
  },
};
