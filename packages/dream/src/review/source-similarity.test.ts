import { Bm25Index } from '@reverie/core';
import { describe, expect, it } from 'vitest';
import { SourceSimilarity } from './source-similarity';

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
  return new SourceSimilarity(index, (id) => TEXTS[id], { neighbours: 5, minNeighbourScore: 0.2, minCosine: 0.5 }, vectors);
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
});
