import { MAX_SEARCH_TEXT_LENGTH } from '../schemas/common';
import { type MemorySearchQuery, type MemorySearchResult, DEFAULT_SEARCH_RESULTS } from '../schemas/memory-entry';
import { isCalendarName } from '../text/date-terms';
import { stemWord } from '../text/stem-word';
import { normaliseTerm, tokenize } from './stop-words';

/**
 * A second hop (SPEC M3): a question that chains two memories ("where is my supervisor now?")
 * finds the first ("my supervisor is Professor Ingrid Solberg"), and the second ("Ingrid Solberg
 * is on sabbatical in Tasmania") is linked to it only by a name the question does not hold. So
 * the names of the first search's best hit are searched for again, with the question, and the
 * second search's new hits take the last places of the list. Chosen on the shared recall set
 * (`pnpm bench:recall`): names from the best hit alone, at most four, two places.
 */
export const SECOND_HOP = {
  /** The names of at most this many of a hit's words are searched for. */
  maxNames: 4,
  /** The second search fills at most this many places (always fewer than the list holds). */
  slots: 2,
} as const;

const SENTENCE_SPLIT = /(?<=[.!?;:])\s+|\n+/u;
const WORD_SPLIT = /[\s\p{P}\p{S}]+/u;

/**
 * The proper names a text holds that `question` does not, lower case, each once, in the order
 * met, at most `max`: words that begin with a capital letter ("Tom", "Reyes", "LaunchDarkly"),
 * less stop words, the names of months and weekdays, and words whose lower-case form or stem is
 * one of the question's. A capitalised word that opens a sentence counts only when the text also
 * holds it mid-sentence or the next word is capitalised too ("Tom Reyes lives…"), so "Bought…"
 * or "Yesterday…" are not taken for names. Pure.
 */
export function bridgeNames(question: string, text: string, max: number = SECOND_HOP.maxNames): string[] {
  const asked = new Set<string>();
  for (const word of tokenize(question)) asked.add(word).add(stemWord(word));
  const sentences = text.split(SENTENCE_SPLIT).map((sentence) => sentence.split(WORD_SPLIT).filter((word) => word !== ''));
  const midSentence = new Set(sentences.flatMap((words) => words.slice(1).filter(isCapitalised)));
  const names: string[] = [];
  for (const words of sentences) {
    words.forEach((word, index) => {
      if (names.length >= max || !isCapitalised(word) || isCalendarName(word)) return;
      if (index === 0 && !midSentence.has(word) && !isCapitalised(words[1] ?? '')) return;
      const term = normaliseTerm(word);
      if (term === null || asked.has(term) || asked.has(stemWord(term)) || names.includes(term)) return;
      names.push(term);
    });
  }
  return names;
}

function isCapitalised(word: string): boolean {
  const first = word.charAt(0);
  return first !== first.toLowerCase();
}

/**
 * The first search's results with the second search's merged in, at most `limit`: the first
 * `limit - slots` results of `first` keep their places; then up to `slots` results of `second`
 * not already placed (one further down `first` moves up); then the rest of `first`, and more of
 * `second` while places are left. Each entry once. A result keeps its score unless the one before
 * it scores lower, so scores never rise down the list. Pure.
 */
export function mergeSecondHop<T extends MemorySearchResult>(
  first: readonly T[],
  second: readonly T[],
  limit: number,
  slots: number = SECOND_HOP.slots,
): T[] {
  const placed = new Set<string>();
  const merged: T[] = [];
  const take = (results: readonly T[], count: number) => {
    let taken = 0;
    for (const result of results) {
      if (taken >= count || merged.length >= limit) return;
      if (placed.has(result.entry.id)) continue;
      placed.add(result.entry.id);
      merged.push(result);
      taken++;
    }
  };
  const kept = Math.max(limit - slots, 1);
  take(first.slice(0, kept), kept);
  take(second, limit - kept);
  take(first, limit);
  take(second, limit);
  let ceiling = Infinity;
  return merged.map((result) => {
    if (result.score <= ceiling) {
      ceiling = result.score;
      return result;
    }
    return { ...result, score: ceiling };
  });
}

/**
 * Searches with `search`, then once more for the proper names of the best hit that the query
 * text does not hold (`bridgeNames`), together with the text and under the same filters, and
 * merges the two (`mergeSecondHop`). Without text, names or room for a second search's hit, it
 * is the first search alone. The same for every store: it only calls `search`.
 */
export async function searchWithSecondHop<T extends MemorySearchResult>(
  search: (query: MemorySearchQuery) => Promise<T[]>,
  query: MemorySearchQuery,
): Promise<T[]> {
  const first = await search(query);
  const limit = query.maxResults ?? DEFAULT_SEARCH_RESULTS;
  const text = query.text?.trim() ?? '';
  if (first.length === 0 || text === '' || limit < 2) return first;
  const names = bridgeNames(text, first[0]!.entry.content);
  if (names.length === 0) return first;
  const second = await search({ ...query, text: `${names.join(' ')} ${text}`.slice(0, MAX_SEARCH_TEXT_LENGTH) });
  return mergeSecondHop(first, second, limit);
}
