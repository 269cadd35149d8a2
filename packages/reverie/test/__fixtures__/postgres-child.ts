// Child process of the PostgreSQL process tests: one Reverie over a shared database, doing one
// thing and printing one JSON line per result on stdout.
//
//   postgres-child.ts dream <backend> <scope> <dataPath>       one dream cycle; the scripted model
//                                                               merges near-duplicates by their "topic-N" mark.
//   postgres-child.ts cycles <backend> <scope> <dataPath> <n>  n rounds of: save a note, run a cycle
//                                                               (LOCK_HELD counted, not fatal); prints each.
//
// <backend> is a postgres:// URL or pglite:<directory>. The fault-point environment variables
// (REVERIE_FAULT_KILL_AT, REVERIE_FAULT_TRACE) are read by the engine itself.
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { vector } from '@electric-sql/pglite/vector';
import { isReverieError } from '@reverie/core';
import { createReverie } from 'reverie';
import { dreamModel } from './dream-model';

const [mode, backend, scope, dataPath, arg] = process.argv.slice(2);
if (!mode || !backend || !scope || !dataPath) {
  console.error('usage: postgres-child <dream|cycles> <backend> <scope> <dataPath> [n]');
  process.exit(2);
}
const out = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

const pglite = backend.startsWith('pglite:')
  ? await PGlite.create({ dataDir: backend.slice('pglite:'.length), extensions: { btree_gin, vector } })
  : undefined;
const reverie = createReverie({ dataPath, scope, model: dreamModel({ delayMs: mode === 'cycles' ? 20 : 0 }) })
  .withPostgres(pglite ? { pglite } : { connectionString: backend })
  .withMemory()
  .withDreaming({ importanceDecay: { write: true } })
  .build();
out({ started: true });
if (mode === 'dream') {
  out({ report: await reverie.dreams.run({ trigger: 'test' }) });
} else if (mode === 'cycles') {
  for (let round = 0; round < Number(arg ?? 1); round++) {
    const note = await reverie.memory!.save({ content: `Round ${round} note of process ${process.pid} in ${scope}`, category: 'notes' });
    out({ saved: note.id });
    try {
      const report = await reverie.dreams.run({ trigger: 'test' });
      out({ cycle: 'ran', runId: report.runId });
    } catch (error) {
      if (!isReverieError(error, 'LOCK_HELD')) throw error;
      out({ cycle: 'held' });
    }
  }
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}
await reverie.close();
await pglite?.close();
