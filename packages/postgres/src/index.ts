export type { PostgresClient, PostgresRow } from './client/postgres-client';
export { postgresClientFromConnectionString, postgresClientFromPool } from './client/node-postgres-client';
export { type PgliteLike, type PgliteTransactionLike, postgresClientFromPglite } from './client/pglite-client';
export { postgresError } from './client/postgres-error';
export { type MigrationReport, migratePostgres, MIGRATION_LOCK_KEY } from './migrations/migrate-postgres';
export type { PostgresMigration } from './migrations/postgres-migration';
export type { PostgresStoreOptions } from './stores/postgres-store-options';
export { PostgresMemoryStore, type PostgresMemoryStoreOptions } from './memory/postgres-memory-store';
export { PostgresSkillStore, type PostgresSkillStoreOptions } from './skills/postgres-skill-store';
export { PostgresConversationLog, type PostgresConversationLogOptions } from './conversation-log/postgres-conversation-log';
export { PostgresFeedbackStore, type PostgresFeedbackStoreOptions } from './feedback/postgres-feedback-store';
export { PostgresSkillUsageStore, type PostgresSkillUsageStoreOptions } from './skill-usage/postgres-skill-usage-store';
export { PostgresWorkflowLog, type PostgresWorkflowLogOptions } from './workflow-log/postgres-workflow-log';
export {
  DEFAULT_MAX_CHARS_PER_NAMESPACE,
  DEFAULT_WORKING_MEMORY_SWEEP_INTERVAL_MS,
  PostgresWorkingMemory,
  type PostgresWorkingMemoryOptions,
} from './working-memory/postgres-working-memory';
export { PostgresDreamStateStore, type PostgresDreamStateStoreOptions } from './dream/postgres-dream-state-store';
export { DREAM_LOCK_CLASS, dreamLockKeys } from './dream/dream-lock-keys';
export { dropPostgresScope, listPostgresScopes } from './stores/list-postgres-scopes';
