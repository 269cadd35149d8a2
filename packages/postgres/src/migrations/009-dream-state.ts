import type { PostgresMigration } from './postgres-migration';

/**
 * The dream engine's own state (SPEC B6, B8, O3–O8), every table led by the scope: runs (their
 * manifest, artifacts, pass plans, archived pre-images and journal), dead letters, saved plans,
 * the ledger and completed sessions (one append-only table, by log), the passes' cursors with the
 * consolidation cursor's fingerprints one row per entry, recall events numbered per scope in
 * commit order (a counter row an append locks until it commits) and the folded signals, and the
 * holder of each scope's dream lock (the lock itself is an advisory lock, see `dreamLockKeys`).
 * Timestamps the engine compares as text stay ISO text, as the file store keeps them.
 */
export const dreamStateMigration: PostgresMigration = {
  version: 9,
  name: 'dream-state',
  async up(tx) {
    await tx.query(`
      CREATE TABLE reverie_dream_runs (
        scope text NOT NULL,
        run_id text NOT NULL,
        started_at text NOT NULL,
        manifest jsonb NOT NULL,
        PRIMARY KEY (scope, run_id)
      )`);
    await tx.query(`
      CREATE TABLE reverie_dream_run_artifacts (
        scope text NOT NULL,
        run_id text NOT NULL,
        name text COLLATE "C" NOT NULL,
        content text NOT NULL,
        PRIMARY KEY (scope, run_id, name),
        FOREIGN KEY (scope, run_id) REFERENCES reverie_dream_runs (scope, run_id) ON DELETE CASCADE
      )`);
    await tx.query(`
      CREATE TABLE reverie_dream_run_plans (
        scope text NOT NULL,
        run_id text NOT NULL,
        pass text NOT NULL,
        plan jsonb NOT NULL,
        PRIMARY KEY (scope, run_id, pass),
        FOREIGN KEY (scope, run_id) REFERENCES reverie_dream_runs (scope, run_id) ON DELETE CASCADE
      )`);
    await tx.query(`
      CREATE TABLE reverie_dream_run_archive (
        scope text NOT NULL,
        run_id text NOT NULL,
        pass text NOT NULL,
        kind text NOT NULL,
        key text NOT NULL,
        record jsonb NOT NULL,
        PRIMARY KEY (scope, run_id, pass, kind, key),
        FOREIGN KEY (scope, run_id) REFERENCES reverie_dream_runs (scope, run_id) ON DELETE CASCADE
      )`);
    await tx.query(`
      CREATE TABLE reverie_dream_run_journal (
        scope text NOT NULL,
        run_id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        line jsonb NOT NULL,
        PRIMARY KEY (scope, run_id, seq),
        FOREIGN KEY (scope, run_id) REFERENCES reverie_dream_runs (scope, run_id) ON DELETE CASCADE
      )`);
    await tx.query(`
      CREATE TABLE reverie_dream_dead_letters (
        scope text NOT NULL,
        run_id text NOT NULL,
        letter jsonb NOT NULL,
        PRIMARY KEY (scope, run_id)
      )`);
    await tx.query(`
      CREATE TABLE reverie_dream_plans (
        scope text NOT NULL,
        plan_id text NOT NULL,
        created_at text NOT NULL,
        plan jsonb NOT NULL,
        summary text NOT NULL,
        applied jsonb,
        PRIMARY KEY (scope, plan_id)
      )`);
    await tx.query(`
      CREATE TABLE reverie_dream_logs (
        scope text NOT NULL,
        log text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        record jsonb NOT NULL,
        PRIMARY KEY (scope, log, seq)
      )`);
    await tx.query(`
      CREATE TABLE reverie_dream_cursors (
        scope text NOT NULL,
        pass text NOT NULL,
        value jsonb NOT NULL,
        PRIMARY KEY (scope, pass)
      )`);
    await tx.query(`
      CREATE TABLE reverie_dream_seen (
        scope text NOT NULL,
        pass text NOT NULL,
        entry_id text COLLATE "C" NOT NULL,
        fingerprint text NOT NULL,
        PRIMARY KEY (scope, pass, entry_id)
      )`);
    await tx.query(`
      CREATE TABLE reverie_dream_recall_heads (
        scope text NOT NULL PRIMARY KEY,
        seq bigint NOT NULL
      )`);
    await tx.query(`
      CREATE TABLE reverie_dream_recall_events (
        scope text NOT NULL,
        seq bigint NOT NULL,
        event jsonb NOT NULL,
        PRIMARY KEY (scope, seq)
      )`);
    await tx.query(`
      CREATE TABLE reverie_dream_recall_signals (
        scope text NOT NULL PRIMARY KEY,
        signals jsonb NOT NULL
      )`);
    await tx.query(`
      CREATE TABLE reverie_dream_lock_holders (
        scope text NOT NULL PRIMARY KEY,
        token text NOT NULL,
        session text NOT NULL,
        holder jsonb NOT NULL
      )`);
  },
};
