import type { PostgresMigration } from './postgres-migration';

/**
 * Lineage (SPEC B10): where a memory entry came from — its origin, the entries merged into it or
 * superseded by it, the run that wrote it — as the JSON of `memoryLineageSchema`, on the row
 * itself so it outlives run folders. Rows written before read as before: NULL is "unknown origin".
 */
export const memoryLineageMigration: PostgresMigration = {
  version: 12,
  name: 'memory-lineage',
  async up(tx) {
    await tx.query('ALTER TABLE reverie_memory ADD COLUMN lineage jsonb');
  },
};
