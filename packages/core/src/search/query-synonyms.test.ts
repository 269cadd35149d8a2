import { describe, expect, it } from 'vitest';
import { Bm25Index } from './bm25-index';
import { SYNONYM_WEIGHT, weighQueryTerms } from './bm25-scoring';
import { queryWords } from './index-terms';
import { expandWithSynonyms, type Thesaurus } from './query-synonyms';

const table: Record<string, string[]> = {
  flat: ['apartment', 'level', 'the', 'flat', 'living room'],
  jog: ['run'],
  car: ['automobile', 'auto'],
  cars: ['automobile'],
};
const thesaurus: Thesaurus = (word) => table[word] ?? [];

describe('expandWithSynonyms (SPEC M3)', () => {
  it('adds the synonyms of each word, marked as synonyms, with their own other forms', () => {
    const words = expandWithSynonyms(queryWords('jog'), thesaurus);
    expect(words.map(({ word, synonym }) => [word, synonym ?? false])).toEqual([
      ['jog', false],
      ['run', true],
    ]);
    expect(words[1]!.forms).toEqual(['~run']);
  });

  it('asks the thesaurus for each word as the query holds it, not for its stem, which is often no word ("releas")', () => {
    const asked: string[] = [];
    expandWithSynonyms(queryWords('released jogging'), (word) => {
      asked.push(word);
      return [];
    });
    expect(asked).toEqual(['released', 'jogging']);
  });

  it('leaves out stop words, phrases, the query’s own words and repeats', () => {
    const words = expandWithSynonyms(queryWords('flat level'), thesaurus);
    expect(words.map(({ word }) => word)).toEqual(['flat', 'level', 'apartment']);
  });

  it('gives synonyms no other forms with the exact analysis', () => {
    expect(expandWithSynonyms(queryWords('car', 'exact'), thesaurus, 'exact').map(({ forms }) => forms)).toEqual([[], [], []]);
  });

  it('weighs a synonym and its other forms below the query word’s own forms, and gives it no prefix matches', () => {
    const [car, automobile] = expandWithSynonyms(queryWords('cars'), thesaurus).slice(0, 2);
    expect(car!.word).toBe('cars');
    const weights = weighQueryTerms(
      expandWithSynonyms(queryWords('cars'), thesaurus),
      () => true,
      (word) => [`${word}s`],
    );
    expect(weights.get('cars')).toBe(1);
    expect(weights.get('~car')).toBe(0.6);
    expect(weights.get('carss')).toBe(0.4);
    expect(weights.get('automobile')).toBe(SYNONYM_WEIGHT);
    expect(weights.get('~automobil')).toBeCloseTo(0.6 * SYNONYM_WEIGHT);
    expect(weights.has('automobiles')).toBe(false);
    expect(automobile!.word).toBe('automobile');
  });
});

describe('Bm25Index with synonyms', () => {
  const index = () => {
    const i = new Bm25Index();
    i.set('apartment', 'she rents an apartment by the river');
    i.set('flat', 'the flat has no dishwasher');
    i.set('flats', 'two flats upstairs are empty');
    i.set('other', 'he bought a bike');
    return i;
  };

  it('finds a memory through a synonym of the query’s word, below its exact and other forms', () => {
    expect(
      index()
        .search('flat')
        .map((hit) => hit.id),
    ).toEqual(['flat', 'flats']);
    expect(
      index()
        .search('flat', { synonyms: thesaurus })
        .map((hit) => hit.id),
    ).toEqual(['flat', 'flats', 'apartment']);
  });

  it('expands nothing for a query as written (stems: false, as neighbour queries ask)', () => {
    expect(
      index()
        .search('flat', { synonyms: thesaurus, stems: false })
        .map((hit) => hit.id),
    ).toEqual(['flat', 'flats']);
  });
});
