import type { PostgresMigration } from './postgres-migration';
import { tryCreateExtension } from './extensions';

/**
 * The long-term memory (SPEC M1–M4): one row per entry; its search terms as a tsvector (each
 * term's positions 1…tf, so the term frequency can be read back) under a GIN index led by scope;
 * per-scope document frequencies and lengths for BM25; embeddings in a table of their own, as
 * pgvector's `vector` when the extension can be created, else `real[]`.
 */
export const longTermMemoryMigration: PostgresMigration = {
  version: 2,
  name: 'long-term-memory',
  async up(tx) {
    const vectorType = (await tryCreateExtension(tx, 'vector')) ? 'vector' : 'real[]';
    await tx.query(`
      CREATE TABLE reverie_memory (
        scope text NOT NULL,
        id text NOT NULL,
        content text NOT NULL,
        category text COLLATE "C" NOT NULL,
        tags text[] NOT NULL,
        metadata jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        importance double precision NOT NULL,
        importance_at timestamptz,
        reinforcement_count integer NOT NULL,
        search_terms tsvector NOT NULL,
        term_count integer NOT NULL,
        text_hash text NOT NULL,
        PRIMARY KEY (scope, id)
      )`);
    await tx.query('CREATE INDEX reverie_memory_search ON reverie_memory USING gin (scope, search_terms)');
    await tx.query('CREATE INDEX reverie_memory_created ON reverie_memory (scope, created_at, id)');
    await tx.query('CREATE INDEX reverie_memory_category ON reverie_memory (scope, category)');
    await tx.query(`
      CREATE TABLE reverie_memory_terms (
        scope text NOT NULL,
        term text COLLATE "C" NOT NULL,
        df integer NOT NULL CHECK (df > 0),
        PRIMARY KEY (scope, term)
      )`);
    await tx.query(`
      CREATE TABLE reverie_memory_stats (
        scope text NOT NULL PRIMARY KEY,
        entries bigint NOT NULL,
        total_length bigint NOT NULL
      )`);
    await tx.query(`
      CREATE TABLE reverie_memory_embeddings (
        scope text NOT NULL,
        id text NOT NULL,
        model text NOT NULL,
        text_hash text NOT NULL,
        dims integer NOT NULL,
        embedding ${vectorType} NOT NULL,
        PRIMARY KEY (scope, id),
        FOREIGN KEY (scope, id) REFERENCES reverie_memory (scope, id) ON DELETE CASCADE
      )`);
  },
};
