import type { PostgresMigration } from './postgres-migration';

/**
 * The skill library (SPEC M13): one row per skill, its name `COLLATE "C"` so listings sort as
 * the other stores sort; its search terms as a tsvector (positions 1…tf, as the long-term
 * memory's) under a GIN index led by scope, with per-scope document frequencies and lengths
 * for BM25.
 */
export const skillsMigration: PostgresMigration = {
  version: 3,
  name: 'skills',
  async up(tx) {
    await tx.query(`
      CREATE TABLE reverie_skills (
        scope text NOT NULL,
        name text COLLATE "C" NOT NULL,
        summary text NOT NULL,
        content text NOT NULL,
        see_also text[] NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        last_used_at timestamptz,
        search_terms tsvector NOT NULL,
        term_count integer NOT NULL,
        PRIMARY KEY (scope, name)
      )`);
    await tx.query('CREATE INDEX reverie_skills_search ON reverie_skills USING gin (scope, search_terms)');
    await tx.query(`
      CREATE TABLE reverie_skill_terms (
        scope text NOT NULL,
        term text COLLATE "C" NOT NULL,
        df integer NOT NULL CHECK (df > 0),
        PRIMARY KEY (scope, term)
      )`);
    await tx.query(`
      CREATE TABLE reverie_skill_stats (
        scope text NOT NULL PRIMARY KEY,
        entries bigint NOT NULL,
        total_length bigint NOT NULL
      )`);
  },
};
