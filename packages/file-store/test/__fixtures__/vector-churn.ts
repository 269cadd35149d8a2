// Child process for the vector index's kill test (SPEC M4, B12): a memory store with an
// embedder and a vector index from the first vector on, churned round after round — entries
// saved, deleted and changed, the index brought up to date (built in a worker, written beside the
// vectors), the store closed and reopened every other round (the index written at close, opened
// again) — printing "round <n>" after each, until the parent kills it.
import { FileMemoryStore } from '../../src/memory/file-memory-store';
import { wordSumEmbedder } from '../../src/embeddings/__fixtures__/word-sum-embedder';

const [dataPath, seedArg] = process.argv.slice(2);
if (!dataPath) {
  console.error('usage: vector-churn <dataPath> [seed]');
  process.exit(2);
}
const WORDS = ['harbour', 'lantern', 'orchard', 'violin', 'glacier', 'pepper', 'canyon', 'saddle', 'meadow', 'ember', 'quartz', 'falcon'];
let state = Number(seedArg ?? '1') >>> 0;
const random = () => {
  state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
  return state / 2 ** 32;
};
const text = (n: number) =>
  `${WORDS[Math.floor(random() * WORDS.length)]} ${WORDS[Math.floor(random() * WORDS.length)]} ${WORDS[Math.floor(random() * WORDS.length)]} note${n}x`;
const open = () => new FileMemoryStore({ dataPath, embedder: wordSumEmbedder(16), exactSearchBelow: 0 });

let memory = open();
const live: string[] = [];
for (let round = 0; ; round++) {
  for (let i = 0; i < 30; i++) live.push((await memory.save({ content: text(round * 100 + i) })).id);
  for (let i = 0; i < 6; i++) await memory.delete(live.splice(Math.floor(random() * live.length), 1)[0]!);
  for (let i = 0; i < 6; i++) await memory.save({ id: live[Math.floor(random() * live.length)]!, content: text(round * 100 + 50 + i) });
  await memory.flushEmbeddings({ index: true });
  if (round % 2 === 1) {
    await memory.close();
    memory = open();
  }
  process.stdout.write(`round ${round}\n`);
}
