import { describe, expect, it } from 'vitest';
import { linearBm25, plainTokens } from './linear-bm25';

describe('plainTokens', () => {
  it('lower-cases and splits at anything but letters and digits, keeping every word', () => {
    expect(plainTokens("What is Caroline's plan for 2023?")).toEqual(['what', 'is', 'caroline', 's', 'plan', 'for', '2023']);
  });
});

describe('linearBm25', () => {
  const index = linearBm25([
    { id: 'a', text: 'Melanie painted a lake sunrise' },
    { id: 'b', text: 'Melanie went camping' },
    { id: 'c', text: 'Caroline painted a sunset, then painted again' },
  ]);

  it('ranks by BM25 over plain words: rarer words weigh more, no other forms match', () => {
    expect(index.search('sunrise painted', 10)).toEqual(['a', 'c']);
    expect(index.search('paints', 10)).toEqual([]);
    expect(index.search('melanie camping', 1)).toEqual(['b']);
  });

  it('scores the documents given, ties in the order given', () => {
    expect(
      linearBm25([
        { id: 'x', text: 'same words' },
        { id: 'y', text: 'same words' },
      ]).search('words', 10),
    ).toEqual(['x', 'y']);
  });
});
