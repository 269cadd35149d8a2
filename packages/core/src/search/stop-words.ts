/**
 * Common English words that carry no topic. Dropped from BM25 terms (they only make posting
 * lists long) and from the recurring-term signal of skill-gap detection.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are as at be because been before being
  below between both but by can could did do does doing down during each few for from further
  had has have having he her here hers herself him himself his how i if in into is it its itself
  just me more most my myself no nor not now of off on once only or other our ours ourselves out
  over own same she should so some such than that the their theirs them themselves then there
  these they this those through to too under until up very was we were what when where which
  while who whom why will with would you your yours yourself yourselves please thanks thank hi
  hello hey ok okay also get got let lets can't don't i'm it's`
    .split(/\s+/)
    .filter(Boolean),
);

/** Lower-cases a term and drops stop words and one-character terms (`null` means drop). */
export function normaliseTerm(term: string): string | null {
  const lower = term.toLowerCase();
  if (lower.length < 2 || STOP_WORDS.has(lower)) return null;
  return lower;
}

const TOKEN_SPLIT = /[\s\p{P}\p{S}]+/u;

/** Splits text into normalised terms (the same tokenisation BM25 uses). */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const raw of text.split(TOKEN_SPLIT)) {
    if (!raw) continue;
    const term = normaliseTerm(raw);
    if (term) terms.push(term);
  }
  return terms;
}
