import type { PostgresMigration } from './postgres-migration';

/**
 * The conversation log (SPEC M10): turns numbered per scope by `seq`, from a counter row per
 * scope that an append locks until it commits, so seqs are handed out in commit order and never
 * again after a clear.
 */
export const conversationLogMigration: PostgresMigration = {
  version: 5,
  name: 'conversation-log',
  async up(tx) {
    await tx.query(`
      CREATE TABLE reverie_conversation_seqs (
        scope text NOT NULL PRIMARY KEY,
        last_seq bigint NOT NULL
      )`);
    await tx.query(`
      CREATE TABLE reverie_conversation_turns (
        scope text NOT NULL,
        seq bigint NOT NULL,
        session_id text NOT NULL,
        role text NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
        content text NOT NULL,
        turn_at timestamptz NOT NULL,
        PRIMARY KEY (scope, seq)
      )`);
    await tx.query('CREATE INDEX reverie_conversation_turns_session ON reverie_conversation_turns (scope, session_id, seq)');
  },
};
