import type { PostgresMigration } from './postgres-migration';

/**
 * Validity over time (SPEC B9): when a memory entry's fact started and stopped holding, and the
 * entry that superseded it. Rows written before read as before: every column is nullable and
 * NULL means "no bound". Current recall keeps the scope's entries whose `valid_to` is unset
 * or later than now, which the partial index finds without reading the others.
 */
export const memoryValidityMigration: PostgresMigration = {
  version: 10,
  name: 'memory-validity',
  async up(tx) {
    await tx.query(`
      ALTER TABLE reverie_memory
        ADD COLUMN valid_from timestamptz,
        ADD COLUMN valid_to timestamptz,
        ADD COLUMN superseded_by text,
        ADD CONSTRAINT reverie_memory_validity CHECK (valid_from IS NULL OR valid_to IS NULL OR valid_from <= valid_to),
        ADD CONSTRAINT reverie_memory_superseded CHECK (superseded_by IS NULL OR valid_to IS NOT NULL)`);
    await tx.query('CREATE INDEX reverie_memory_valid_to ON reverie_memory (scope, valid_to) WHERE valid_to IS NOT NULL');
  },
};
