/**
 * The arithmetic of BM25 recall (SPEC M3), shared by `Bm25Index` and the stores that rank in a
 * database (`@reverie/postgres`), so every store scores a query the same way. Pure.
 */
import type { QueryWord } from './index-terms';

/** BM25 parameters (the usual Okapi defaults). */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
/** Query terms of at least this many characters also match longer terms they begin. */
export const PREFIX_MIN_LENGTH = 4;
/** A prefix expands to at most this many vocabulary terms, in alphabetical order. */
export const PREFIX_MAX_EXPANSIONS = 24;
/** A term matched as a prefix of a longer term counts this much of an exact match. */
export const PREFIX_WEIGHT = 0.4;
/** A term matched as another form of a query word (its stem, see `queryWords`) counts this much of an exact match. */
export const STEM_WEIGHT = 0.6;
/**
 * A term matched as a synonym of a query word (see `expandWithSynonyms`) counts this much of an
 * exact match, and another form of the synonym `STEM_WEIGHT` of that: below another form of the
 * word itself, and below a longer word it begins. A synonym matches no longer words it begins
 * (that would be two steps from what was asked, and costs a search many more terms).
 */
export const SYNONYM_WEIGHT = 0.3;
/** `maxDocumentShare` never leaves out a term found in this many documents or fewer. */
export const COMMON_TERM_FLOOR = 256;

/** A term's inverse document frequency among `documents` live documents, `df` of which hold it. */
export function bm25Idf(documents: number, df: number): number {
  return Math.log(1 + (documents - df + 0.5) / (df + 0.5));
}

/**
 * A term's contribution to a document's BM25 score, `factor` being its weight times its idf.
 * Every search scores through this one expression, so the same document gets the same score to
 * the last bit whichever way a search reaches it. With `factor` 1 it is the term's impact on the
 * document, rising with `freq` and falling with `length`.
 */
export function termScore(factor: number, freq: number, length: number, averageLength: number): number {
  return (factor * (freq * (BM25_K1 + 1))) / (freq + BM25_K1 * (1 - BM25_B + (BM25_B * length) / averageLength));
}

/**
 * The weight of each term a query matches: 1 for a query word in the vocabulary (`SYNONYM_WEIGHT`
 * for a synonym the query was widened with, `QueryWord.synonym`); `STEM_WEIGHT` of that for a
 * term holding another form of it (`QueryWord.forms`); `PREFIX_WEIGHT` for a longer term that a
 * query word (not a synonym) of `PREFIX_MIN_LENGTH`+ characters begins. A term matched several
 * ways counts its highest weight, so an exact match always outranks a match of another form.
 * `expansions(word)` gives the vocabulary's terms that begin with `word`, other than `word`, in
 * alphabetical order (at least `PREFIX_MAX_EXPANSIONS` of them when there are).
 */
export function weighQueryTerms(
  words: readonly QueryWord[],
  inVocabulary: (term: string) => boolean,
  expansions: (word: string) => readonly string[],
): Map<string, number> {
  const weights = new Map<string, number>();
  const raise = (term: string, weight: number) => {
    if ((weights.get(term) ?? 0) < weight) weights.set(term, weight);
  };
  for (const { word, forms, synonym } of words) {
    const weight = synonym ? SYNONYM_WEIGHT : 1;
    if (inVocabulary(word)) raise(word, weight);
    for (const form of forms) if (inVocabulary(form)) raise(form, STEM_WEIGHT * weight);
    if (synonym || word.length < PREFIX_MIN_LENGTH) continue;
    for (const candidate of expansions(word).slice(0, PREFIX_MAX_EXPANSIONS)) raise(candidate, PREFIX_WEIGHT);
  }
  return weights;
}

/**
 * The `count` terms found in the fewest of `documents` live documents, without those in more
 * than `maxShare` of them (and more than `COMMON_TERM_FLOOR`) unless fewer than three would be
 * left; terms in no document are dropped. Ties go alphabetically.
 */
export function rarestTerms(terms: ReadonlyArray<{ term: string; df: number }>, count: number, documents: number, maxShare = 1): string[] {
  const ranked = terms.filter((term) => term.df > 0).sort((a, b) => a.df - b.df || (a.term < b.term ? -1 : 1));
  const limit = Math.max(COMMON_TERM_FLOOR, maxShare * documents);
  const kept = Math.max(Math.min(3, ranked.length), ranked.filter((term) => term.df <= limit).length);
  return ranked.slice(0, Math.min(count, kept)).map((term) => term.term);
}
