import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../search/bm25-index';
import { analyseText, normaliseTerms } from './analyse-text';
import { judgeFactPreservation } from './judge-fact-preservation';
import { stemWord } from './stem-word';

/**
 * SPEC M2: a word is data. Every name `Object.prototype` answers to, and the words a lookup in a
 * plain object would find on a function or an array, once made the text analysis throw
 * ("constructor" found `Object.prototype.constructor` in the table of irregular forms).
 */
const INHERITED = [...Object.getOwnPropertyNames(Object.prototype), 'prototype', 'length', 'name', 'call', 'apply', 'bind', 'toJSON'];

describe('names Object.prototype answers to are ordinary words', () => {
  it.each(INHERITED)('%s: stemmed as a word, in any case', (word) => {
    for (const form of [word, word.toUpperCase(), word[0]!.toUpperCase() + word.slice(1)]) {
      expect(typeof stemWord(form)).toBe('string');
    }
  });

  it.each(INHERITED)('%s: analysed as a word, never as a number, date or negation', (word) => {
    const analysis = analyseText(`Call the ${word} of the class, then twice ${word} at noon; ${word} ${word}n't`);
    for (const term of analysis.terms) expect(typeof term.key).toBe('string');
    const bare = word.replace(/^_+|_+$/g, '').toLowerCase();
    const own = analysis.terms.filter((term) => term.text.toLowerCase() === bare);
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((term) => term.kind === 'word' || term.kind === 'name')).toBe(true);
  });

  it.each(INHERITED)('%s: a text holding it judges as faithful to itself, and a changed number is still refused', (word) => {
    const source = `The ${word} method runs 3 times on Monday`;
    expect(judgeFactPreservation([source], source).ok).toBe(true);
    expect(judgeFactPreservation([source], `The ${word} method runs 4 times on Monday`).ok).toBe(false);
  });

  it.each(INHERITED)('%s: indexed, searched and deleted by the BM25 index', (word) => {
    const index = new Bm25Index();
    index.set('aaaaaaaaaaaa', `Call the ${word} of the class`);
    index.set('bbbbbbbbbbbb', 'An unrelated note about tea');
    expect(index.search(word).map((hit) => hit.id)).toEqual(['aaaaaaaaaaaa']);
    expect(index.search(`${word} class`)[0]?.id).toBe('aaaaaaaaaaaa');
    expect(index.delete('aaaaaaaaaaaa')).toBe(true);
    expect(index.search(word)).toEqual([]);
  });

  it('number words still read as numbers beside them', () => {
    expect(normaliseTerms('twice constructor')).toEqual(normaliseTerms('2 times constructor'));
    expect(normaliseTerms('three valueOf')).toEqual(normaliseTerms('3 valueOf'));
  });
});
