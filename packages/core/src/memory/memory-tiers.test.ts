import { describe, expect, it } from 'vitest';
import { COLD_FALLBACK, hotResultsAreWeak, inTier, parseListTier, searchTiers, tierOf } from './memory-tiers';

const hit = (content: string, score = 5, tags: string[] = []) => ({ entry: { content, tags }, score });
const strong = (count: number, content = 'Anna moved to Porto') => Array.from({ length: count }, (_, i) => hit(content, 10 - i));

describe('hotResultsAreWeak (SPEC B13)', () => {
  it('is weak with fewer hits than asked, browsing included', () => {
    expect(hotResultsAreWeak(strong(2), 3, 'where did Anna move')).toBe(true);
    expect(hotResultsAreWeak(strong(2), 3, undefined)).toBe(true);
    expect(hotResultsAreWeak(strong(3), 3, undefined)).toBe(false);
  });

  it('is weak when the best score is under COLD_FALLBACK.minBestScore', () => {
    const faint = [hit('Anna moved to Porto', COLD_FALLBACK.minBestScore / 2)];
    expect(hotResultsAreWeak(faint, 1, 'where did Anna move')).toBe(true);
    expect(hotResultsAreWeak([hit('Anna moved to Porto', COLD_FALLBACK.minBestScore)], 1, 'where did Anna move')).toBe(false);
  });

  it('is weak when no hot hit mentions every name the query holds, in its text or tags', () => {
    expect(hotResultsAreWeak(strong(3, 'Bruno moved to Faro'), 3, 'Where did Anna move?')).toBe(true);
    expect(hotResultsAreWeak([...strong(2, 'Bruno moved to Faro'), hit('anna moved to Porto')], 3, 'Where did Anna move?')).toBe(false);
    expect(hotResultsAreWeak([hit('moved to Porto', 5, ['anna'])], 1, 'Where did Anna move?')).toBe(false);
    expect(hotResultsAreWeak(strong(3, 'Bruno moved to Faro'), 3, 'where did she move')).toBe(false);
  });
});

describe('searchTiers (SPEC B13)', () => {
  const tiers = (hot: ReturnType<typeof hit>[], cold: ReturnType<typeof hit>[]) => {
    const asked: string[] = [];
    const search = async (tier: 'hot' | 'cold', limit: number) => {
      asked.push(`${tier}:${limit}`);
      return (tier === 'hot' ? hot : cold).slice(0, limit);
    };
    return { asked, search };
  };

  it('reads only the hot tier for tiers: hot, and for a fallback whose hot results are strong', async () => {
    const t = tiers(strong(3), [hit('Anna lived in Lisbon', 99)]);
    expect(await searchTiers('hot', 3, 'Anna', t.search)).toEqual(strong(3));
    expect(await searchTiers('fallback', 3, 'Anna', t.search)).toEqual(strong(3));
    expect(t.asked).toEqual(['hot:3', 'hot:3']);
  });

  it('merges both by score for tiers: all, and for a weak fallback, within maxResults', async () => {
    const cold = [hit('Anna lived in Lisbon', 7)];
    const t = tiers(strong(1), cold);
    expect((await searchTiers('all', 2, 'Anna', t.search)).map((h) => h.score)).toEqual([10, 7]);
    expect((await searchTiers('fallback', 2, 'Anna', t.search)).map((h) => h.score)).toEqual([10, 7]);
    expect((await searchTiers('all', 1, 'Anna', t.search)).map((h) => h.score)).toEqual([10]);
    expect(t.asked).toEqual(['hot:2', 'cold:2', 'hot:2', 'cold:2', 'hot:1', 'cold:1']);
  });

  it('puts hits that mention every name of the query first when it falls back for a name', async () => {
    const t = tiers(strong(2, 'Bruno moved to Faro'), [hit('Anna moved to Porto', 1)]);
    const found = await searchTiers('fallback', 2, 'Where did Anna move?', t.search);
    expect(found.map((h) => h.entry.content)).toEqual(['Anna moved to Porto', 'Bruno moved to Faro']);
  });
});

describe('tierOf, inTier, parseListTier', () => {
  it('reads a missing tier as hot and refuses an unknown one', () => {
    expect(tierOf({})).toBe('hot');
    expect(tierOf({ tier: 'cold' })).toBe('cold');
    expect(inTier({ tier: 'cold' }, undefined)).toBe(true);
    expect(inTier({}, 'cold')).toBe(false);
    expect(parseListTier(undefined)).toBeUndefined();
    expect(parseListTier('cold')).toBe('cold');
    expect(() => parseListTier('warm')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
