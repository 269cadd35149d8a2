/**
 * BM25 as a plain linear scan over every document (k1 1.2, b 0.75), the baseline the benches
 * compare the index with. By default it tokenises the way the reference system (RockBot) ranks
 * memories, which bench:locomo compares with: the text lower-cased and split into words at
 * anything that is not a letter or a digit, no stop words dropped, no stemming, no prefixes; the
 * speed benches pass `Bm25Index`'s own tokeniser (`tokens`), so both sides read the same terms. Pure.
 */
const K1 = 1.2;
const B = 0.75;

/** Lower case, split at anything but letters and digits. Pure. */
export function plainTokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token !== '');
}

export interface LinearBm25 {
  /** The ids of the best `limit` documents for `query`, best first (ties: the order documents were given). */
  search(query: string, limit: number): string[];
}

/** A linear-scan BM25 over `documents` (see above); `tokens` splits a text into terms (default `plainTokens`). */
export function linearBm25(
  documents: ReadonlyArray<{ id: string; text: string }>,
  { tokens: tokensOf = plainTokens }: { tokens?: (text: string) => string[] } = {},
): LinearBm25 {
  const docs = documents.map(({ id, text }) => {
    const counts = new Map<string, number>();
    const tokens = tokensOf(text);
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    return { id, counts, length: tokens.length };
  });
  const averageLength = docs.reduce((sum, doc) => sum + doc.length, 0) / (docs.length || 1) || 1;
  const df = new Map<string, number>();
  for (const doc of docs) for (const token of doc.counts.keys()) df.set(token, (df.get(token) ?? 0) + 1);
  const idf = (token: string) => {
    const n = df.get(token) ?? 0;
    return Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
  };
  return {
    search(query, limit) {
      const terms = [...new Set(tokensOf(query))].filter((token) => df.has(token));
      const scored: Array<{ id: string; score: number; order: number }> = [];
      docs.forEach((doc, order) => {
        let score = 0;
        for (const term of terms) {
          const tf = doc.counts.get(term) ?? 0;
          if (tf > 0) score += (idf(term) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / averageLength));
        }
        if (score > 0) scored.push({ id: doc.id, score, order });
      });
      return scored
        .sort((a, b) => b.score - a.score || a.order - b.order)
        .slice(0, limit)
        .map((hit) => hit.id);
    },
  };
}
