import { changeFeedsMigration } from './001-change-feeds';
import { longTermMemoryMigration } from './002-long-term-memory';
import type { PostgresMigration } from './postgres-migration';

/** Every migration this version of the library knows, in order: versions 1, 2, 3… */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = Object.freeze([changeFeedsMigration, longTermMemoryMigration]);
