import { stemWord } from '../text/stem-word';
import { tokenize } from './stop-words';

/**
 * How BM25 reads words (SPEC M3): `'stemmed'` (the default) also matches other forms of a word
 * ("researched" finds "research", "deploys" finds "deployment"), through the stemmer the reply
 * guards use (`stemWord`: Porter2 and a table of irregular forms), so "the same word" means one
 * thing across the library; `'exact'` matches the words as written, as Reverie did before.
 */
export type TermAnalysis = 'stemmed' | 'exact';

/**
 * Marks a stem term: `~research` is "a form of research". No word can hold it (`tokenize` splits
 * at punctuation and symbols), so a stem never meets a word of the same spelling, and the marked
 * terms sort after every ASCII word, out of the way of prefix expansion.
 */
export const STEM_MARK = '~';

/** The terms a document is indexed under, with repeats (their counts are the term frequencies). */
export interface IndexTerms {
  terms: string[];
  /** The document's length for BM25: its words (`tokenize`), stems and the words of its label (`labelWords`) not counted. */
  length: number;
}

/** The marked stem term of a word, or undefined when the stem is the word itself ("research"). */
export function stemTermOf(word: string): string | undefined {
  const stem = stemWord(word);
  return stem === word ? undefined : STEM_MARK + stem;
}

/**
 * The terms BM25 indexes for a text: its words (`tokenize`: lower case, no stop words) and, when
 * stemmed, each word's marked stem where it differs from the word ("researched" → `researched`,
 * `~research`; "research" → `research` alone). A query matches a word exactly through the word
 * and any form of it through the stems (see `queryWords`). The last `labelWords` words of the
 * text are a label (a memory entry's category, see `memoryLabelWords`): indexed like the others,
 * not counted in the length. Pure.
 */
export function indexTerms(text: string, analysis: TermAnalysis = 'stemmed', labelWords = 0): IndexTerms {
  const words = tokenize(text);
  const length = lengthLess(words.length, labelWords);
  if (analysis === 'exact') return { terms: words, length };
  const terms = [...words];
  for (const word of words) {
    const stem = stemTermOf(word);
    if (stem !== undefined) terms.push(stem);
  }
  return { terms, length };
}

/** The length `indexTerms` gives `text` with `labelWords`, without stemming it. Pure. */
export function indexedLength(text: string, labelWords = 0): number {
  return lengthLess(tokenize(text).length, labelWords);
}

function lengthLess(words: number, labelWords: number): number {
  return words - Math.min(labelWords, words);
}

/** One distinct word of a query and the terms that hold other forms of it. */
export interface QueryWord {
  word: string;
  /**
   * When stemmed: the marked stem of the word (if it differs from the word) and the stem as a
   * word, if that differs from this word (`researched` → `~research`, `research`; `research` →
   * `~research`). Empty for `'exact'`.
   */
  forms: string[];
  /** A synonym of a query word the query was widened with (see `expandWithSynonyms`), not a word of the query. */
  synonym?: true;
}

/** The distinct words of a query, each with the terms of its other forms (see `QueryWord`). Pure. */
export function queryWords(text: string, analysis: TermAnalysis = 'stemmed'): QueryWord[] {
  return [...new Set(tokenize(text))].map((word) => ({ word, forms: analysis === 'exact' ? [] : formsOf(word) }));
}

/** The stem terms a query word matches other forms through (see `QueryWord.forms`). */
export function formsOf(word: string): string[] {
  const stem = stemWord(word);
  return stem === word ? [STEM_MARK + stem] : [STEM_MARK + stem, stem];
}
