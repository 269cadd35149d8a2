import type { PostgresMigration } from './postgres-migration';

/** Workflow execution records (SPEC D12): append-only, read oldest first, cleared by age. */
export const workflowLogMigration: PostgresMigration = {
  version: 7,
  name: 'workflow-log',
  async up(tx) {
    await tx.query(`
      CREATE TABLE reverie_workflow_executions (
        scope text NOT NULL,
        position bigint GENERATED ALWAYS AS IDENTITY,
        id text NOT NULL,
        description text NOT NULL,
        skill text,
        success boolean NOT NULL,
        failed_step text,
        error text,
        executed_at timestamptz NOT NULL,
        duration_ms double precision,
        PRIMARY KEY (scope, position)
      )`);
    await tx.query('CREATE INDEX reverie_workflow_executions_time ON reverie_workflow_executions (scope, executed_at, position)');
  },
};
