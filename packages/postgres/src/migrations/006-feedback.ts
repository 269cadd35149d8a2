import type { PostgresMigration } from './postgres-migration';

/** Feedback signals about sessions (SPEC M12): append-only, read oldest first. */
export const feedbackMigration: PostgresMigration = {
  version: 6,
  name: 'feedback',
  async up(tx) {
    await tx.query(`
      CREATE TABLE reverie_feedback (
        scope text NOT NULL,
        position bigint GENERATED ALWAYS AS IDENTITY,
        id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('correction', 'session-summary', 'positive', 'negative')),
        session_id text NOT NULL,
        text text NOT NULL,
        rating text CHECK (rating IN ('poor', 'fair', 'good', 'excellent')),
        signal_at timestamptz NOT NULL,
        PRIMARY KEY (scope, position)
      )`);
    await tx.query('CREATE INDEX reverie_feedback_time ON reverie_feedback (scope, signal_at, position)');
  },
};
