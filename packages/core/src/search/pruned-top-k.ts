import { B, K1, type Posting, RANGE_SHIFT, type RangeBounds } from './range-bounds';

/** A query term as a search scores it: its postings, `weight · idf`, and its impact bounds. */
export interface ScoredTerm {
  posting: Posting;
  factor: number;
  bounds: RangeBounds;
}

export interface TopKQuery {
  /** In the order their contributions are added to a document's score. */
  terms: readonly ScoredTerm[];
  limit: number;
  filter: ((id: string) => boolean) | undefined;
  /** `ids[doc]`, undefined for a deleted document. */
  ids: ReadonlyArray<string | undefined>;
  lengths: readonly number[];
  averageLength: number;
  /** What the bounds are multiplied by to hold at `averageLength` (see `impactScale`). */
  boundScale: number;
  /** Scratch space of at least `ids.length` slots: `scores` all 0, and left so. */
  scores: Float64Array;
  touched: Uint32Array;
}

/**
 * A bound is compared with the k-th best score only after this relative margin is added, so the
 * rounding of a sum in another order can never prune a document that would have entered.
 */
const BOUND_MARGIN = 1 + 1e-9;

/**
 * The `limit` best documents that pass `filter`, best first (ties: lower number first), with
 * exactly the scores an exhaustive search gives: documents are scored range by range of
 * document numbers, each range term by term in `terms` order (so every score is the same sum,
 * added in the same order), and a range is skipped without reading its postings once the bounds
 * of its terms' impacts cannot beat the k-th best score found so far: a document of a later range
 * has a higher number, so it would need a strictly higher score to enter.
 */
export function prunedTopK(query: TopKQuery): Array<{ doc: number; score: number }> {
  const { terms, limit } = query;
  if (!(limit >= 1) || terms.length === 0) return [];
  const heap = new TopKHeap(limit);
  const positions = new Uint32Array(terms.length);
  const boundScale = query.boundScale * BOUND_MARGIN;
  const ranges = (lastDocument(terms) >> RANGE_SHIFT) + 1;
  for (let range = 0; range < ranges; range++) {
    if (heap.full() && rangeBound(terms, positions, range) * boundScale <= heap.worstScore()) skipRange(terms, positions, range);
    else heap.offerAll(query, scoreRange(query, positions, range));
  }
  return heap.sorted();
}

/** The highest document number in the terms' postings. */
function lastDocument(terms: readonly ScoredTerm[]): number {
  let last = 0;
  for (const { posting } of terms) if (posting.length > 0 && posting.docs[posting.length - 1]! > last) last = posting.docs[posting.length - 1]!;
  return last;
}

/** An upper bound on the score of any document in `range`, before the bounds' scale. */
function rangeBound(terms: readonly ScoredTerm[], positions: Uint32Array, range: number): number {
  const rangeEnd = (range + 1) << RANGE_SHIFT;
  let bound = 0;
  for (let t = 0; t < terms.length; t++) {
    const { posting, bounds, factor } = terms[t]!;
    if (bounds.max.length > 0) bound += factor * bounds.max[range]!;
    else if (positions[t]! < posting.length && posting.docs[positions[t]!]! < rangeEnd) bound += factor * bounds.overall;
  }
  return bound;
}

/** Moves every term past `range` without reading its postings there. */
function skipRange(terms: readonly ScoredTerm[], positions: Uint32Array, range: number): void {
  for (let t = 0; t < terms.length; t++) positions[t] = endOfRange(terms[t]!, positions[t]!, range);
}

/**
 * Adds the contributions of every posting in `range` to `scores`, term by term in order, and
 * moves every term past it; returns how many documents it scored (listed in `touched`).
 */
function scoreRange(query: TopKQuery, positions: Uint32Array, range: number): number {
  const { terms, ids, lengths, averageLength, scores, touched } = query;
  let count = 0;
  for (let t = 0; t < terms.length; t++) {
    const term = terms[t]!;
    const { docs, freqs } = term.posting;
    const factor = term.factor;
    const end = endOfRange(term, positions[t]!, range);
    for (let p = positions[t]!; p < end; p++) {
      const doc = docs[p]!;
      if (ids[doc] === undefined) continue;
      const freq = freqs[p]!;
      const norm = freq + K1 * (1 - B + (B * lengths[doc]!) / averageLength);
      if (scores[doc] === 0) touched[count++] = doc;
      scores[doc]! += (factor * (freq * (K1 + 1))) / norm;
    }
    positions[t] = end;
  }
  return count;
}

/** The first posting of a term after `range` (its postings up to there start at `from`). */
function endOfRange({ posting, bounds }: ScoredTerm, from: number, range: number): number {
  if (bounds.start.length > 0) return bounds.start[range + 1]!;
  const rangeEnd = (range + 1) << RANGE_SHIFT;
  const { docs, length } = posting;
  let p = from;
  while (p < length && docs[p]! < rangeEnd) p++;
  return p;
}

/** The best documents seen so far: a min-heap (the worst at the root) by score, then document number. */
class TopKHeap {
  private readonly docs: Uint32Array;
  private readonly scores: Float64Array;
  private size = 0;

  constructor(private readonly limit: number) {
    this.docs = new Uint32Array(limit);
    this.scores = new Float64Array(limit);
  }

  full(): boolean {
    return this.size === this.limit;
  }

  worstScore(): number {
    return this.scores[0]!;
  }

  /** Takes the documents `scoreRange` scored (and clears their scores) that beat the worst kept and pass the filter. */
  offerAll({ scores, touched, ids, filter }: TopKQuery, count: number): void {
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!;
      const score = scores[doc]!;
      scores[doc] = 0;
      if (this.size === this.limit && !worse(this.scores[0]!, this.docs[0]!, score, doc)) continue;
      if (filter !== undefined && !filter(ids[doc]!)) continue;
      if (this.size < this.limit) this.siftUp(doc, score);
      else this.siftDown(doc, score);
    }
  }

  /** The documents kept, best first. */
  sorted(): Array<{ doc: number; score: number }> {
    const hits: Array<{ doc: number; score: number }> = [];
    for (let i = 0; i < this.size; i++) hits.push({ doc: this.docs[i]!, score: this.scores[i]! });
    return hits.sort((a, b) => b.score - a.score || a.doc - b.doc);
  }

  private siftUp(doc: number, score: number): void {
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(score, doc, this.scores[parent]!, this.docs[parent]!)) break;
      this.docs[i] = this.docs[parent]!;
      this.scores[i] = this.scores[parent]!;
      i = parent;
    }
    this.docs[i] = doc;
    this.scores[i] = score;
  }

  /** Replaces the root with a better document. */
  private siftDown(doc: number, score: number): void {
    const { docs, scores, size } = this;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && worse(scores[right]!, docs[right]!, scores[left]!, docs[left]!) ? right : left;
      if (!worse(scores[child]!, docs[child]!, score, doc)) break;
      docs[i] = docs[child]!;
      scores[i] = scores[child]!;
      i = child;
    }
    docs[i] = doc;
    scores[i] = score;
  }
}

/** Whether (score a, doc a) ranks below (score b, doc b). */
function worse(scoreA: number, docA: number, scoreB: number, docB: number): boolean {
  return scoreA < scoreB || (scoreA === scoreB && docA > docB);
}
