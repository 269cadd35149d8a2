import { describe, expect, it } from 'vitest';
import { dreamingOptionsSchema } from './dream-options';

describe('dreamingOptionsSchema', () => {
  it('gives every parse defaults of its own: two instances never share a default array or object', () => {
    const first = dreamingOptionsSchema.parse({});
    const second = dreamingOptionsSchema.parse({});
    expect(second).toEqual(first);
    expect(first.consolidation.protectedCategories.length).toBeGreaterThan(0);
    expect(second.consolidation.protectedCategories).not.toBe(first.consolidation.protectedCategories);
    for (const pass of ['importanceDecay', 'consolidation', 'episodes', 'archive'] as const) expect(second[pass]).not.toBe(first[pass]);
  });

  it('fills a pass left out with the defaults its own schema gives', () => {
    const parsed = dreamingOptionsSchema.parse({ consolidation: { tokenBudget: 5000 } });
    expect(parsed.consolidation.tokenBudget).toBe(5000);
    expect(parsed.episodes).toEqual(dreamingOptionsSchema.shape.episodes.unwrap().parse({}));
    expect(parsed.archive).toEqual(dreamingOptionsSchema.shape.archive.unwrap().parse({}));
  });
});
