// Child process for the snapshot crash test: opens a memory store (from its snapshot, if any),
// saves one entry so the snapshot is behind, prints "saved <id>" and "closing", then closes,
// which rewrites the snapshot. The parent kills it somewhere in that write.
import { FileMemoryStore } from '../../src/memory/file-memory-store';

const [dataPath] = process.argv.slice(2);
if (!dataPath) {
  console.error('usage: snapshot-close <dataPath>');
  process.exit(2);
}
const memory = new FileMemoryStore({ dataPath });
const entry = await memory.save({ content: 'Saved by the child just before it closed: the zeppelin hangar', category: 'child' });
process.stdout.write(`saved ${entry.id}\n`);
process.stdout.write('closing\n');
await memory.close();
process.stdout.write('done\n');
