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
  const { terms, filter, ids, lengths, averageLength, scores, touched } = query;
  const limit = query.limit;
  if (!(limit >= 1) || terms.length === 0) return [];
  const heapDocs = new Uint32Array(limit);
  const heapScores = new Float64Array(limit);
  let size = 0;
  const positions = new Uint32Array(terms.length);
  const boundScale = query.boundScale * BOUND_MARGIN;
  let lastDoc = 0;
  for (const { posting } of terms) if (posting.length > 0 && posting.docs[posting.length - 1]! > lastDoc) lastDoc = posting.docs[posting.length - 1]!;
  const ranges = (lastDoc >> RANGE_SHIFT) + 1;

  for (let range = 0; range < ranges; range++) {
    const rangeEnd = (range + 1) << RANGE_SHIFT;
    if (size === limit) {
      let bound = 0;
      for (let t = 0; t < terms.length; t++) {
        const { posting, bounds, factor } = terms[t]!;
        if (bounds.max !== undefined) bound += factor * bounds.max[range]!;
        else if (positions[t]! < posting.length && posting.docs[positions[t]!]! < rangeEnd) bound += factor * bounds.overall;
      }
      if (bound * boundScale <= heapScores[0]!) {
        for (let t = 0; t < terms.length; t++) positions[t] = endOfRange(terms[t]!, positions[t]!, range, rangeEnd);
        continue;
      }
    }

    let count = 0;
    for (let t = 0; t < terms.length; t++) {
      const { posting, factor } = terms[t]!;
      const { docs, freqs } = posting;
      const end = endOfRange(terms[t]!, positions[t]!, range, rangeEnd);
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

    for (let i = 0; i < count; i++) {
      const doc = touched[i]!;
      const score = scores[doc]!;
      scores[doc] = 0;
      if (size === limit && !(score > heapScores[0]! || (score === heapScores[0]! && doc < heapDocs[0]!))) continue;
      if (filter && !filter(ids[doc]!)) continue;
      if (size < limit) size = siftUp(heapDocs, heapScores, size, doc, score);
      else siftDown(heapDocs, heapScores, size, doc, score);
    }
  }

  const hits: Array<{ doc: number; score: number }> = [];
  for (let i = 0; i < size; i++) hits.push({ doc: heapDocs[i]!, score: heapScores[i]! });
  return hits.sort((a, b) => b.score - a.score || a.doc - b.doc);
}

/** The first posting of a term after `range` (its postings up to there start at `from`). */
function endOfRange({ posting, bounds }: ScoredTerm, from: number, range: number, rangeEnd: number): number {
  if (bounds.start !== undefined) return bounds.start[range + 1]!;
  const { docs, length } = posting;
  let p = from;
  while (p < length && docs[p]! < rangeEnd) p++;
  return p;
}

/** Whether (score a, doc a) ranks below (score b, doc b). */
function worse(scoreA: number, docA: number, scoreB: number, docB: number): boolean {
  return scoreA < scoreB || (scoreA === scoreB && docA > docB);
}

/** Adds a document to a min-heap (worst at the root) of `size` entries; returns the new size. */
function siftUp(docs: Uint32Array, scores: Float64Array, size: number, doc: number, score: number): number {
  let i = size;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!worse(score, doc, scores[parent]!, docs[parent]!)) break;
    docs[i] = docs[parent]!;
    scores[i] = scores[parent]!;
    i = parent;
  }
  docs[i] = doc;
  scores[i] = score;
  return size + 1;
}

/** Replaces the root of a full min-heap with a better document. */
function siftDown(docs: Uint32Array, scores: Float64Array, size: number, doc: number, score: number): void {
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
