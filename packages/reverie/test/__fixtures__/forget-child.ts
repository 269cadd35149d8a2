// Child process of the forget and import kill tests: one Reverie over a data directory, doing one
// thing and printing one JSON line with its result on stdout.
//
//   forget-child.ts forget <dataPath> <subject>   runs `reverie.memory.forget({ subject })`.
//   forget-child.ts erase <dataPath> <subject>    runs `reverie.memory.forget({ subject }, { mode: 'erase' })`.
//   forget-child.ts import <dataPath> <file>      runs `reverie.import(<file's text>)`.
//
// The fault-point environment variables (REVERIE_FAULT_KILL_AT, REVERIE_FAULT_TRACE) are read by
// the dream engine itself, which applies both as a run, and by the erasure.
import { readFileSync } from 'node:fs';
import { createReverie } from 'reverie';

const [mode, dataPath, arg] = process.argv.slice(2);
if ((mode !== 'forget' && mode !== 'erase' && mode !== 'import') || !dataPath || !arg) {
  console.error('usage: forget-child <forget|erase|import> <dataPath> <subject|file>');
  process.exit(2);
}
const reverie = createReverie({ dataPath, logger: 'silent' }).withMemory().build();
const result =
  mode === 'forget'
    ? await reverie.memory!.forget({ subject: arg })
    : mode === 'erase'
      ? await reverie.memory!.forget({ subject: arg }, { mode: 'erase' })
      : await reverie.import(readFileSync(arg, 'utf8'), { source: arg });
process.stdout.write(`${JSON.stringify(result)}\n`);
await reverie.close();
