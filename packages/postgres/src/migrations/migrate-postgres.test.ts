import { describe, expect, it } from 'vitest';
import { postgresClientFromConnectionString } from '../client/node-postgres-client';
import type { PostgresClient } from '../client/postgres-client';
import { realServer, usePgliteClient, useRealDatabase } from '../../test/test-databases';
import { ensureMigrated, migratePostgres, runMigrations } from './migrate-postgres';
import type { PostgresMigration } from './postgres-migration';
import { POSTGRES_MIGRATIONS } from './postgres-migrations';

const tables = async (client: PostgresClient) =>
  (await client.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE tablename LIKE 'reverie_%' ORDER BY 1")).map(
    (row) => row.name,
  );

describe('the migration list', () => {
  it('numbers migrations 1, 2, 3… with kebab-case names', () => {
    POSTGRES_MIGRATIONS.forEach((migration, index) => {
      expect(migration.version).toBe(index + 1);
      expect(migration.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    });
  });
});

describe('migratePostgres on PGlite', () => {
  const client = usePgliteClient();

  it('creates the schema on an empty database, then has nothing left to do', async () => {
    const first = await migratePostgres(client());
    expect(first).toEqual({ from: 0, to: POSTGRES_MIGRATIONS.length, applied: POSTGRES_MIGRATIONS.map((m) => `${m.version}-${m.name}`) });
    expect(await tables(client())).toContain('reverie_memory');
    expect(await migratePostgres(client())).toEqual({ from: POSTGRES_MIGRATIONS.length, to: POSTGRES_MIGRATIONS.length, applied: [] });
    const recorded = await client().query<{ version: number; name: string }>(
      'SELECT version, name FROM reverie_schema_migrations ORDER BY version',
    );
    expect(recorded).toEqual(POSTGRES_MIGRATIONS.map(({ version, name }) => ({ version, name })));
  });

  it('applies only the migrations a newer release added', async () => {
    const added: PostgresMigration = {
      version: POSTGRES_MIGRATIONS.length + 1,
      name: 'a-new-table',
      up: (tx) => tx.query('CREATE TABLE reverie_added (scope text PRIMARY KEY)').then(() => undefined),
    };
    const report = await runMigrations(client(), [...POSTGRES_MIGRATIONS, added]);
    expect(report.applied).toEqual([`${added.version}-a-new-table`]);
    expect(await tables(client())).toContain('reverie_added');
  });

  it('refuses a database a newer release migrated with SCHEMA_TOO_NEW, and changes nothing', async () => {
    // The previous case left a version this release does not know.
    await expect(migratePostgres(client())).rejects.toMatchObject({
      code: 'SCHEMA_TOO_NEW',
      message: expect.stringContaining('Upgrade @reverie/postgres'),
    });
  });

  it('rolls back a migration that fails, recording nothing', async () => {
    const failing: PostgresMigration = {
      version: POSTGRES_MIGRATIONS.length + 2,
      name: 'half-done',
      async up(tx) {
        await tx.query('CREATE TABLE reverie_half (scope text)');
        await tx.query('SELECT * FROM no_such_table');
      },
    };
    const added: PostgresMigration = { version: POSTGRES_MIGRATIONS.length + 1, name: 'a-new-table', up: async () => undefined };
    await expect(runMigrations(client(), [...POSTGRES_MIGRATIONS, added, failing])).rejects.toMatchObject({ code: 'DATABASE_ERROR' });
    expect(await tables(client())).not.toContain('reverie_half');
    const [row] = await client().query<{ newest: number }>('SELECT max(version) AS newest FROM reverie_schema_migrations');
    expect(row!.newest).toBe(added.version);
  });
});

describe('a database without btree_gin', () => {
  const client = usePgliteClient({ vector: false, btreeGin: false });

  it('fails with what a database administrator must do, and creates nothing', async () => {
    await expect(migratePostgres(client())).rejects.toMatchObject({
      code: 'DATABASE_ERROR',
      message: expect.stringContaining('CREATE EXTENSION btree_gin'),
    });
    expect(await tables(client())).toEqual([]);
  });
});

describe.skipIf(!realServer.url)('migratePostgres on a real PostgreSQL server', () => {
  const database = useRealDatabase();

  it('migrates once when several processes start at the same time', async () => {
    const clients = Array.from({ length: 4 }, () => postgresClientFromConnectionString(database()));
    try {
      const reports = await Promise.all(clients.map((client) => ensureMigrated(client) as ReturnType<typeof migratePostgres>));
      expect(reports.filter((report) => report.applied.length > 0)).toHaveLength(1);
      const [row] = await clients[0]!.query<{ count: string }>('SELECT count(*) AS count FROM reverie_schema_migrations');
      expect(Number(row!.count)).toBe(POSTGRES_MIGRATIONS.length);
      // Debian's PostgreSQL has no pgvector: embeddings fall back to real[].
      const [column] = await clients[0]!.query<{ type: string }>(
        "SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = 'reverie_memory_embeddings'::regclass AND attname = 'embedding'",
      );
      expect(['real[]', 'vector']).toContain(column!.type);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});
