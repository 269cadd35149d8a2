// Child process of the forget and import kill tests: one Reverie over a data directory, doing one
// thing and printing one JSON line with its result on stdout.
//
//   forget-child.ts forget <dataPath> <subject>   runs `reverie.memory.forget({ subject })`.
//   forget-child.ts erase <dataPath> <subject>    runs `reverie.memory.forget({ subject }, { mode: 'erase' })`.
//   forget-child.ts import <dataPath> <file>      runs `reverie.import(<file's text>)`.
//
// A fourth argument `pglite:<directory>` keeps the memory and the dream state in that PGlite
// database instead of the data directory's files.
//
// The fault-point environment variables (REVERIE_FAULT_KILL_AT, REVERIE_FAULT_TRACE) are read by
// the dream engine itself, which applies both as a run, and by the erasure.
import { readFileSync } from 'node:fs';
import { createReverie } from 'reverie';

const [mode, dataPath, arg, backend] = process.argv.slice(2);
if ((mode !== 'forget' && mode !== 'erase' && mode !== 'import') || !dataPath || !arg) {
  console.error('usage: forget-child <forget|erase|import> <dataPath> <subject|file>');
  process.exit(2);
}
const pglite = backend?.startsWith('pglite:') ? await openPglite(backend.slice('pglite:'.length)) : undefined;
const builder = createReverie({ dataPath, logger: 'silent' });
const reverie = (pglite ? builder.withPostgres({ pglite }) : builder).withMemory().build();
const result =
  mode === 'forget'
    ? await reverie.memory!.forget({ subject: arg })
    : mode === 'erase'
      ? await reverie.memory!.forget({ subject: arg }, { mode: 'erase' })
      : await reverie.import(readFileSync(arg, 'utf8'), { source: arg });
process.stdout.write(`${JSON.stringify(result)}\n`);
await reverie.close();
await pglite?.close();

/** A PGlite database in `dataDir`, loaded only when asked for. */
async function openPglite(dataDir: string) {
  const [{ PGlite }, { btree_gin }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/btree_gin')]);
  return PGlite.create({ dataDir, extensions: { btree_gin } });
}
