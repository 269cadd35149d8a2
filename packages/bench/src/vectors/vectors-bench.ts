// pnpm bench:vectors — hybrid search at the sizes real users run (SPEC M4, B12): BENCH_VECTORS_SIZE
// entries (default 100,000) at each of BENCH_VECTORS_DIMS dimensions (default 384 and 1,536), with a
// deterministic embedder whose vectors have neighbourhoods (topic-corpus.ts). For each, in one
// process and side by side:
//   - the first embedding: as the file store wrote it before (one file per vector, on a sample of
//     BENCH_VECTORS_BEFORE_SAMPLE entries, default 5,000) and now (the vector log), in vectors/s,
//     beside the embedder's own rate;
//   - the vector index's build (after the first embedding, in a worker thread), its file and the
//     RSS it adds once loaded;
//   - hybrid search p50 / p99 (BENCH_VECTORS_QUERIES queries, default 400, after 50 warm-ups, in
//     BENCH_VECTORS_ROUNDS rounds alternating, default 3; medians) through the index and with the
//     exact scan (its first BENCH_VECTORS_EXACT_QUERIES, default 100), over every entry and under
//     a category holding one entry in twenty;
//   - the vector side's recall@10 through the index against the exact scan;
//   - reopening: the vectors and the graph read back;
//   - PostgreSQL with pgvector's HNSW: PGlite with its vector extension (BENCH_VECTORS_PG_SIZE
//     entries, default 10,000: PGlite's first embedding is slow; 0 skips), and a real server
//     (REVERIE_BENCH_POSTGRES_URL, else a throwaway cluster from /usr/lib/postgresql) when it has
//     pgvector; said when skipped.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MemoryEntry, memoryDocumentText } from '@reverie/core';
import { FileMemoryStore } from '@reverie/file-store';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { vector } from '@electric-sql/pglite/vector';
import { postgresClientFromConnectionString, postgresClientFromPglite } from '@reverie/postgres';
import { findRealServer } from '../../../postgres/test/throwaway-cluster';
import { reportFigure } from '../figures';
import { fmt, percentile, rssMiB, timed } from '../measure';
import { perFileIngestion } from './per-file-baseline';
import { describePostgres, type PostgresVectorFigures, postgresVectors } from './postgres-vectors';
import { topicEmbedder, topicEntry, topicQuery } from './topic-corpus';

const numberOf = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number (got ${process.env[name]})`);
  return value;
};
const SIZE = numberOf('BENCH_VECTORS_SIZE', 100_000);
const DIMS = (process.env.BENCH_VECTORS_DIMS ?? '384,1536').split(',').map(Number);
const BEFORE_SAMPLE = Math.min(SIZE, numberOf('BENCH_VECTORS_BEFORE_SAMPLE', 5_000));
const QUERIES = numberOf('BENCH_VECTORS_QUERIES', 400);
const ROUNDS = numberOf('BENCH_VECTORS_ROUNDS', 3);
/** Queries per round for the exact scan, the baseline (each costs tens to hundreds of ms at 100,000). */
const EXACT_QUERIES = Math.min(QUERIES, numberOf('BENCH_VECTORS_EXACT_QUERIES', 100));
/** PGlite embeds and indexes about a hundred vectors a second here: 100,000 would take some twenty minutes per dimension. */
const PG_SIZE = Math.min(SIZE, numberOf('BENCH_VECTORS_PG_SIZE', 10_000));
const WARM_UPS = 50;
const FILTER = 'episodes/meetings';
const now = new Date('2026-11-01T00:00:00Z');
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const int = (value: number) => Math.round(value).toLocaleString('en');

/** The vector side of a store, for recall: the bench reads it directly (it is not public API). */
interface VectorSide {
  similar(query: ArrayLike<number>, accept: (id: string) => boolean, limit: number, options?: { exact?: boolean }): Array<{ id: string }>;
  indexedCount: number;
}
/** The embedder of each dimension, for the PostgreSQL runs after the file store's. */
const pgEmbedders = new Map<number, ReturnType<typeof topicEmbedder>>();
const vectorSide = (store: FileMemoryStore) => (store as unknown as { hybrid: { vectors: VectorSide } }).hybrid.vectors;

console.log(
  `# bench:vectors — node ${process.version}, ${new Date().toISOString()}, load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
console.log(
  `${int(SIZE)} entries at ${DIMS.join(' and ')} dimensions; ${QUERIES} queries (${EXACT_QUERIES} comparing every vector) after ${WARM_UPS} warm-ups, ${ROUNDS} rounds; the machine's 2 cores are shared, so read the ratios`,
);

const dataPath = mkdtempSync(join(tmpdir(), 'reverie-vectors-bench-'));
const entries: MemoryEntry[] = Array.from({ length: SIZE }, (_, i) => topicEntry(i, now));
const queries = Array.from({ length: QUERIES + WARM_UPS }, (_, i) => topicQuery(i));
try {
  for (const entry of entries) {
    const dir = join(dataPath, 'memory', ...entry.category.split('/'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${entry.id}.json`), JSON.stringify(entry));
  }
  // A first open without an embedder writes the snapshot, so the opens below read it.
  const plain = new FileMemoryStore({ dataPath });
  const [, openMs] = await timed(() => plain.search({ text: 'warm up' }));
  await plain.close();
  console.log(`entries written; a first open read them in ${fmt(openMs, 0)} ms`);

  for (const dims of DIMS) await benchDimensions(dims);
  await benchPostgres();
} finally {
  rmSync(dataPath, { recursive: true, force: true });
}

async function benchDimensions(dims: number): Promise<void> {
  rmSync(join(dataPath, 'memory', '.embeddings'), { recursive: true, force: true });
  const embedder = topicEmbedder(dims);
  console.log(`\n## ${int(SIZE)} entries, ${dims} dimensions (${embedder.modelId})`);
  // The embedder alone, computing every text once; after this it answers from its table (instant).
  const texts = entries.map((entry) => memoryDocumentText(entry));
  const [, embedMs] = await timed(async () => {
    for (let first = 0; first < texts.length; first += 16) await embedder.embed(texts.slice(first, first + 16));
  });
  const embedderRate = SIZE / (embedMs / 1000);

  const baselineDir = mkdtempSync(join(tmpdir(), 'reverie-vectors-baseline-'));
  const beforeRate = await perFileIngestion(entries.slice(0, BEFORE_SAMPLE), embedder, baselineDir);
  rmSync(baselineDir, { recursive: true, force: true });

  gc();
  const rssBefore = rssMiB();
  const indexed = new FileMemoryStore({ dataPath, embedder });
  // The open (from the snapshot) queues every entry for embedding as it ends; timed apart.
  const [, storeOpenMs] = await timed(() => indexed.search({ text: 'warm up' }));
  const [, ingestMs] = await timed(() => indexed.flushEmbeddings());
  const afterRate = SIZE / (ingestMs / 1000);
  gc();
  const rssVectors = rssMiB();
  const [, buildMs] = await timed(() => indexed.flushEmbeddings({ index: true }));
  const graphFile = readdirSync(join(dataPath, 'memory', '.embeddings')).find(
    (name) => name.startsWith('.ann-') && name.endsWith('.usearch'),
  );
  const graphPath = graphFile ? join(dataPath, 'memory', '.embeddings', graphFile) : undefined;
  const graphMiB = graphPath ? statSync(graphPath).size / 2 ** 20 : 0;
  const child = fileURLToPath(new URL('./graph-rss-child.ts', import.meta.url));
  const graphRss = graphPath
    ? (
        JSON.parse(
          execFileSync(process.execPath, [...process.execArgv, child, graphPath, String(dims)], { encoding: 'utf8' })
            .trim()
            .split('\n')
            .at(-1)!,
        ) as { rssMiB: number }
      ).rssMiB
    : 0;
  console.log(
    `first embedding: ${int(afterRate)} vectors/s with the vector log (${fmt(ingestMs / 1000, 1)} s after an open of ${fmt(storeOpenMs, 0)} ms) against ${int(beforeRate)} vectors/s one file per vector (${int(BEFORE_SAMPLE)} entries): ${fmt(afterRate / beforeRate, 1)}×; the embedder computing its vectors: ${int(embedderRate)} texts/s (both runs get them from its table, as from an instant local model)`,
  );
  console.log(
    `vector index: built in ${fmt(buildMs / 1000, 1)} s after the first embedding (a worker thread), ${vectorSide(indexed).indexedCount.toLocaleString('en')} vectors, graph file ${fmt(graphMiB, 0)} MiB, RSS it adds once loaded (and searched) in a process of its own ${fmt(graphRss, 0)} MiB; the bench's RSS ${fmt(rssBefore, 0)} MiB before the store, ${fmt(rssVectors, 0)} MiB with its entries and float32 vectors (${fmt((SIZE * dims * 4) / 2 ** 20, 0)} MiB of them)`,
  );

  const exact = new FileMemoryStore({ dataPath, embedder, vectorSearch: 'exact' });
  await exact.flushEmbeddings();
  const latencies = async (store: FileMemoryStore, count: number, category?: string) => {
    for (const text of queries.slice(0, WARM_UPS)) await store.search({ text, maxResults: 8, ...(category ? { category } : {}) });
    const times: number[] = [];
    for (const text of queries.slice(WARM_UPS, WARM_UPS + count))
      times.push((await timed(() => store.search({ text, maxResults: 8, ...(category ? { category } : {}) })))[1]);
    return times.sort((a, b) => a - b);
  };
  const rounds = { indexed: [] as number[][], exact: [] as number[][], indexedFiltered: [] as number[][], exactFiltered: [] as number[][] };
  for (let round = 0; round < ROUNDS; round++) {
    rounds.indexed.push(await latencies(indexed, QUERIES));
    rounds.exact.push(await latencies(exact, EXACT_QUERIES));
    rounds.indexedFiltered.push(await latencies(indexed, QUERIES, FILTER));
    rounds.exactFiltered.push(await latencies(exact, EXACT_QUERIES, FILTER));
  }
  const at = (runs: number[][], p: number) => median(runs.map((times) => percentile(times, p)));

  const side = vectorSide(indexed);
  let found = 0;
  const sideTimes = { indexed: [] as number[], exact: [] as number[] };
  for (const text of queries.slice(WARM_UPS)) {
    const [query] = await embedder.embed([text]);
    const approximate = side.similar(query!, () => true, 10).map((hit) => hit.id);
    const truth = new Set(side.similar(query!, () => true, 10, { exact: true }).map((hit) => hit.id));
    found += approximate.filter((id) => truth.has(id)).length;
    // The vector side alone, as a search of maxResults 8 asks it (32 candidates).
    let start = performance.now();
    side.similar(query!, () => true, 32);
    sideTimes.indexed.push(performance.now() - start);
    start = performance.now();
    side.similar(query!, () => true, 32, { exact: true });
    sideTimes.exact.push(performance.now() - start);
  }
  const recall = found / (QUERIES * 10);
  const sideIndexed = median(sideTimes.indexed);
  const sideExact = median(sideTimes.exact);

  console.log(`hybrid search p50 / p99 (median of ${ROUNDS} rounds), maxResults 8:`);
  console.log(
    `  through the index: ${fmt(at(rounds.indexed, 50))} / ${fmt(at(rounds.indexed, 99))} ms; comparing every vector: ${fmt(at(rounds.exact, 50))} / ${fmt(at(rounds.exact, 99))} ms (${fmt(at(rounds.exact, 99) / at(rounds.indexed, 99), 1)}× at p99)`,
  );
  console.log(
    `  under ${FILTER} (one entry in twenty): through the index ${fmt(at(rounds.indexedFiltered, 50))} / ${fmt(at(rounds.indexedFiltered, 99))} ms; comparing every vector ${fmt(at(rounds.exactFiltered, 50))} / ${fmt(at(rounds.exactFiltered, 99))} ms`,
  );
  console.log(`  p99 of each round through the index: ${rounds.indexed.map((times) => fmt(percentile(times, 99))).join(', ')} ms`);
  console.log(`vector side recall@10 through the index against comparing every vector: ${fmt(recall, 3)} (${QUERIES} queries)`);
  console.log(
    `vector side alone, p50: ${fmt(sideIndexed, 3)} ms through the index, ${fmt(sideExact, 3)} ms comparing every vector (${fmt((sideExact / SIZE) * 1e6, 0)} ns a vector): comparing every vector costs as much as the index's search at about ${int(sideIndexed / (sideExact / SIZE))} vectors (the index's search costs less on fewer)`,
  );

  await exact.close();
  await indexed.close();
  const reopened = new FileMemoryStore({ dataPath, embedder });
  const [, reopenMs] = await timed(() => reopened.flushEmbeddings({ index: true }));
  console.log(
    `reopened: entries, vectors (.matrix.bin) and graph read in ${fmt(reopenMs, 0)} ms, ${vectorSide(reopened).indexedCount.toLocaleString('en')} vectors indexed, nothing embedded again (${embedder.texts.toLocaleString('en')} texts embedded in all)`,
  );
  await reopened.close();

  const target = dims >= 1536 ? 10 : 5;
  reportFigure({
    id: `vectors.hybridP99.${dims}.${SIZE}`,
    label: `hybrid search p99, ${dims} dimensions (${int(SIZE)} entries)`,
    value: at(rounds.indexed, 99),
    unit: 'ms',
    baseline: { label: 'comparing every vector', value: at(rounds.exact, 99) },
    target: { atMost: target },
  });
  reportFigure({
    id: `vectors.recall10.${dims}.${SIZE}`,
    label: `vector side recall@10 through the index, ${dims} dimensions`,
    value: recall,
    unit: '',
    target: { atLeast: 0.95 },
  });
  reportFigure({
    id: `vectors.ingestion.${dims}.${SIZE}`,
    label: `first embedding, vectors/s, ${dims} dimensions`,
    value: afterRate,
    unit: 'vectors/s',
    baseline: { label: 'one file per vector', value: beforeRate },
    target: { atLeast: 10_000 },
  });
  reportFigure({
    id: `vectors.indexRss.${dims}.${SIZE}`,
    label: `RSS the loaded vector index adds, ${dims} dimensions`,
    value: graphRss,
    unit: 'MiB',
  });
  pgEmbedders.set(dims, embedder);
}

/** PostgreSQL at each dimension, on PGlite and a real server with pgvector. */
async function benchPostgres(): Promise<void> {
  console.log(`\n## PostgreSQL with pgvector's HNSW, ${int(PG_SIZE)} entries`);
  if (PG_SIZE === 0) {
    console.log('skipped (BENCH_VECTORS_PG_SIZE=0)');
    return;
  }
  const pgEntries = entries.slice(0, PG_SIZE);
  const server = await findRealServer('REVERIE_BENCH_POSTGRES_URL', { settings: { shared_buffers: '1GB' } });
  try {
    for (const [dims, embedder] of pgEmbedders) {
      const db = await PGlite.create({ extensions: { btree_gin, vector } });
      try {
        const figures = await postgresVectors(postgresClientFromPglite(db), pgEntries, embedder, queries, WARM_UPS);
        console.log(describePostgres(`PGlite, ${dims} dimensions`, figures));
        report('pglite', dims, figures);
      } catch (error) {
        console.log(`PGlite, ${dims} dimensions: failed: ${String(error).split('\n')[0]}`);
      } finally {
        await db.close();
      }
      if (!server.url) {
        console.log(`real server, ${dims} dimensions: skipped: ${server.reason}`);
        continue;
      }
      const client = postgresClientFromConnectionString(server.url);
      try {
        const [available] = await client.query<{ count: string }>(
          "SELECT count(*) AS count FROM pg_available_extensions WHERE name = 'vector'",
        );
        if (Number(available?.count ?? 0) === 0) {
          console.log(
            `real server, ${dims} dimensions: skipped: the server has no pgvector (Debian's PostgreSQL 15 package ships none; install it, or set REVERIE_BENCH_POSTGRES_URL to a server that has it)`,
          );
          continue;
        }
        await client.query('CREATE EXTENSION IF NOT EXISTS vector');
        await client.query('CREATE EXTENSION IF NOT EXISTS btree_gin');
        const figures = await postgresVectors(client, pgEntries, embedder, queries, WARM_UPS);
        console.log(describePostgres(`real server, ${dims} dimensions`, figures));
        report('server', dims, figures);
      } finally {
        await client.close();
      }
    }
  } finally {
    server.stop();
  }
}

function report(backend: string, dims: number, figures: PostgresVectorFigures): void {
  reportFigure({
    id: `vectors.postgres.${backend}.hybridP99.${dims}.${PG_SIZE}`,
    label: `hybrid search p99 on ${backend === 'pglite' ? 'PGlite' : 'PostgreSQL'} with pgvector HNSW, ${dims} dimensions (${int(PG_SIZE)} entries)`,
    value: figures.p99,
    unit: 'ms',
  });
  reportFigure({
    id: `vectors.postgres.${backend}.recall10.${dims}.${PG_SIZE}`,
    label: `HNSW recall@10 on ${backend === 'pglite' ? 'PGlite' : 'PostgreSQL'}, ${dims} dimensions`,
    value: figures.recallAt10,
    unit: '',
  });
}
