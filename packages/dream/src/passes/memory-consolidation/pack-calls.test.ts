import { describe, expect, it } from 'vitest';
import { estimateTokens, packIntoCalls } from './pack-calls';

const cost = (id: string) => Number(id.split(':')[1]);

describe('packIntoCalls', () => {
  it('keeps a cluster that fits in one call and fills calls first-fit', () => {
    const calls = packIntoCalls([['a:6', 'b:3'], ['c:5', 'd:4'], ['e:1']], cost, 10);
    expect(calls).toEqual([
      ['a:6', 'b:3', 'e:1'],
      ['c:5', 'd:4'],
    ]);
  });

  it('cuts a cluster bigger than the budget into pieces that fit, in order', () => {
    const calls = packIntoCalls([['a:4', 'b:4', 'c:4', 'd:4', 'e:4']], cost, 10);
    expect(calls).toEqual([['a:4', 'b:4'], ['c:4', 'd:4'], ['e:4']]);
    for (const call of calls) expect(call.reduce((sum, id) => sum + cost(id), 0)).toBeLessThanOrEqual(10);
  });

  it('sends an entry bigger than the budget alone', () => {
    expect(packIntoCalls([['a:2', 'huge:50', 'b:2']], cost, 10)).toEqual([['a:2', 'b:2'], ['huge:50']]);
  });

  it('gives the first call less room when told to (it carries the feedback)', () => {
    expect(packIntoCalls([['a:5'], ['b:5']], cost, 10, 6)).toEqual([['a:5'], ['b:5']]);
    expect(packIntoCalls([['a:5'], ['b:5']], cost, 10)).toEqual([['a:5', 'b:5']]);
  });
});

describe('estimateTokens', () => {
  it('counts a token per four characters, rounding up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
  });
});
