import { formsOf, type QueryWord, type TermAnalysis } from './index-terms';
import { tokenize } from './stop-words';

/**
 * Gives the synonyms (or other related words) of one lower-case word as a query holds it, in
 * whatever form ("flat" → "apartment", "jogging" → "run"), or none: finding the word's base forms
 * is the thesaurus's part, as only it knows which are words. Reverie ships one built from WordNet
 * (`loadWordNetThesaurus` of `reverie`); any function of this shape will do.
 */
export type Thesaurus = (word: string) => readonly string[];

/**
 * Widens a query with synonyms (SPEC M3): each query word's synonyms in `thesaurus`, asked for the
 * word as the query holds it, join the query marked `synonym`, which `weighQueryTerms` weighs at
 * `SYNONYM_WEIGHT` (their other forms below that, no prefixes), so a memory that holds the
 * query's own words or their other forms outranks one that holds only a synonym. A synonym that
 * is already a word of the query, is a stop word or is not one word (`tokenize`) is left out.
 * Pure as long as `thesaurus` is.
 */
export function expandWithSynonyms(words: readonly QueryWord[], thesaurus: Thesaurus, analysis: TermAnalysis = 'stemmed'): QueryWord[] {
  const expanded = [...words];
  const seen = new Set(words.map(({ word }) => word));
  for (const { word } of words) {
    for (const synonym of thesaurus(word)) {
      const [only, ...more] = tokenize(synonym);
      if (only === undefined || more.length > 0 || seen.has(only)) continue;
      seen.add(only);
      expanded.push({ word: only, forms: analysis === 'exact' ? [] : formsOf(only), synonym: true });
    }
  }
  return expanded;
}
