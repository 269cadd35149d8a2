import type { PostgresMigration } from './postgres-migration';

/** Which skill was used in which session, and when (SPEC M13): append-only, read oldest first. */
export const skillUsageMigration: PostgresMigration = {
  version: 4,
  name: 'skill-usage',
  async up(tx) {
    await tx.query(`
      CREATE TABLE reverie_skill_usage (
        scope text NOT NULL,
        position bigint GENERATED ALWAYS AS IDENTITY,
        skill text COLLATE "C" NOT NULL,
        session_id text NOT NULL,
        used_at timestamptz NOT NULL,
        PRIMARY KEY (scope, position)
      )`);
    await tx.query('CREATE INDEX reverie_skill_usage_time ON reverie_skill_usage (scope, used_at, position)');
  },
};
