// pnpm bench:store — figures for the file-backed memory store (issue: file stores).
// For each size: cold open + first search, search p50/p99 over 1000 queries, save throughput,
// RSS. Entries are written to disk directly (as an existing data directory would hold them),
// then opened through FileMemoryStore exactly as an agent would.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import MiniSearch from 'minisearch';
import { Bm25Index, memoryDocumentText } from '@reverie/core';
import { normaliseTerm, tokenize } from '@reverie/core/internal';
import { FileMemoryStore } from '@reverie/file-store';
import { reportFigure } from './figures';
import { linearBm25 } from './linear-bm25';
import { fmt, percentile, rssMiB, timed } from './measure';
import { writeMemoryFixture } from './memory-fixture';
import { syntheticEntry, syntheticQuery } from './synthetic-memory';

const sizes = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const QUERIES = 1000;
const SAVES = 1000;
const now = new Date('2026-11-01T00:00:00Z');
/** Cold opens per mode (fresh processes, alternating); the best of each is printed. */
const ROUNDS = 2;

interface ColdOpen {
  openMs: number;
  firstResults: number;
  refused?: string;
  first: { p50: number; max: number };
  warm: { p50: number; p99: number; avgResults: number };
  closeMs: number;
  rssAfterOpen: number;
}

/** A cold open in a fresh process (see store-open-child.ts); `scan` deletes the snapshot first. */
function coldOpen(dataPath: string, mode: 'scan' | 'snapshot'): ColdOpen {
  if (mode === 'scan') rmSync(join(dataPath, 'memory', '.snapshot.bin'), { force: true });
  const child = fileURLToPath(new URL('./store-open-child.ts', import.meta.url));
  const out = execFileSync(process.execPath, [...process.execArgv, child, dataPath], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').at(-1)!) as ColdOpen;
}

const best = (runs: ColdOpen[]) => runs.reduce((a, b) => (b.openMs < a.openMs ? b : a));

async function benchSize(size: number): Promise<void> {
  const dataPath = mkdtempSync(join(tmpdir(), `reverie-bench-${size}-`));
  try {
    const bytes = writeMemoryFixture(dataPath, size, now);
    // Cold opens: the full directory scan (the baseline, snapshot deleted) against the snapshot
    // the scan's process left behind, each in a fresh process.
    const scans: ColdOpen[] = [];
    const snaps: ColdOpen[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      scans.push(coldOpen(dataPath, 'scan'));
      snaps.push(coldOpen(dataPath, 'snapshot'));
    }
    const scan = best(scans);
    const snap = best(snaps);

    const rssBefore = rssMiB();
    const store = new FileMemoryStore({ dataPath });
    const [first, coldMs] = await timed(() => store.search({ text: syntheticQuery(0) }));
    const rssAfterOpen = rssMiB();

    const latencies: number[] = [];
    let hits = 0;
    for (let q = 1; q <= QUERIES; q++) {
      const [results, ms] = await timed(() => store.search({ text: syntheticQuery(q) }));
      latencies.push(ms);
      hits += results.length;
    }
    latencies.sort((a, b) => a - b);

    const [, saveMs] = await timed(async () => {
      for (let i = 0; i < SAVES; i++)
        await store.save({ content: `bench save ${i}: the user asked about the quarterly budget again`, category: 'bench/saves' });
    });
    const [, parallelMs] = await timed(() =>
      Promise.all(
        Array.from({ length: SAVES }, (_, i) =>
          store.save({ content: `parallel bench save ${i} about terraform modules`, category: 'bench/parallel' }),
        ),
      ),
    );
    const [, filteredMs] = await timed(async () => {
      for (let q = 0; q < 200; q++) await store.search({ text: syntheticQuery(q), category: 'project-context' });
    });
    await store.close();

    // Where the time goes: the same queries against the bare index, and against minisearch
    // configured the same way (OR, prefixes from 4 characters, the same term processing).
    const documents = Array.from({ length: size }, (_, i) => {
      const entry = syntheticEntry(i, now);
      return { id: entry.id, text: memoryDocumentText(entry) };
    });
    const bare = new Bm25Index();
    const [, bareBuildMs] = await timed(async () => bare.setAll(documents));
    const bareLatencies = queryLatencies((query) => bare.search(query, { limit: 8 }));
    const heaviest = heaviestQueryMedians(bare);
    const mini = new MiniSearch<{ id: string; text: string }>({
      fields: ['text'],
      processTerm: normaliseTerm,
      searchOptions: { combineWith: 'OR', prefix: (term) => term.length >= 4 },
    });
    const [, miniBuildMs] = await timed(async () => mini.addAll(documents));
    const miniLatencies = queryLatencies((query) => mini.search(query).slice(0, 8));
    // The issue's baselines: minisearch as it comes (its default options), and BM25 computed by
    // scanning every document for every query (no inverted index), over fewer queries.
    const miniDefault = new MiniSearch<{ id: string; text: string }>({ fields: ['text'] });
    miniDefault.addAll(documents);
    const miniDefaultLatencies = queryLatencies((query) => miniDefault.search(query).slice(0, 8));
    const linear = linearBm25(documents, { tokens: tokenize });
    const linearLatencies = queryLatencies((query) => linear.search(query, 8), LINEAR_QUERIES);

    console.log(`\n## ${size.toLocaleString('en')} entries (${fmt(bytes / 1024 / 1024, 1)} MiB of JSON)`);
    const line = (label: string, run: ColdOpen) =>
      console.log(
        `${label}: open + first search ${fmt(run.openMs, 0)} ms (${run.firstResults} results); first 20 queries p50 ${fmt(run.first.p50)} ms, max ${fmt(run.first.max)} ms; ` +
          `after 20 warm-ups p50 / p99 ${fmt(run.warm.p50)} / ${fmt(run.warm.p99)} ms over ${QUERIES}; RSS after open ${fmt(run.rssAfterOpen, 0)} MiB; close ${fmt(run.closeMs, 0)} ms`,
      );
    console.log(
      `cold open, fresh process (best of ${ROUNDS}; scans ${scans.map((r) => fmt(r.openMs, 0)).join(', ')} ms, snapshot opens ${snaps.map((r) => fmt(r.openMs, 0)).join(', ')} ms):`,
    );
    line('  scan (baseline)', scan);
    line(`  snapshot${snap.refused ? ` (REFUSED: ${snap.refused})` : ''}`, snap);
    console.log(
      `  snapshot / scan: open ${fmt(snap.openMs / scan.openMs)}×, first-20 max ${fmt(snap.first.max / scan.first.max)}×, warm p99 ${fmt(snap.warm.p99 / scan.warm.p99)}×`,
    );
    console.log(`in this process (opened from the snapshot): open + first search ${fmt(coldMs, 0)} ms (${first.length} results)`);
    console.log(
      `search p50 / p99 over ${QUERIES} queries: ${fmt(percentile(latencies, 50))} ms / ${fmt(percentile(latencies, 99))} ms (avg ${fmt(hits / QUERIES, 1)} results)`,
    );
    console.log(
      `  bare Bm25Index: build ${fmt(bareBuildMs, 0)} ms, p50 / p99 ${fmt(percentile(bareLatencies, 50))} ms / ${fmt(percentile(bareLatencies, 99))} ms`,
    );
    console.log(
      `  bare Bm25Index, the ${HEAVIEST} queries matching the most entries, ${REPEATS} runs each: median ${fmt(percentile(heaviest, 50))} ms, slowest median ${fmt(heaviest.at(-1)!)} ms`,
    );
    console.log(
      `  minisearch, same queries: build ${fmt(miniBuildMs, 0)} ms, p50 / p99 ${fmt(percentile(miniLatencies, 50))} ms / ${fmt(percentile(miniLatencies, 99))} ms`,
    );
    console.log(
      `  minisearch with its defaults: p50 / p99 ${fmt(percentile(miniDefaultLatencies, 50))} ms / ${fmt(percentile(miniDefaultLatencies, 99))} ms`,
    );
    console.log(
      `  linear-scan BM25 (every document scored, ${LINEAR_QUERIES} queries): p50 / p99 ${fmt(percentile(linearLatencies, 50))} ms / ${fmt(percentile(linearLatencies, 99))} ms`,
    );
    console.log(`search with a category filter: ${fmt(filteredMs / 200)} ms avg`);
    console.log(
      `save throughput: ${fmt(SAVES / (saveMs / 1000), 0)} saves/s sequential, ${fmt(SAVES / (parallelMs / 1000), 0)} saves/s with ${SAVES} in flight`,
    );
    console.log(`RSS: ${fmt(rssBefore, 0)} MiB before open, ${fmt(rssAfterOpen, 0)} MiB after open, ${fmt(rssMiB(), 0)} MiB at the end`);
    const at = size.toLocaleString('en');
    const big = size === 100_000;
    reportFigure({
      id: `store.coldOpen.${size}`,
      label: `cold open + first search (${at} entries, fresh process)`,
      value: snap.openMs,
      unit: 'ms',
      baseline: { label: 'the full directory scan', value: scan.openMs },
      ...(big ? { target: { atMost: 800 } } : {}),
    });
    reportFigure({
      id: `store.searchP99.${size}`,
      label: `search p99 after 20 warm-up queries (${at} entries)`,
      value: snap.warm.p99,
      unit: 'ms',
      baseline: { label: 'linear-scan BM25', value: percentile(linearLatencies, 99) },
      ...(big ? { target: { atMost: 1.5 } } : {}),
    });
    reportFigure({
      id: `store.searchP99vsMinisearch.${size}`,
      label: `search p99 after 20 warm-up queries (${at} entries), against minisearch`,
      value: snap.warm.p99,
      unit: 'ms',
      baseline: { label: 'minisearch with its defaults', value: percentile(miniDefaultLatencies, 99) },
    });
    reportFigure({
      id: `store.firstQueries.${size}`,
      label: `slowest of the first 20 queries after open (${at} entries)`,
      value: snap.first.max,
      unit: 'ms',
      baseline: { label: 'the same after a full scan', value: scan.first.max },
      ...(big ? { target: { atMost: 5 } } : {}),
    });
  } finally {
    rmSync(dataPath, { recursive: true, force: true });
  }
}

/** Queries run against the linear-scan baseline (each one scores every document). */
const LINEAR_QUERIES = 100;

/** Of the bench's queries, how many of the heaviest are timed, and how often each. */
const HEAVIEST = 10;
const REPEATS = 20;

/**
 * The median time of each of the queries matching the most entries, each run `REPEATS` times
 * in a row (sorted): a figure that a busy machine moves far less than a p99 over 1000 queries.
 */
function heaviestQueryMedians(index: Bm25Index): number[] {
  const queries = Array.from({ length: QUERIES }, (_, i) => syntheticQuery(i + 1));
  const heaviest = queries
    .map((query) => ({ query, matches: index.search(query).length }))
    .sort((a, b) => b.matches - a.matches)
    .slice(0, HEAVIEST);
  return heaviest
    .map(({ query }) => {
      const times: number[] = [];
      for (let run = 0; run < REPEATS; run++) {
        const start = performance.now();
        index.search(query, { limit: 8 });
        times.push(performance.now() - start);
      }
      return percentile(
        times.sort((a, b) => a - b),
        50,
      );
    })
    .sort((a, b) => a - b);
}

function queryLatencies(run: (query: string) => unknown, count = QUERIES): number[] {
  const latencies: number[] = [];
  for (let q = 1; q <= count; q++) {
    const start = performance.now();
    run(syntheticQuery(q));
    latencies.push(performance.now() - start);
  }
  return latencies.sort((a, b) => a - b);
}

console.log(`# bench:store — node ${process.version}, ${new Date().toISOString()}`);
for (const size of sizes) await benchSize(size);
