import { tokenize } from '@reverie/core';

/**
 * BM25 without an inverted index: every query scores every document from its term counts. The
 * same tokenisation and parameters as `Bm25Index` (k1 1.2, b 0.75), exact terms only.
 */
export class LinearScanBm25 {
  private readonly docs: Array<{ id: string; terms: Map<string, number>; length: number }>;
  private readonly df = new Map<string, number>();
  private readonly averageLength: number;

  constructor(documents: ReadonlyArray<{ id: string; text: string }>) {
    this.docs = documents.map(({ id, text }) => {
      const terms = new Map<string, number>();
      const tokens = tokenize(text);
      for (const token of tokens) terms.set(token, (terms.get(token) ?? 0) + 1);
      for (const term of terms.keys()) this.df.set(term, (this.df.get(term) ?? 0) + 1);
      return { id, terms, length: tokens.length };
    });
    this.averageLength = this.docs.reduce((sum, doc) => sum + doc.length, 0) / Math.max(1, this.docs.length);
  }

  search(query: string, limit: number): Array<{ id: string; score: number }> {
    const terms = [...new Set(tokenize(query))];
    const n = this.docs.length;
    const idf = terms.map((term) => Math.log(1 + (n - (this.df.get(term) ?? 0) + 0.5) / ((this.df.get(term) ?? 0) + 0.5)));
    const hits: Array<{ id: string; score: number }> = [];
    for (const doc of this.docs) {
      let score = 0;
      terms.forEach((term, i) => {
        const freq = doc.terms.get(term);
        if (freq) score += (idf[i]! * freq * 2.2) / (freq + 1.2 * (0.25 + (0.75 * doc.length) / this.averageLength));
      });
      if (score > 0) hits.push({ id: doc.id, score });
    }
    return hits.sort((a, b) => b.score - a.score).slice(0, limit);
  }
}
