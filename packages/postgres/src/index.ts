export type { PostgresClient, PostgresRow } from './client/postgres-client';
export { postgresClientFromConnectionString, postgresClientFromPool } from './client/node-postgres-client';
export { type PgliteLike, type PgliteTransactionLike, postgresClientFromPglite } from './client/pglite-client';
export { postgresError } from './client/postgres-error';
export { type MigrationReport, migratePostgres, MIGRATION_LOCK_KEY } from './migrations/migrate-postgres';
export type { PostgresMigration } from './migrations/postgres-migration';
export type { PostgresStoreOptions } from './stores/postgres-store-options';
export { PostgresMemoryStore, type PostgresMemoryStoreOptions } from './memory/postgres-memory-store';
