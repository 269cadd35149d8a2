// One writer process of bench:postgres (postgres-bench.ts): opens the memory store of one scope —
// PostgreSQL (`postgres <url> <scope>`) or the file store (`file <dataPath>`) — prints "ready",
// waits for a line on stdin, then saves entries one after another for `seconds` and prints
// {"saves":n,"ms":elapsed}.
//
//   write-child.ts postgres <url> <scope> <seconds> <seed>
//   write-child.ts file <dataPath> - <seconds> <seed>
import { once } from 'node:events';
import type { ILongTermMemory } from '@reverie/core';
import { FileMemoryStore } from '@reverie/file-store';
import { PostgresMemoryStore, postgresClientFromConnectionString } from '@reverie/postgres';
import { syntheticContent } from '../synthetic-memory';

const [backend, target, scope, secondsText, seedText] = process.argv.slice(2);
if ((backend !== 'postgres' && backend !== 'file') || !target || !scope || !secondsText || !seedText) {
  console.error('usage: write-child <postgres <url> <scope> | file <dataPath> -> <seconds> <seed>');
  process.exit(2);
}

const client = backend === 'postgres' ? postgresClientFromConnectionString(target, { max: 1 }) : undefined;
const store: ILongTermMemory = client ? new PostgresMemoryStore({ client, scope }) : new FileMemoryStore({ dataPath: target });
// One read first, so the first timed save does not pay for connecting, migrating or loading the index.
await store.get('000000000000');
console.log('ready');
process.stdin.resume();
await once(process.stdin, 'data');

const seed = Number(seedText) * 1_000_003;
const deadline = performance.now() + Number(secondsText) * 1000;
const started = performance.now();
let saves = 0;
while (performance.now() < deadline) {
  await store.save({ content: syntheticContent(seed + saves), category: 'bench/writes' });
  saves += 1;
}
const ms = performance.now() - started;
await store.close();
await client?.close();
console.log(JSON.stringify({ saves, ms }));
process.exit(0);
