import type { PostgresClient } from '../client/postgres-client';
import type { SearchedTables } from '../search/searched-tables';

/** Rows a migration reads and rewrites per statement. */
const BATCH = 1000;

/** A document as `forEachDocumentBatch` reads it: its scope, its key (as `key`) and `columns`. */
export type DocumentRow = Record<string, unknown> & { scope: string; key: string };

/**
 * Calls `each` with every document of `tables.documents`, `BATCH` at a time in (scope, key)
 * order, for migrations that derive something again from the documents' text.
 */
export async function forEachDocumentBatch(
  tx: PostgresClient,
  tables: Pick<SearchedTables, 'documents' | 'key' | 'columns'>,
  each: (rows: DocumentRow[]) => Promise<void>,
): Promise<void> {
  let after: DocumentRow | undefined;
  for (;;) {
    const rows = await tx.query<DocumentRow>(
      `SELECT scope, ${tables.key} AS key, ${tables.columns} FROM ${tables.documents}
        ${after ? `WHERE (scope, ${tables.key}) > ($1, $2)` : ''}
        ORDER BY scope, ${tables.key} LIMIT ${BATCH}`,
      after ? [after.scope, after.key] : [],
    );
    if (rows.length === 0) return;
    await each(rows);
    after = rows.at(-1)!;
  }
}
