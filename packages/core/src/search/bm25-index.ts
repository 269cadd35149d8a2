import { tokenize } from './stop-words';

export interface Bm25Hit {
  id: string;
  /** BM25 score: higher is better, comparable only within one result list. */
  score: number;
}

export interface Bm25SearchOptions {
  /** Keep only documents for which this returns true (applied before the limit). */
  filter?: (id: string) => boolean;
  /** At most this many hits, best first (default: all). */
  limit?: number;
  /** Also match longer terms that query terms begin, at reduced weight (default true). */
  prefix?: boolean;
  /**
   * Query with only this many of the query's terms: the rarest ones in the index, which carry
   * most of the BM25 score. For long queries such as a whole entry's content (default: all).
   */
  maxTerms?: number;
  /**
   * With `maxTerms`: leave out terms found in more than this share of the documents (0–1) and
   * in more than 256 of them, as long as at least three terms remain. Their postings are the
   * longest and their weight the smallest, so this bounds what a query reads however large the
   * index grows; small indexes are not affected.
   */
  maxDocumentShare?: number;
}

/** BM25 parameters (the usual Okapi defaults). */
const K1 = 1.2;
const B = 0.75;
/** Query terms of at least this many characters also match longer terms they begin. */
const PREFIX_MIN_LENGTH = 4;
/** A prefix expands to at most this many vocabulary terms, in alphabetical order. */
const PREFIX_MAX_EXPANSIONS = 24;
/** `maxDocumentShare` never leaves out a term found in this many documents or fewer. */
const COMMON_TERM_FLOOR = 256;
/** A term matched as a prefix of a longer term counts this much of an exact match. */
const PREFIX_WEIGHT = 0.4;

interface Posting {
  docs: number[];
  freqs: number[];
  /** Live documents containing the term. */
  df: number;
}

/**
 * A BM25 full-text index over `(id, text)` pairs (SPEC M3), written for recall at the scale of a
 * long-lived agent: an inverted index of term → (document, frequency) lists, scored into a dense
 * accumulator and cut to the top hits with a heap, so a query costs in proportion to the
 * postings of its terms, not to the size of the index. Measured against minisearch in
 * `docs/benchmarks.md`: minisearch builds a match record for every matching document, which
 * made p99 ~100 ms at 100k entries; this index answers the same queries in a few ms.
 *
 * Terms are lower-cased with English stop words removed (`tokenize`); query terms of four or
 * more characters also match longer terms as prefixes ("deploy" finds "deployment") at reduced
 * weight; terms are OR-ed. Pure and synchronous: it holds only text, never records.
 */
export class Bm25Index {
  private readonly numberOf = new Map<string, number>();
  private ids: Array<string | undefined> = [];
  private lengths: number[] = [];
  private terms: Array<Map<string, number> | undefined> = [];
  private postings = new Map<string, Posting>();
  /** Every term in the index, sorted, for prefix expansion… */
  private vocabulary: string[] = [];
  /** …except the terms added since the last search, merged in when a search needs them. */
  private newTerms: string[] = [];
  private liveCount = 0;
  private totalLength = 0;
  private scores = new Float64Array(0);
  private readonly texts = new Map<string, string>();

  get size(): number {
    return this.liveCount;
  }

  has(id: string): boolean {
    return this.numberOf.has(id);
  }

  /** Adds a document, or replaces the text of one already indexed. */
  set(id: string, text: string): void {
    if (this.texts.get(id) === text) return;
    if (this.numberOf.has(id)) this.delete(id);
    const counts = new Map<string, number>();
    for (const term of tokenize(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
    const doc = this.ids.length;
    this.ids.push(id);
    this.terms.push(counts);
    let length = 0;
    for (const [term, freq] of counts) {
      length += freq;
      let posting = this.postings.get(term);
      if (!posting) {
        posting = { docs: [], freqs: [], df: 0 };
        this.postings.set(term, posting);
        this.newTerms.push(term);
      }
      posting.docs.push(doc);
      posting.freqs.push(freq);
      posting.df += 1;
    }
    this.lengths.push(length);
    this.numberOf.set(id, doc);
    this.texts.set(id, text);
    this.liveCount += 1;
    this.totalLength += length;
  }

  /** Adds many documents at once. */
  setAll(documents: Iterable<{ id: string; text: string }>): void {
    for (const { id, text } of documents) this.set(id, text);
  }

  delete(id: string): boolean {
    const doc = this.numberOf.get(id);
    if (doc === undefined) return false;
    for (const term of this.terms[doc]!.keys()) this.postings.get(term)!.df -= 1;
    this.totalLength -= this.lengths[doc]!;
    this.ids[doc] = undefined;
    this.terms[doc] = undefined;
    this.numberOf.delete(id);
    this.texts.delete(id);
    this.liveCount -= 1;
    if (this.ids.length > 1024 && this.liveCount < this.ids.length / 2) this.compact();
    return true;
  }

  clear(): void {
    this.numberOf.clear();
    this.texts.clear();
    this.ids = [];
    this.lengths = [];
    this.terms = [];
    this.postings = new Map();
    this.vocabulary = [];
    this.newTerms = [];
    this.liveCount = 0;
    this.totalLength = 0;
  }

  search(query: string, options: Bm25SearchOptions = {}): Bm25Hit[] {
    let queryTerms = [...new Set(tokenize(query))];
    if (options.maxTerms !== undefined) queryTerms = this.rarest(queryTerms, options.maxTerms, options.maxDocumentShare);
    if (queryTerms.length === 0 || this.liveCount === 0) return [];
    if (this.scores.length < this.ids.length) this.scores = new Float64Array(Math.max(this.ids.length, this.scores.length * 2));
    const scores = this.scores;
    const touched: number[] = [];
    const averageLength = this.totalLength / this.liveCount || 1;

    const weighted = options.prefix === false ? new Map(queryTerms.filter((term) => this.postings.has(term)).map((term) => [term, 1])) : this.expand(queryTerms);
    for (const [term, weight] of weighted) {
      const posting = this.postings.get(term)!;
      if (posting.df === 0) continue;
      const idf = Math.log(1 + (this.liveCount - posting.df + 0.5) / (posting.df + 0.5));
      const { docs, freqs } = posting;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i]!;
        if (this.ids[doc] === undefined) continue;
        const freq = freqs[i]!;
        const norm = freq + K1 * (1 - B + (B * this.lengths[doc]!) / averageLength);
        if (scores[doc] === 0) touched.push(doc);
        scores[doc]! += (weight * idf * (freq * (K1 + 1))) / norm;
      }
    }

    const limit = options.limit ?? touched.length;
    const hits = this.topHits(touched, limit, options.filter);
    for (const doc of touched) scores[doc] = 0;
    return hits;
  }

  /**
   * The `count` terms found in the fewest live documents, without those in more than
   * `maxShare` of them unless fewer than three would be left (terms not in the index are dropped).
   */
  private rarest(terms: readonly string[], count: number, maxShare = 1): string[] {
    const ranked = terms
      .map((term) => ({ term, df: this.postings.get(term)?.df ?? 0 }))
      .filter((term) => term.df > 0)
      .sort((a, b) => a.df - b.df || (a.term < b.term ? -1 : 1));
    const limit = Math.max(COMMON_TERM_FLOOR, maxShare * this.liveCount);
    const kept = Math.max(Math.min(3, ranked.length), ranked.filter((term) => term.df <= limit).length);
    return ranked.slice(0, Math.min(count, kept)).map((term) => term.term);
  }

  /** Each query term with weight 1, plus (for long enough terms) the terms it prefixes. */
  private expand(queryTerms: readonly string[]): Map<string, number> {
    if (this.newTerms.length > 0) this.mergeNewTerms();
    const weights = new Map<string, number>();
    for (const term of queryTerms) {
      if (this.postings.has(term)) weights.set(term, 1);
      if (term.length < PREFIX_MIN_LENGTH) continue;
      let expansions = 0;
      for (let i = lowerBound(this.vocabulary, term); i < this.vocabulary.length && expansions < PREFIX_MAX_EXPANSIONS; i++) {
        const candidate = this.vocabulary[i]!;
        if (!candidate.startsWith(term)) break;
        if (candidate === term) continue;
        expansions += 1;
        if (!weights.has(candidate)) weights.set(candidate, PREFIX_WEIGHT);
      }
    }
    return weights;
  }

  /**
   * The best `limit` documents that pass `filter`. Looks at the highest-scoring candidates
   * first and widens only when the filter rejects too many, so a filter costs little.
   */
  private topHits(touched: readonly number[], limit: number, filter?: (id: string) => boolean): Bm25Hit[] {
    const byScore = (a: number, b: number) => this.scores[b]! - this.scores[a]! || a - b;
    let window = filter ? Math.max(limit * 4, 32) : limit;
    for (;;) {
      const candidates = window >= touched.length ? [...touched].sort(byScore) : topK(touched, window, this.scores);
      const hits: Bm25Hit[] = [];
      for (const doc of candidates) {
        const id = this.ids[doc]!;
        if (filter && !filter(id)) continue;
        hits.push({ id, score: this.scores[doc]! });
        if (hits.length >= limit) return hits;
      }
      if (window >= touched.length) return hits;
      window *= 8;
    }
  }

  private mergeNewTerms(): void {
    const added = this.newTerms.sort();
    const merged: string[] = new Array(this.vocabulary.length + added.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < this.vocabulary.length || j < added.length) {
      if (j >= added.length || (i < this.vocabulary.length && this.vocabulary[i]! < added[j]!)) merged[k++] = this.vocabulary[i++]!;
      else merged[k++] = added[j++]!;
    }
    this.vocabulary = merged;
    this.newTerms = [];
  }

  /** Renumbers documents without the deleted ones, once they outnumber the live ones. */
  private compact(): void {
    const live: Array<[string, string]> = [];
    for (const [id, text] of this.texts) live.push([id, text]);
    this.clear();
    for (const [id, text] of live) this.set(id, text);
  }
}

/** Index of the first element >= value in a sorted array. */
function lowerBound(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The `k` documents with the highest scores, best first (ties: lower number first), via a min-heap. */
function topK(docs: readonly number[], k: number, scores: Float64Array): number[] {
  const heap: number[] = [];
  const worse = (a: number, b: number) => scores[a]! < scores[b]! || (scores[a] === scores[b] && a > b);
  const siftUp = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  };
  const siftDown = (i: number) => {
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && worse(heap[left]!, heap[smallest]!)) smallest = left;
      if (right < heap.length && worse(heap[right]!, heap[smallest]!)) smallest = right;
      if (smallest === i) return;
      [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
      i = smallest;
    }
  };
  for (const doc of docs) {
    if (heap.length < k) {
      heap.push(doc);
      siftUp(heap.length - 1);
    } else if (worse(heap[0]!, doc)) {
      heap[0] = doc;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => scores[b]! - scores[a]! || a - b);
}
