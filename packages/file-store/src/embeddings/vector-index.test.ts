import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RecordingLogger, silentLogger } from '@reverie/core';
import { wordSumEmbedder } from './__fixtures__/word-sum-embedder';
import { EmbeddingIndex } from './embedding-index';
import { loadUsearch } from './load-usearch';

// SPEC M4, B12: the vector index proposes candidates and every hit is scored from the store's
// own vectors, so with the index a search gives what comparing every vector gives (on small sets,
// where the graph finds them all), and never a document deleted or changed since.

const usearch = loadUsearch(silentLogger);
const WORDS = Array.from({ length: 120 }, (_, i) => `w${i.toString(36)}x`);

/** Document i's text: six words of 120, the same for the same i and round. */
function textOf(i: number, round = 0): string {
  let state = (i + 1) * 7919 + round * 104729;
  const words: string[] = [];
  for (let k = 0; k < 6; k++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    words.push(WORDS[state % WORDS.length]!);
  }
  return words.join(' ');
}

let dir: string;
const opened: EmbeddingIndex[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reverie-vector-index-'));
});
afterEach(async () => {
  for (const index of opened.splice(0)) await index.close();
  rmSync(dir, { recursive: true, force: true });
});

const embedder = wordSumEmbedder(24);
function open(documents: Map<string, string>, options: { withIndex?: boolean } = {}): EmbeddingIndex {
  const index = new EmbeddingIndex({
    dir,
    embedder,
    logger: silentLogger,
    exactSearchBelow: 0,
    ...(options.withIndex === false || !usearch ? {} : { usearch }),
  });
  opened.push(index);
  void index.loadCache(documents);
  return index;
}

async function queryVector(text: string): Promise<number[]> {
  const [vector] = await embedder.embed([text]);
  return vector!;
}

/** The index's answer and the full comparison's, for `count` queries. */
async function bothWays(index: EmbeddingIndex, count: number, accept: (id: string) => boolean = () => true, limit = 10) {
  const answers: Array<{ indexed: unknown; exact: unknown }> = [];
  for (let q = 0; q < count; q++) {
    const vector = await queryVector(
      textOf(10_000 + q)
        .split(' ')
        .slice(0, 3)
        .join(' '),
    );
    answers.push({ indexed: index.similar(vector, accept, limit), exact: index.similar(vector, accept, limit, { exact: true }) });
  }
  return answers;
}

describe.skipIf(!usearch)('EmbeddingIndex with a vector index (usearch)', () => {
  it('agrees with comparing every vector on a small set, with and without a narrow filter', async () => {
    const documents = new Map(Array.from({ length: 400 }, (_, i) => [`d${i}`, textOf(i)]));
    const index = open(documents);
    for (const [id, text] of documents) index.want(id, text);
    await index.settleIndex();
    expect(index.indexedCount).toBe(400);
    for (const { indexed, exact } of await bothWays(index, 40)) expect(indexed).toEqual(exact);
    // One document in twenty passes: the graph's candidates fall short and the search compares every vector.
    for (const { indexed, exact } of await bothWays(index, 20, (id) => id.endsWith('7'))) expect(indexed).toEqual(exact);
  });

  it('never proposes a deleted or changed document, at once and after a reopen', async () => {
    const documents = new Map(Array.from({ length: 300 }, (_, i) => [`d${i}`, textOf(i)]));
    const index = open(documents);
    for (const [id, text] of documents) index.want(id, text);
    await index.settleIndex();
    const deleted = new Set<string>();
    for (let i = 0; i < 300; i += 5) {
      await index.forget(`d${i}`);
      documents.delete(`d${i}`);
      deleted.add(`d${i}`);
    }
    for (let i = 1; i < 300; i += 5) {
      documents.set(`d${i}`, textOf(i, 1));
      index.want(`d${i}`, textOf(i, 1));
    }
    await index.flush();
    const check = async (current: EmbeddingIndex) => {
      for (const { indexed, exact } of await bothWays(current, 30, () => true, 20)) {
        expect(indexed).toEqual(exact);
        for (const hit of indexed as Array<{ id: string }>) expect(deleted.has(hit.id)).toBe(false);
      }
    };
    // Before the graph is brought up to date…
    await check(index);
    await index.close();
    opened.splice(opened.indexOf(index), 1);
    // …and reopened over the graph written at close, whose keys for them are stale.
    const reopened = open(documents);
    await reopened.flush();
    await check(reopened);
    await reopened.settleIndex();
    await check(reopened);
    expect(reopened.indexedCount).toBe(documents.size);
  });

  it('persists the graph beside the vectors and opens it again instead of building one', async () => {
    const documents = new Map(Array.from({ length: 200 }, (_, i) => [`d${i}`, textOf(i)]));
    const index = open(documents);
    for (const [id, text] of documents) index.want(id, text);
    await index.settleIndex();
    await index.close();
    opened.splice(0);
    const graphs = () => readdirSync(dir).filter((name) => name.startsWith('.ann-') && name.endsWith('.usearch'));
    expect(existsSync(join(dir, '.ann.bin'))).toBe(true);
    const [graph] = graphs();
    expect(graphs()).toEqual([graph]);
    const reopened = open(documents);
    await reopened.settleIndex();
    expect(reopened.indexedCount).toBe(200);
    await reopened.close();
    opened.splice(0);
    // Nothing changed: the same graph file, not a new build.
    expect(graphs()).toEqual([graph]);
  });

  it('compares every vector below exactSearchBelow, and builds no graph', async () => {
    const documents = new Map(Array.from({ length: 50 }, (_, i) => [`d${i}`, textOf(i)]));
    const index = new EmbeddingIndex({ dir, embedder, logger: silentLogger, usearch: usearch!, exactSearchBelow: 100 });
    opened.push(index);
    void index.loadCache(documents);
    for (const [id, text] of documents) index.want(id, text);
    await index.settleIndex();
    expect(index.indexedCount).toBe(0);
    expect(readdirSync(dir).filter((name) => name.startsWith('.ann'))).toEqual([]);
  });
});

describe('EmbeddingIndex without usearch', () => {
  it('says once why the index is off, and every search compares every vector', async () => {
    const logger = new RecordingLogger();
    const failing = () => {
      throw new Error('Cannot find module usearch');
    };
    expect(loadUsearch(logger, failing)).toBeUndefined();
    expect(logger.records.filter((record) => record.level === 'warn' && /vector index/.test(record.message))).toHaveLength(1);
    const documents = new Map(Array.from({ length: 100 }, (_, i) => [`d${i}`, textOf(i)]));
    const index = open(documents, { withIndex: false });
    for (const [id, text] of documents) index.want(id, text);
    await index.settleIndex();
    expect(index.indexedCount).toBe(0);
    for (const { indexed, exact } of await bothWays(index, 10)) expect(indexed).toEqual(exact);
  });
});
