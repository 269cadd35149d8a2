import { describe, expect, it } from 'vitest';
import { evidenceRecallAt, mean } from './evidence-recall';

describe('evidenceRecallAt', () => {
  it('gives the share of the evidence covered by the top k entries’ evidence', () => {
    const ranked = [['D1:1'], [], ['D2:4', 'D3:1'], ['D9:9']];
    expect(evidenceRecallAt(3, ranked, ['D1:1', 'D3:1'])).toBe(1);
    expect(evidenceRecallAt(1, ranked, ['D1:1', 'D3:1'])).toBe(0.5);
    expect(evidenceRecallAt(3, ranked, ['D9:9'])).toBe(0);
    expect(evidenceRecallAt(10, [], ['D1:1'])).toBe(0);
    expect(evidenceRecallAt(10, ranked, [])).toBe(0);
  });
});

describe('mean', () => {
  it('averages, and gives 0 for nothing', () => {
    expect(mean([1, 0, 0.5])).toBe(0.5);
    expect(mean([])).toBe(0);
  });
});
