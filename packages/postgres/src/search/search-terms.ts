import { indexTerms, STEM_MARK } from '@reverie/core/internal';

/** PostgreSQL refuses a lexeme over this many bytes in a tsvector. */
const MAX_LEXEME_BYTES = 2046;
/** A tsvector keeps at most this many positions per lexeme: term frequencies saturate here. */
export const MAX_TERM_FREQUENCY = 256;

/** A document's BM25 terms (as `indexTerms` makes them) with their frequencies, and its length (its words). */
export interface DocumentTerms {
  counts: Map<string, number>;
  length: number;
}

/**
 * The terms of `text` as the file store's BM25 index counts them (`indexTerms`: its words in lower
 * case without stop words, and their stems), leaving out the rare term PostgreSQL cannot index
 * (over 2046 bytes); the length counts the words kept, less the last `labelWords` (a memory
 * entry's category, `memoryLabelWords`: matched, not counted in the length). Pure.
 */
export function documentTerms(text: string, labelWords = 0): DocumentTerms {
  const counts = new Map<string, number>();
  let length = 0;
  for (const term of indexTerms(text).terms) {
    if (term.length * 3 > MAX_LEXEME_BYTES && Buffer.byteLength(term) > MAX_LEXEME_BYTES) continue;
    counts.set(term, (counts.get(term) ?? 0) + 1);
    if (!term.startsWith(STEM_MARK)) length += 1;
  }
  return { counts, length: length - Math.min(labelWords, length) };
}

function quoteLexeme(term: string): string {
  return `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/**
 * The tsvector text of a document's terms: each term once, with positions 1…tf, so that the
 * term frequency is the number of positions (`unnest(tsvector)`), up to `MAX_TERM_FREQUENCY`. Pure.
 */
export function tsvectorText(counts: ReadonlyMap<string, number>): string {
  const lexemes: string[] = [];
  for (const [term, count] of counts) {
    const positions = Array.from({ length: Math.min(count, MAX_TERM_FREQUENCY) }, (_, i) => i + 1).join(',');
    lexemes.push(`${quoteLexeme(term)}:${positions}`);
  }
  return lexemes.join(' ');
}

/**
 * What a document with passages counts in the document frequencies (SPEC M3): each term of its
 * own text or of any passage once; its length is its own (the average length is that of the
 * documents). Pure.
 */
export function withPassageTerms(own: DocumentTerms, passages: ReadonlyArray<Pick<DocumentTerms, 'counts'>>): DocumentTerms {
  if (passages.length === 0) return own;
  const counts = new Map(own.counts);
  for (const passage of passages) for (const term of passage.counts.keys()) if (!counts.has(term)) counts.set(term, 1);
  return { counts, length: own.length };
}

/** A tsquery that matches documents holding any of `terms` exactly. Pure. */
export function tsqueryText(terms: Iterable<string>): string {
  return [...terms].map(quoteLexeme).join(' | ');
}

/**
 * How the document frequencies change when a document's terms go from `before` to `after`
 * (either may be absent): +1 for a term it gains, −1 for one it loses. Pure.
 */
export function documentFrequencyDelta(
  before: ReadonlyMap<string, number> | undefined,
  after: ReadonlyMap<string, number> | undefined,
): Map<string, number> {
  const delta = new Map<string, number>();
  for (const term of after?.keys() ?? []) if (!before?.has(term)) delta.set(term, 1);
  for (const term of before?.keys() ?? []) if (!after?.has(term)) delta.set(term, -1);
  return delta;
}
