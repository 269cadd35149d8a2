import MiniSearch from 'minisearch';
import { normaliseTerm } from './stop-words';

export interface Bm25Hit {
  id: string;
  /** Raw BM25 score: higher is better, comparable only within one result list. */
  score: number;
}

export interface Bm25SearchOptions {
  /** Keep only documents for which this returns true (applied before the limit). */
  filter?: (id: string) => boolean;
  /** At most this many hits, best first. */
  limit?: number;
}

interface IndexedDocument {
  id: string;
  text: string;
}

/**
 * A BM25 full-text index over `(id, text)` pairs, backed by minisearch. It holds no records,
 * only their text, so a store keeps it beside whatever it stores. Pure and synchronous: the
 * caller decides when to build it and serialises access to it.
 *
 * Terms are lower-cased with English stop words removed; query terms of four or more
 * characters also match as prefixes ("deploy" finds "deployment"), and all terms are OR-ed.
 */
export class Bm25Index {
  private readonly search_: MiniSearch<IndexedDocument>;
  private readonly texts = new Map<string, string>();

  constructor() {
    this.search_ = new MiniSearch<IndexedDocument>({
      fields: ['text'],
      idField: 'id',
      processTerm: normaliseTerm,
      searchOptions: {
        combineWith: 'OR',
        prefix: (term) => term.length >= 4,
        weights: { fuzzy: 0.45, prefix: 0.375 },
      },
    });
  }

  get size(): number {
    return this.texts.size;
  }

  has(id: string): boolean {
    return this.texts.has(id);
  }

  /** Adds a document, or replaces the text of one already indexed. */
  set(id: string, text: string): void {
    const previous = this.texts.get(id);
    if (previous === text) return;
    if (previous !== undefined) this.search_.discard(id);
    this.search_.add({ id, text });
    this.texts.set(id, text);
  }

  /** Adds many documents at once; faster than `set` in a loop for a cold build. */
  setAll(documents: Iterable<{ id: string; text: string }>): void {
    for (const { id, text } of documents) this.set(id, text);
  }

  delete(id: string): boolean {
    if (!this.texts.has(id)) return false;
    this.search_.discard(id);
    this.texts.delete(id);
    return true;
  }

  clear(): void {
    this.search_.removeAll();
    this.texts.clear();
  }

  search(query: string, options: Bm25SearchOptions = {}): Bm25Hit[] {
    if (!query.trim()) return [];
    const filter = options.filter;
    const results = this.search_.search(query, filter ? { filter: (result) => filter(String(result.id)) } : {});
    const limit = options.limit ?? results.length;
    const hits: Bm25Hit[] = [];
    for (const result of results) {
      if (hits.length >= limit) break;
      hits.push({ id: String(result.id), score: result.score });
    }
    return hits;
  }
}
