import type { PostgresClient } from '@reverie/postgres';
import { scrubJson } from './erasure-needles';
import type { ErasureWalk } from './erase-in-files';

/** The PostgreSQL client and scope an erasure walks the tables of. */
export interface ErasureTables {
  client: PostgresClient;
  scope: string;
}

/**
 * SPEC B14, erase on PostgreSQL: every row of the scope, in every one of Reverie's tables (those
 * named `reverie_…` with a `scope` column), that holds a needle in one of its values is deleted,
 * all in one transaction (so a crash leaves every row or none). A row is compared on its values,
 * as JSON, never on column names. The dream runs such rows belonged to (a `run_id` column) are
 * named in `runs`.
 */
export async function eraseInTables(
  { client, scope }: ErasureTables,
  needles: readonly string[],
  options: {
    /** Rows left to the store that owns them (the erased entries, deleted through the memory store last). */
    skip: (table: string, row: { id?: unknown }) => boolean;
    /** Told the runs about to lose rows before anything is written (so a crash cannot lose them). */
    beforeWrite: (runs: string[]) => Promise<void>;
  },
): Promise<ErasureWalk> {
  const walk: ErasureWalk = { places: [], checked: 0, runs: [] };
  if (needles.length === 0) return walk;
  const tables = await client.query<{ name: string }>(
    `SELECT DISTINCT table_name AS name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name LIKE 'reverie\\_%' AND column_name = 'scope' ORDER BY 1`,
  );
  /** The rows holding a needle, by table (as `ctid`s, read again in the transaction), and the runs they belong to. */
  const holding = async (tx: PostgresClient) => {
    const found = new Map<string, string[]>();
    const runs = new Set<string>();
    for (const { name } of tables) {
      const rows = await tx.query<{ row: string; json: string }>(
        `SELECT t.ctid::text AS row, row_to_json(t)::text AS json FROM ${quoted(name)} t WHERE t.scope = $1`,
        [scope],
      );
      for (const { row, json } of rows) {
        const value = JSON.parse(json) as { id?: unknown; run_id?: unknown };
        if (options.skip(name, value)) continue;
        const scrubbed = scrubJson(value, needles);
        if (!scrubbed.drop && !scrubbed.changed) continue;
        found.set(name, [...(found.get(name) ?? []), row]);
        const run = value.run_id;
        if (typeof run === 'string') runs.add(run);
      }
    }
    return { found, runs: [...runs] };
  };
  walk.checked = tables.length;
  const first = await holding(client);
  walk.runs = first.runs;
  if (first.found.size === 0) return walk;
  await options.beforeWrite(first.runs);
  await client.transaction(async (tx) => {
    const { found } = await holding(tx);
    for (const [name, rows] of found) {
      for (const row of rows) await tx.query(`DELETE FROM ${quoted(name)} WHERE ctid = $1::tid AND scope = $2`, [row, scope]);
      walk.places.push({ place: `table ${name}`, action: 'removed', records: rows.length });
    }
  });
  return walk;
}

/** A table name as an SQL identifier. Pure. */
function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
