// pnpm bench:natural-questions — BM25 on questions the project did not write (SPEC M3, B12):
// LoCoMo's questions, with name variants, over BENCH_NQ_SIZE observations made from LoCoMo's
// conversations (default 100,000; see locomo-haystack.ts). In one process it prints, for the bare
// index as `FileMemoryStore` asks it (limit 8): p50 / p99 / max over BENCH_NQ_QUERIES questions
// (default 500) after 50 warm-ups, in BENCH_NQ_ROUNDS rounds (default 5; the median round's
// figures), the collection pauses that fell inside the timed queries, the postings the queries'
// terms hold, evidence recall at 5 and 10, a fingerprint of every hit and score (equal
// fingerprints: the same results), and, as the baseline of the same run, a linear-scan BM25.
// With BENCH_NQ_BEFORE=<checkout>, the same figures for that checkout's Bm25Index, its rounds
// alternating with this one's. The data is read at run time and never copied into the repository.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { Bm25Index } from '@reverie/core';
import { queryWords, tokenize } from '@reverie/core/internal';
import { reportFigure } from '../figures';
import { linearBm25 } from '../linear-bm25';
import { fmt, percentile } from '../measure';
import { evidenceRecall, locomoHaystack, locomoPath } from './locomo-haystack';

const size = Number(process.env.BENCH_NQ_SIZE ?? 100_000);
const queryCount = Number(process.env.BENCH_NQ_QUERIES ?? 500);
const rounds = Number(process.env.BENCH_NQ_ROUNDS ?? 5);
const WARM_UPS = 50;
const LIMIT = 8;
const LINEAR_QUERIES = 100;

interface SearchIndex {
  search(query: string, options: { limit: number }): Array<{ id: string; score: number }>;
}

const path = locomoPath();
if (!path) {
  console.log('bench:natural-questions skipped: no LoCoMo data (../shared/data/locomo-dev.json, or LOCOMO_PATH).');
  process.exit(0);
}
const { documents, questions } = locomoHaystack(path, size, queryCount + WARM_UPS);
const byId = new Map(documents.map((document) => [document.id, document]));
const timedQuestions = questions.slice(WARM_UPS);
console.log(
  `# bench:natural-questions — node ${process.version}, ${new Date().toISOString()}, load average ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
console.log(
  `${documents.length.toLocaleString('en')} observations (LoCoMo conversations 0–4 with name variants), ${timedQuestions.length} questions after ${WARM_UPS} warm-ups, limit ${LIMIT}`,
);

async function buildIndex(checkout: string | undefined): Promise<{ index: SearchIndex; buildMs: number }> {
  const Index = checkout
    ? ((await import(join(checkout, 'packages', 'core', 'src', 'index.ts'))) as { Bm25Index: typeof Bm25Index }).Bm25Index
    : Bm25Index;
  const start = performance.now();
  const index = new Index();
  for (const { id, text } of documents) index.set(id, text);
  // A first search merges the vocabulary and sizes the scratch buffers, as a store's first search does.
  index.search('warm up', { limit: LIMIT });
  return { index, buildMs: performance.now() - start };
}

/** Collection pauses observed while `run` runs, as [start, end] in performance.now() time. */
async function withPauses<T>(run: () => T): Promise<{ result: T; pauses: Array<[number, number]> }> {
  const pauses: Array<[number, number]> = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push([entry.startTime, entry.startTime + entry.duration]);
  });
  observer.observe({ entryTypes: ['gc'] });
  const result = run();
  // Entries are delivered asynchronously.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  return { result, pauses };
}

interface Round {
  times: number[];
  /** Of the slowest 1 %, how many overlapped a collection pause. */
  slowWithPause: number;
  pauseMs: number;
  fingerprint: string;
  recall5: number;
  recall10: number;
}

async function round(index: SearchIndex): Promise<Round> {
  for (const question of questions.slice(0, WARM_UPS)) index.search(question.text, { limit: LIMIT });
  const spans: Array<[number, number]> = [];
  const hash = createHash('sha256');
  let recall5 = 0;
  let recall10 = 0;
  const { pauses } = await withPauses(() => {
    for (const question of timedQuestions) {
      const start = performance.now();
      const hits = index.search(question.text, { limit: LIMIT });
      spans.push([start, performance.now()]);
      hash.update(hits.map((hit) => `${hit.id}:${hit.score}`).join(',') + ';');
      const ranked = hits.map((hit) => byId.get(hit.id)!);
      recall5 += evidenceRecall(question, ranked, 5);
      recall10 += evidenceRecall(question, ranked, 10);
    }
  });
  const times = spans.map(([start, end]) => end - start);
  const threshold = percentile(
    [...times].sort((a, b) => a - b),
    99,
  );
  const slow = spans.filter(([start, end]) => end - start >= threshold);
  const overlaps = ([start, end]: [number, number]) => pauses.some(([from, to]) => from < end && to > start);
  return {
    times,
    slowWithPause: slow.filter(overlaps).length,
    pauseMs: pauses.filter(([from]) => from >= spans[0]![0] && from <= spans.at(-1)![1]).reduce((sum, [from, to]) => sum + to - from, 0),
    fingerprint: hash.digest('hex').slice(0, 16),
    recall5: recall5 / timedQuestions.length,
    recall10: recall10 / timedQuestions.length,
  };
}

/** The postings each question's terms (words, stems, prefix expansions) hold in `index`: what a search without pruning reads. */
function postingsPerQuery(): number[] {
  const probe = new Bm25Index();
  for (const { id, text } of documents) probe.set(id, text);
  const internals = probe as unknown as {
    weigh(words: unknown, prefix: boolean): Map<string, number>;
    postings: Map<string, { df: number }>;
  };
  probe.search('warm up', { limit: 1 });
  return timedQuestions.map((question) => {
    let total = 0;
    for (const term of internals.weigh(queryWords(question.text), true).keys()) total += internals.postings.get(term)?.df ?? 0;
    return total;
  });
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const summary = (label: string, runs: Round[], buildMs: number) => {
  const p50s = runs.map((run) =>
    percentile(
      [...run.times].sort((a, b) => a - b),
      50,
    ),
  );
  const p99s = runs.map((run) =>
    percentile(
      [...run.times].sort((a, b) => a - b),
      99,
    ),
  );
  const maxes = runs.map((run) => Math.max(...run.times));
  const fingerprints = [...new Set(runs.map((run) => run.fingerprint))];
  console.log(`\n## ${label} (built in ${fmt(buildMs, 0)} ms)`);
  console.log(
    `  p50 / p99 / max, median of ${runs.length} rounds: ${fmt(median(p50s), 3)} / ${fmt(median(p99s), 3)} / ${fmt(median(maxes))} ms`,
  );
  console.log(`  p99 of each round: ${p99s.map((p) => fmt(p, 3)).join(', ')} ms`);
  console.log(
    `  collection pauses during the timed queries: ${runs.map((run) => fmt(run.pauseMs, 1)).join(', ')} ms; slowest 1 % overlapping one: ${runs.map((run) => run.slowWithPause).join(', ')} of ${Math.ceil(timedQuestions.length / 100)}`,
  );
  console.log(
    `  evidence recall@5 / @10: ${fmt(runs[0]!.recall5, 3)} / ${fmt(runs[0]!.recall10, 3)}; results fingerprint ${fingerprints.join(' ')}`,
  );
  return { p50: median(p50s), p99: median(p99s), fingerprint: fingerprints.join(' '), recall10: runs[0]!.recall10 };
};

const postings = postingsPerQuery().sort((a, b) => a - b);
console.log(
  `postings the questions' terms hold (words, stems, prefix expansions): p50 ${postings[Math.floor(postings.length / 2)]!.toLocaleString('en')}, p99 ${percentile(postings, 99).toLocaleString('en')}, max ${postings.at(-1)!.toLocaleString('en')}`,
);

const before = process.env.BENCH_NQ_BEFORE;
const current = await buildIndex(undefined);
const previous = before ? await buildIndex(before) : undefined;
const currentRuns: Round[] = [];
const previousRuns: Round[] = [];
for (let r = 0; r < rounds; r++) {
  currentRuns.push(await round(current.index));
  if (previous) previousRuns.push(await round(previous.index));
}
const now = summary('Bm25Index, this checkout', currentRuns, current.buildMs);
const then = previous ? summary(`Bm25Index of ${before}`, previousRuns, previous.buildMs) : undefined;

const linear = linearBm25(documents, { tokens: tokenize });
const linearTimes = timedQuestions.slice(0, LINEAR_QUERIES).map((question) => {
  const start = performance.now();
  linear.search(question.text, LIMIT);
  return performance.now() - start;
});
linearTimes.sort((a, b) => a - b);
console.log(
  `\n## linear-scan BM25 (every document scored, ${LINEAR_QUERIES} questions): p50 / p99 ${fmt(percentile(linearTimes, 50))} / ${fmt(percentile(linearTimes, 99))} ms`,
);
if (then)
  console.log(
    `\nthis checkout against ${before}: p99 ${fmt(then.p99 / now.p99)}× less; results ${then.fingerprint === now.fingerprint ? 'identical' : 'DIFFERENT'}`,
  );

reportFigure({
  id: `naturalQuestions.p99.${size}`,
  label: `BM25 p99 on natural questions (LoCoMo with name variants, ${size.toLocaleString('en')} observations)`,
  value: now.p99,
  unit: 'ms',
  baseline: then ? { label: `Bm25Index of ${before}`, value: then.p99 } : { label: 'linear-scan BM25', value: percentile(linearTimes, 99) },
  target: { atMost: 2 },
});
