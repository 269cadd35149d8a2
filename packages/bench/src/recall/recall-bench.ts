/**
 * pnpm bench:recall — recall on the labelled recall set (issue 20, `__fixtures__/recall-set.json`):
 * evidence recall of the top 5 and top 10, overall and per kind of question, side by side for
 *
 * - the previous ranking: `Bm25Index` as it ranked before stemming (`analysis: 'exact'`), queried
 *   as `FileMemoryStore` queries it;
 * - BM25 alone: a `FileMemoryStore` without an embedder;
 * - hybrid: a `FileMemoryStore` with the test embedder of `@reverie/core/testing` (terms hashed to
 *   dimensions; no model), so the vector side knows words, not meanings.
 *
 * Then the search latency of both stores at the set's size.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bm25Index, type IEmbedder, memoryDocumentText } from '@reverie/core';
import { createFakeEmbedder } from '@reverie/core/testing';
import { FileMemoryStore } from '@reverie/file-store';
import { reportFigure } from '../figures';
import { fmt, percentile, timed } from '../measure';
import { loadRecallSet, QUESTION_KINDS, recallAt, type RecallQuestion } from './recall-set';

const DEPTH = 10;
/** Rounds of every question for the latency figures. */
const LATENCY_ROUNDS = 20;

type Ranker = (text: string) => Promise<string[]>;

const set = loadRecallSet();

interface OpenStore {
  store: FileMemoryStore;
  dataPath: string;
  /** The set's id of each entry the store holds (stores make their own ids). */
  setIdOf: Map<string, string>;
}

async function openStore(embedder?: IEmbedder): Promise<OpenStore> {
  const dataPath = mkdtempSync(join(tmpdir(), 'reverie-recall-'));
  const store = new FileMemoryStore({ dataPath, ...(embedder ? { embedder } : {}) });
  const setIdOf = new Map<string, string>();
  for (const memory of set.memories) {
    const entry = await store.save({ content: memory.content, category: memory.category, tags: memory.tags });
    setIdOf.set(entry.id, memory.id);
  }
  await store.flushEmbeddings();
  return { store, dataPath, setIdOf };
}

const storeRanker =
  ({ store, setIdOf }: OpenStore): Ranker =>
  async (text) =>
    (await store.search({ text, maxResults: DEPTH })).map((result) => setIdOf.get(result.entry.id)!);

function previousRanker(): Ranker {
  const index = new Bm25Index({ analysis: 'exact' });
  for (const memory of set.memories) index.set(memory.id, memoryDocumentText(memory));
  return async (text) => index.search(text, { limit: DEPTH }).map((hit) => hit.id);
}

interface Scores {
  at5: number;
  at10: number;
}

async function score(ranker: Ranker, questions: readonly RecallQuestion[]): Promise<Map<string, Scores>> {
  const byQuestion = new Map<string, Scores>();
  for (const question of questions) {
    const ranked = await ranker(question.text);
    byQuestion.set(question.id, { at5: recallAt(5, ranked, question.expected), at10: recallAt(10, ranked, question.expected) });
  }
  return byQuestion;
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / (values.length || 1);

function summarise(scores: Map<string, Scores>, questions: readonly RecallQuestion[]): Scores {
  const picked = questions.map((question) => scores.get(question.id)!);
  return { at5: mean(picked.map((s) => s.at5)), at10: mean(picked.map((s) => s.at10)) };
}

async function latencies(ranker: Ranker): Promise<number[]> {
  const times: number[] = [];
  for (let round = 0; round < LATENCY_ROUNDS; round++) {
    for (const question of set.questions) times.push((await timed(() => ranker(question.text)))[1]);
  }
  return times.sort((a, b) => a - b);
}

const plain = await openStore();
const hybrid = await openStore(createFakeEmbedder());
try {
  const rankers = { previous: previousRanker(), bm25: storeRanker(plain), hybrid: storeRanker(hybrid) };
  const results = {
    previous: await score(rankers.previous, set.questions),
    bm25: await score(rankers.bm25, set.questions),
    hybrid: await score(rankers.hybrid, set.questions),
  };

  console.log(`Recall on the labelled set: ${set.memories.length} memories, ${set.questions.length} questions`);
  console.log('evidence recall of the top 5 / top 10; ratio = recall@10 against the previous ranking\n');
  console.log('| kind | questions | previous @5 | @10 | BM25 @5 | @10 | ratio | hybrid @5 | @10 | ratio |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const groups: Array<[string, RecallQuestion[]]> = [
    ['all', set.questions],
    ...QUESTION_KINDS.map((kind): [string, RecallQuestion[]] => [kind, set.questions.filter((question) => question.kind === kind)]),
  ];
  for (const [name, questions] of groups) {
    const previous = summarise(results.previous, questions);
    const bm25 = summarise(results.bm25, questions);
    const mixed = summarise(results.hybrid, questions);
    const ratio = (value: number) => (previous.at10 > 0 ? `${fmt(value / previous.at10)}×` : '–');
    console.log(
      `| ${name} | ${questions.length} | ${fmt(previous.at5, 3)} | ${fmt(previous.at10, 3)} | ${fmt(bm25.at5, 3)} | ${fmt(bm25.at10, 3)} | ${ratio(bm25.at10)} | ${fmt(mixed.at5, 3)} | ${fmt(mixed.at10, 3)} | ${ratio(mixed.at10)} |`,
    );
  }

  const overall = { previous: summarise(results.previous, set.questions), bm25: summarise(results.bm25, set.questions), hybrid: summarise(results.hybrid, set.questions) };
  reportFigure({
    id: 'recall.bm25.at10',
    label: `BM25 recall@10 on the recall set (${set.questions.length} questions)`,
    value: overall.bm25.at10,
    unit: '',
    baseline: { label: 'the previous ranking', value: overall.previous.at10 },
    target: { atLeast: 1.1 * overall.previous.at10 },
  });
  reportFigure({
    id: 'recall.hybrid.at10',
    label: `hybrid recall@10 with the test embedder (${set.questions.length} questions)`,
    value: overall.hybrid.at10,
    unit: '',
    baseline: { label: 'the previous ranking', value: overall.previous.at10 },
  });

  console.log(`\nSearch latency at ${set.memories.length} memories (${LATENCY_ROUNDS} rounds of every question)`);
  for (const [name, ranker] of [
    ['previous ranking (bare index)', rankers.previous],
    ['FileMemoryStore, BM25', rankers.bm25],
    ['FileMemoryStore, hybrid', rankers.hybrid],
  ] as const) {
    const times = await latencies(ranker);
    console.log(`  ${name}: p50 ${fmt(percentile(times, 50), 3)} ms, p99 ${fmt(percentile(times, 99), 3)} ms`);
  }
} finally {
  await plain.store.close();
  await hybrid.store.close();
  rmSync(plain.dataPath, { recursive: true, force: true });
  rmSync(hybrid.dataPath, { recursive: true, force: true });
}
