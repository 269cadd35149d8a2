import type { PostgresClient } from '../client/postgres-client';

/**
 * One step of the schema. Versions are consecutive from 1 and never change once released: a
 * new table, column or index is a new migration with the next version, in a file of its own
 * (`NNN-what-it-adds.ts`) listed in `POSTGRES_MIGRATIONS`.
 */
export interface PostgresMigration {
  version: number;
  /** kebab-case, what it adds (`long-term-memory`); recorded beside the version. */
  name: string;
  /** Runs inside the migration transaction, under the migration lock, on the connection of `tx`. */
  up(tx: PostgresClient): Promise<void>;
}
