import { describe, expect, it } from 'vitest';
import { embedText, WordVectorCollector } from './word-vectors';

function collected(entries: Array<[string, number[]]>, maxWords = 100) {
  const collector = new WordVectorCollector(entries[0]![1].length, maxWords);
  for (const [word, vector] of entries) collector.add(word, vector);
  return collector.result();
}

describe('WordVectorCollector', () => {
  it('ranks words in the order added, lower case, each vector scaled to length 1', () => {
    const words = collected([
      ['Cat', [3, 4]],
      ['dog', [0, 2]],
    ]);
    expect([...words.rankOf]).toEqual([
      ['cat', 0],
      ['dog', 1],
    ]);
    expect([...words.vectors].map((value) => Number(value.toFixed(6)))).toEqual([0.6, 0.8, 0, 1]);
  });

  it('keeps the first vector of a word met again in another case, and leaves out vectors of zeros', () => {
    const words = collected([
      ['apple', [1, 0]],
      ['Apple', [0, 1]],
      ['void', [0, 0]],
      ['pear', [0, 1]],
    ]);
    expect([...words.rankOf]).toEqual([
      ['apple', 0],
      ['pear', 1],
    ]);
  });

  it('stops at maxWords and says so', () => {
    const collector = new WordVectorCollector(1, 2);
    collector.add('a1', [1]);
    expect(collector.full).toBe(false);
    collector.add('b2', [1]);
    expect(collector.full).toBe(true);
    expect(collector.wants('c3')).toBe(false);
    collector.add('c3', [1]);
    expect(collector.result().rankOf.size).toBe(2);
  });

  it('grows past its first allocation', () => {
    const collector = new WordVectorCollector(1, 70_000);
    for (let i = 0; i < 70_000; i++) collector.add(`w${i}`, [i + 1]);
    const words = collector.result();
    expect(words.rankOf.get('w69999')).toBe(69_999);
    expect(words.vectors).toHaveLength(70_000);
    expect(words.vectors[69_999]).toBe(1);
  });
});

describe('embedText', () => {
  const words = collected([
    ['penicillin', [1, 0, 0]],
    ['antibiotic', [0.8, 0.6, 0]],
    ['cat', [0, 0, 1]],
  ]);

  it('sums the vectors of the words BM25 reads, each time a word occurs, stop words and unknown words left out', () => {
    expect(embedText('The penicillin!', words)).toEqual([1, 0, 0]);
    expect(embedText('penicillin, an ANTIBIOTIC for the cat', words).map((value) => Number(value.toFixed(6)))).toEqual([1.8, 0.6, 1]);
    expect(embedText('cat cat', words)).toEqual([0, 0, 2]);
  });

  it('gives zeros for a text with no word it knows', () => {
    expect(embedText('the of and zebra', words)).toEqual([0, 0, 0]);
    expect(embedText('', words)).toEqual([0, 0, 0]);
  });
});
