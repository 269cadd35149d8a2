import { describe, expect, it } from 'vitest';
import { baseFormsOf, exceptionsIn } from './word-net-morphology';

const lemmas = new Set([
  'release',
  'box',
  'bus',
  'fly',
  'woman',
  'big',
  'large',
  'church',
  'go',
  'axis',
  'ax',
  'research',
  'wind',
  'jog',
  'stop',
  'ball',
  'bal',
]);
const isLemma = (word: string) => lemmas.has(word);

describe('baseFormsOf (WordNet morphology)', () => {
  it('brings a regular form to a base form that is a lemma, where a stem is often no word ("releas")', () => {
    expect(baseFormsOf('released', 'verb', isLemma)).toEqual(['release']);
    expect(baseFormsOf('releasing', 'verb', isLemma)).toEqual(['release']);
    expect(baseFormsOf('researched', 'verb', isLemma)).toEqual(['research']);
    expect(baseFormsOf('boxes', 'noun', isLemma)).toEqual(['box']);
    expect(baseFormsOf('churches', 'noun', isLemma)).toEqual(['church']);
    expect(baseFormsOf('flies', 'noun', isLemma)).toEqual(['fly']);
    expect(baseFormsOf('women', 'noun', isLemma)).toEqual(['woman']);
    expect(baseFormsOf('larger', 'adj', isLemma)).toEqual(['large']);
  });

  it('keeps the word itself when it is a lemma, and only candidates that are lemmas', () => {
    expect(baseFormsOf('bus', 'noun', isLemma)).toEqual(['bus']);
    expect(baseFormsOf('release', 'verb', isLemma)).toEqual(['release']);
    expect(baseFormsOf('releas', 'verb', isLemma)).toEqual([]);
    expect(baseFormsOf('bigge', 'adj', isLemma)).toEqual([]);
  });

  it('undoubles a final consonant a rule left before a vowel ending (as WordNet’s exception lists do: jogging → jog)', () => {
    expect(baseFormsOf('jogging', 'verb', isLemma)).toEqual(['jog']);
    expect(baseFormsOf('stopped', 'verb', isLemma)).toEqual(['stop']);
    expect(baseFormsOf('bigger', 'adj', isLemma)).toEqual(['big']);
    expect(baseFormsOf('biggest', 'adj', isLemma)).toEqual(['big']);
    expect(baseFormsOf('balls', 'noun', isLemma)).toEqual(['ball']);
  });

  it('applies the rules of the part of speech asked for only (adverbs have none)', () => {
    expect(baseFormsOf('released', 'noun', isLemma)).toEqual([]);
    expect(baseFormsOf('boxes', 'adv', isLemma)).toEqual([]);
  });

  it('takes an irregular form’s bases from the exception list first, each kept only if a lemma', () => {
    const exceptions = exceptionsIn('bigger big\nwent go\naxes ax axis\nwound wind nonlemma\n');
    expect(baseFormsOf('bigger', 'adj', isLemma, exceptions)).toEqual(['big']);
    expect(baseFormsOf('went', 'verb', isLemma, exceptions)).toEqual(['go']);
    expect(baseFormsOf('axes', 'noun', isLemma, exceptions)).toEqual(['ax', 'axis']);
    expect(baseFormsOf('wound', 'verb', isLemma, exceptions)).toEqual(['wind']);
  });
});

describe('exceptionsIn', () => {
  it('reads each line’s form and bases, skipping empty lines and joining a form listed twice', () => {
    expect(exceptionsIn('went go\n\naxes ax axis\naxes axe\n  \n')).toEqual(
      new Map([
        ['went', ['go']],
        ['axes', ['ax', 'axis', 'axe']],
      ]),
    );
  });
});
