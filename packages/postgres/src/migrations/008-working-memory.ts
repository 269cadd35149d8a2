import type { PostgresMigration } from './postgres-migration';

/**
 * Working memory (SPEC M7): one row per key with its namespace (the first two segments) and
 * expiry; `position` orders the entries of a namespace as they were stored, for the cap's
 * oldest-first eviction. Search terms as the skills' (a tsvector under a GIN index led by scope,
 * with per-scope document frequencies and lengths).
 */
export const workingMemoryMigration: PostgresMigration = {
  version: 8,
  name: 'working-memory',
  async up(tx) {
    await tx.query(`
      CREATE TABLE reverie_working_memory (
        scope text NOT NULL,
        key text COLLATE "C" NOT NULL,
        namespace text COLLATE "C" NOT NULL,
        position bigint GENERATED ALWAYS AS IDENTITY,
        value text NOT NULL,
        category text COLLATE "C",
        tags text[] NOT NULL,
        stored_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        search_terms tsvector NOT NULL,
        term_count integer NOT NULL,
        PRIMARY KEY (scope, key)
      )`);
    await tx.query('CREATE INDEX reverie_working_memory_namespace ON reverie_working_memory (scope, namespace, position)');
    await tx.query('CREATE INDEX reverie_working_memory_expiry ON reverie_working_memory (scope, expires_at)');
    await tx.query('CREATE INDEX reverie_working_memory_search ON reverie_working_memory USING gin (scope, search_terms)');
    await tx.query(`
      CREATE TABLE reverie_working_memory_terms (
        scope text NOT NULL,
        term text COLLATE "C" NOT NULL,
        df integer NOT NULL CHECK (df > 0),
        PRIMARY KEY (scope, term)
      )`);
    await tx.query(`
      CREATE TABLE reverie_working_memory_stats (
        scope text NOT NULL PRIMARY KEY,
        entries bigint NOT NULL,
        total_length bigint NOT NULL
      )`);
  },
};
