// Child process for the process-level tests: saves `count` entries into a data directory and
// prints "saved <id>" after each save has returned, so the parent knows what must survive.
import { FileMemoryStore } from '../../src/memory/file-memory-store';

const [dataPath, countArg, label, concurrencyArg] = process.argv.slice(2);
if (!dataPath || !countArg || !label) {
  console.error('usage: save-burst <dataPath> <count> <label> [concurrency]');
  process.exit(2);
}
const name: string = label;
const count = Number(countArg);
const concurrency = Number(concurrencyArg ?? '1');
const memory = new FileMemoryStore({ dataPath });
let next = 0;

async function worker(): Promise<void> {
  while (next < count) {
    const i = next++;
    const entry = await memory.save({
      content: `${name} observation ${i}: the build server ${name}-${i} restarted after a kernel update`,
      category: `burst/${name}/${i % 7}`,
      tags: [name],
    });
    process.stdout.write(`saved ${entry.id}\n`);
  }
}

await Promise.all(Array.from({ length: concurrency }, worker));
await memory.close();
process.stdout.write('done\n');
