import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';

/**
 * PostgreSQL in this process, with the extension Reverie's migrations need (`btree_gin`, which a
 * server has in its contrib package). Data in memory unless a directory is given.
 */
export function inProcessDatabase(dataDir?: string): Promise<PGlite> {
  return PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: { btree_gin } });
}
