import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BestHits } from './best-hits';

function best(hits: ReadonlyArray<[string, number]>, limit: number) {
  const kept = new BestHits(limit);
  for (const [id, similarity] of hits) kept.offer(id, similarity);
  return kept.sorted();
}

describe('BestHits', () => {
  it('keeps the most similar hits, best first', () => {
    expect(
      best(
        [
          ['a', 0.2],
          ['b', 0.9],
          ['c', 0.5],
          ['d', 0.7],
        ],
        2,
      ),
    ).toEqual([
      { id: 'b', similarity: 0.9 },
      { id: 'd', similarity: 0.7 },
    ]);
  });

  it('keeps the first offered of equally similar hits, and says which hits it would keep', () => {
    const kept = new BestHits(2);
    kept.offer('a', 0.5);
    kept.offer('b', 0.5);
    expect(kept.wouldKeep(0.5)).toBe(false);
    expect(kept.wouldKeep(0.51)).toBe(true);
    kept.offer('c', 0.5);
    expect(kept.sorted().map((hit) => hit.id)).toEqual(['a', 'b']);
    expect(new BestHits(0).wouldKeep(1)).toBe(false);
    expect(best([['a', 1]], 0)).toEqual([]);
  });

  it('gives what sorting every hit and taking the first `limit` gives', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { maxLength: 60 }),
        fc.integer({ min: 0, max: 20 }),
        (similarities, limit) => {
          const hits = similarities.map((similarity, i): [string, number] => [`h${i}`, similarity]);
          const expected = hits
            .map(([id, similarity]) => ({ id, similarity }))
            .sort((a, b) => b.similarity - a.similarity)
            .slice(0, limit);
          expect(best(hits, limit)).toEqual(expected);
        },
      ),
    );
  });
});
