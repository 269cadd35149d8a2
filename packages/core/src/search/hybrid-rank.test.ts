import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cosineSimilarity, hybridRank } from './hybrid-rank';

describe('hybridRank (SPEC M4)', () => {
  it('averages BM25 scores divided by the best and cosines measured from the weakest candidate to the best', () => {
    const ranked = hybridRank(
      [
        { id: 'a', score: 10 },
        { id: 'b', score: 5 },
      ],
      [
        { id: 'b', similarity: 0.9 },
        { id: 'c', similarity: 0.7 },
        { id: 'd', similarity: 0.5 },
      ],
    );
    expect(ranked.map((h) => [h.id, Number(h.score.toFixed(4))])).toEqual([
      ['b', 0.75],
      ['a', 0.5],
      ['c', 0.25],
      ['d', 0],
    ]);
  });

  it("does not let a model's floor for unrelated texts outrank a keyword match", () => {
    // A model under which every text is at least 0.8 similar to every other: the keyword match
    // 'a' has nothing on the vector side, and the vector candidates differ by a few hundredths.
    const ranked = hybridRank(
      [
        { id: 'a', score: 7 },
        { id: 'b', score: 1 },
      ],
      [
        { id: 'x', similarity: 0.86 },
        { id: 'b', similarity: 0.83 },
        { id: 'y', similarity: 0.82 },
        { id: 'z', similarity: 0.81 },
      ],
    );
    expect(ranked.map((h) => h.id)).toEqual(['a', 'x', 'b', 'y', 'z']);
    // Divided by the best similarity alone, 'y' and 'z' (0.95 of the best) outranked 'a' (0.5).
    expect(ranked.find((h) => h.id === 'y')!.score).toBeLessThan(0.25);
  });

  it('scores a lone vector candidate, or candidates all as similar, as the best', () => {
    expect(hybridRank([], [{ id: 'x', similarity: 0.7 }])).toEqual([{ id: 'x', score: 0.5, bm25: 0, cosine: 1 }]);
    const even = hybridRank(
      [],
      [
        { id: 'x', similarity: 0.7 },
        { id: 'y', similarity: 0.7 },
      ],
    );
    expect(even.map((h) => h.cosine)).toEqual([1, 1]);
  });

  it('drops vector hits under the minimum similarity (0.5 by default)', () => {
    const ranked = hybridRank(
      [],
      [
        { id: 'x', similarity: 0.49 },
        { id: 'y', similarity: 0.8 },
      ],
    );
    expect(ranked.map((h) => h.id)).toEqual(['y']);
    expect(hybridRank([], [{ id: 'x', similarity: 0.3 }], { minSimilarity: 0.2 }).map((h) => h.id)).toEqual(['x']);
  });

  it('keeps BM25 order when there are no vectors', () => {
    const ranked = hybridRank(
      [
        { id: 'a', score: 3 },
        { id: 'b', score: 2 },
      ],
      [],
      { limit: 1 },
    );
    expect(ranked).toEqual([{ id: 'a', score: 0.5, bm25: 1, cosine: 0 }]);
  });

  it('always scores in [0, 1], sorted best first', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd'), score: fc.double({ min: 0.01, max: 50, noNaN: true }) })),
        fc.array(fc.record({ id: fc.constantFrom('a', 'b', 'e'), similarity: fc.double({ min: -1, max: 1, noNaN: true }) })),
        (bm25, vector) => {
          const uniqueBm25 = [...new Map(bm25.map((h) => [h.id, h])).values()].sort((x, y) => y.score - x.score);
          const uniqueVector = [...new Map(vector.map((h) => [h.id, h])).values()];
          const ranked = hybridRank(uniqueBm25, uniqueVector);
          for (const hit of ranked) {
            expect(hit.score).toBeGreaterThanOrEqual(0);
            expect(hit.score).toBeLessThanOrEqual(1);
          }
          for (let i = 1; i < ranked.length; i++) expect(ranked[i - 1]!.score).toBeGreaterThanOrEqual(ranked[i]!.score);
        },
      ),
    );
  });
});

describe('cosineSimilarity', () => {
  it('is 1 for parallel, 0 for orthogonal, -1 for opposite vectors', () => {
    expect(cosineSimilarity([1, 2], [2, 4])).toBeCloseTo(1);
    expect(cosineSimilarity([1, 0], [0, 3])).toBeCloseTo(0);
    expect(cosineSimilarity([1, 1], [-1, -1])).toBeCloseTo(-1);
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
  });

  it('refuses vectors of different lengths with a ReverieError', () => {
    expect(() => cosineSimilarity([1], [1, 2])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
