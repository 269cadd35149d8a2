import { describe, expect, it } from 'vitest';
import { fitTokenBudget } from './fit-token-budget';

describe('fitTokenBudget', () => {
  const line = (text: string) => text;

  it('keeps items in order while their lines fit (characters / 4, plus one per line)', () => {
    // 'x'.repeat(8) costs 2 + 1 = 3 tokens.
    const items = ['a'.repeat(8), 'b'.repeat(8), 'c'.repeat(8)];
    expect(fitTokenBudget(items, line, 6)).toEqual(['a'.repeat(8), 'b'.repeat(8)]);
    expect(fitTokenBudget(items, line, 9)).toEqual(items);
    expect(fitTokenBudget(items, line, 2)).toEqual([]);
  });

  it('passes over an item too long for what is left, and takes shorter ones after it', () => {
    const items = ['short', 'l'.repeat(400), 'tiny'];
    expect(fitTokenBudget(items, line, 10)).toEqual(['short', 'tiny']);
  });
});
