import { describe, expect, it } from 'vitest';
import { analyseText } from '../text/analyse-text';
import { indexedLength, indexTerms, queryWords } from './index-terms';

describe('indexTerms', () => {
  it('indexes every word, and the marked stem of a word whose stem differs; the length counts words', () => {
    expect(indexTerms('She researched the research')).toEqual({ terms: ['researched', 'research', '~research'], length: 2 });
    expect(indexTerms('She researched the research', 'exact')).toEqual({ terms: ['researched', 'research'], length: 2 });
  });

  it('indexes the last labelWords words like the others but leaves them out of the length', () => {
    expect(indexTerms('Jon showed his studio people jon dance', 'stemmed', 3)).toEqual({
      terms: ['jon', 'showed', 'studio', 'people', 'jon', 'dance', '~show', '~person', '~danc'],
      length: 3,
    });
    expect(indexTerms('people jon', 'exact', 5)).toEqual({ terms: ['people', 'jon'], length: 0 });
    expect(indexedLength('Jon showed his studio people jon dance', 3)).toBe(3);
  });

  it('stems as the reply guards do: one normalisation for "the same word" across the library', () => {
    const text = 'Deployments went out; children bought groceries';
    const guardKeys = new Set(analyseText(text).words);
    const stems = indexTerms(text)
      .terms.filter((term) => term.startsWith('~'))
      .map((term) => term.slice(1));
    for (const stem of stems) expect(guardKeys).toContain(stem);
  });

  it('takes time in proportion to the text, however long its words (a long token is its own stem)', () => {
    const token = `${'ab'.repeat(500_000)}ing`;
    expect(indexTerms(`a value of ${token}`)).toEqual({ terms: ['value', token, '~valu'], length: 2 });
  });
});

describe('queryWords', () => {
  it('gives each distinct word the terms of its other forms', () => {
    expect(queryWords('researched research deploys')).toEqual([
      { word: 'researched', forms: ['~research', 'research'] },
      { word: 'research', forms: ['~research'] },
      { word: 'deploys', forms: ['~deploy', 'deploy'] },
    ]);
    expect(queryWords('researched', 'exact')).toEqual([{ word: 'researched', forms: [] }]);
  });
});
