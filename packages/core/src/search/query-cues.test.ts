import { describe, expect, it } from 'vitest';
import { hasCues, queryCues, queryNames } from './query-cues';

describe('queryNames', () => {
  it('gives the words a query capitalises, lower case, less stop words', () => {
    expect([...queryNames("What did Caroline's friend Mel give Melanie in June?")]).toEqual(['caroline', 'mel', 'melanie', 'june']);
    expect([...queryNames('what does john like?')]).toEqual([]);
  });
});

describe('queryCues', () => {
  it('holds the names and the periods of a query, and says when it has none', () => {
    const cues = queryCues('What did Maria donate in December 2023?');
    expect([...cues.names]).toEqual(['maria', 'december']);
    expect(cues.periods).toEqual([{ from: Date.UTC(2023, 11, 1), to: Date.UTC(2024, 0, 1) }]);
    expect(hasCues(cues)).toBe(true);
    expect(hasCues(queryCues('what about the quarterly budget'))).toBe(false);
  });
});
