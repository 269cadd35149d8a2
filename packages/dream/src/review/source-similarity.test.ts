import { Bm25Index } from '@reverie/core';
import { describe, expect, it } from 'vitest';
import { indexLookup } from './neighbour-lookup';
import { shareTerms, SourceSimilarity } from './source-similarity';

const TEXTS: Record<string, string> = {
  a: 'The user prefers dark mode in every editor',
  b: 'User likes a dark theme in the editor',
  c: 'Prefers the dark colour scheme for editors',
  d: 'Deploys to production happen on Tuesdays and Thursdays',
  e: 'The cat is called Miso and is three years old',
  f: 'Weekly status report goes out every Friday',
  g: 'Invoices are paid by bank transfer within 30 days',
};

function similarity(vectors?: Map<string, number[]>): SourceSimilarity {
  const index = new Bm25Index();
  index.setAll(Object.entries(TEXTS).map(([id, text]) => ({ id, text })));
  return new SourceSimilarity(
    indexLookup(index, (id) => TEXTS[id]),
    (id) => TEXTS[id],
    { neighbours: 5, minNeighbourScore: 0.2, minCosine: 0.5 },
    vectors,
  );
}

describe('SourceSimilarity (SPEC B11: merges join only entries the host finds similar)', () => {
  it('connects paraphrases of one fact, directly or through each other', () => {
    expect(similarity().unconnected(['a', 'b', 'c'])).toEqual([]);
  });

  it('names the sources that have nothing to do with the rest', () => {
    expect(similarity().unconnected(['a', 'b', 'e', 'd'])).toEqual(['e', 'd']);
    expect(similarity().similar('e', 'g')).toBe(false);
  });

  it('accepts a pair the embeddings find close even when the words differ', () => {
    const vectors = new Map([
      ['f', [1, 0.1]],
      ['g', [0.9, 0.2]],
    ]);
    expect(similarity(vectors).similar('f', 'g')).toBe(true);
    expect(similarity().similar('f', 'g')).toBe(false);
  });

  it('connects paraphrases that share only stems, and entries filed in the same specific category', () => {
    const texts: Record<string, string> = {
      run: 'user runs in the mornings',
      running: 'User goes running every morning before work',
      veg: 'user is vegetarian',
      meat: 'user does not eat meat',
      cat: 'The cat is called Miso',
    };
    const categories: Record<string, string> = {
      run: 'general',
      running: 'general',
      veg: 'user-preferences/diet',
      meat: 'user-preferences/diet',
      cat: 'general',
    };
    const index = new Bm25Index();
    index.setAll(Object.entries(texts).map(([id, text]) => ({ id, text })));
    const relation = new SourceSimilarity(
      indexLookup(index, (id) => texts[id]),
      (id) => texts[id],
      { neighbours: 5, minNeighbourScore: 0.2, minCosine: 0.5, categoryOf: (id) => categories[id] },
    );
    expect(relation.similar('run', 'running')).toBe(true);
    expect(relation.similar('veg', 'meat')).toBe(true);
    // A top-level category such as "general" says nothing about a topic.
    expect(relation.similar('cat', 'run')).toBe(false);
  });

  it('shareTerms asks for a quarter of the shorter text, and at least one term', () => {
    expect(shareTerms(new Set(['sprint', 'length', '14', 'day']), new Set(['sprint', '2', 'week', 'long']))).toBe(true);
    expect(shareTerms(new Set(['a', 'b', 'c', 'd', 'e']), new Set(['a', 'x', 'y', 'z', 'w', 'v']))).toBe(false);
    expect(shareTerms(new Set(), new Set(['a']))).toBe(false);
  });
});
