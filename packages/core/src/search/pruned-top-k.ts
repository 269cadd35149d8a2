import { termScore } from './bm25-scoring';
import { type Posting, RANGE_SHIFT, type RangeBounds } from './range-bounds';

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
 * The `limit` best documents, best first (ties: lower number first), with
 * exactly the scores an exhaustive search gives (every score is the same sum, added in `terms`
 * order), reading only part of the postings:
 *
 * - documents are taken range by range of document numbers, and a range is skipped unread once
 *   the bounds of its terms' impacts cannot beat the k-th best score found so far: a document of
 *   a later range has a higher number, so it would need a strictly higher score to enter;
 * - in a range that is read, the terms whose bounds add up to no more than that score cannot
 *   bring a document in on their own (MaxScore): documents are taken from the other terms'
 *   postings only, and the first terms are looked up for a document only while its score so far
 *   plus their bounds could still beat the k-th.
 */
export function prunedTopK(query: TopKQuery): Array<{ doc: number; score: number }> {
  const { terms, limit } = query;
  if (!(limit >= 1) || terms.length === 0) return [];
  const heap = new TopKHeap(limit);
  const cursor: RangeCursor = {
    positions: new Uint32Array(terms.length),
    ends: new Uint32Array(terms.length),
    bounds: new Float64Array(terms.length),
    byBound: byOverallBound(terms),
    contributions: new Float64Array(terms.length),
    optionalBound: new Float64Array(terms.length + 1),
  };
  const boundScale = query.boundScale * BOUND_MARGIN;
  const ranges = (lastDocument(terms) >> RANGE_SHIFT) + 1;
  for (let range = 0; range < ranges; range++) {
    if (!heap.full()) {
      heap.offerAll(query, scoreRange(query, cursor.positions, range));
      continue;
    }
    const worst = heap.worstScore();
    if (rangeBounds(terms, cursor, range, boundScale) <= worst) {
      skipRange(terms, cursor.positions, range);
      continue;
    }
    const optional = optionalTerms(cursor, worst);
    if (optional > 0 && lookupsPayOff(terms, cursor, range, optional)) scoreEssential(query, cursor, optional, heap);
    else heap.offerAll(query, scoreRange(query, cursor.positions, range));
  }
  return heap.sorted();
}

/** Where a search is in each term's postings, and scratch space for the range it reads. */
interface RangeCursor {
  /** The next posting of each term. */
  positions: Uint32Array;
  /** The first posting of each term after the range being read. */
  ends: Uint32Array;
  /** Each term's bound in the range being read, scaled. */
  bounds: Float64Array;
  /** Term indexes by increasing bound over all their postings. */
  byBound: Uint32Array;
  /** A document's contribution from each term (0: none); all 0 between documents. */
  contributions: Float64Array;
  /** `optionalBound[i]`: the sum of the bounds of the first `i` optional terms, added as a bound is. */
  optionalBound: Float64Array;
}

/**
 * Reading a document of the essential terms' postings and looking it up in the others costs
 * several times as much as adding one posting to the accumulator: per document, every term is
 * visited three times. Worth it only when the optional terms hold this many times as many
 * postings in the range as the essential ones, so that most of them are skipped.
 */
const LOOKUP_COST = 4;

/**
 * Whether `scoreEssential` reads less than `scoreRange` would in `range`: sets `cursor.ends` to
 * each term's first posting after the range, and compares the postings of the optional terms
 * (first `optional` by bound) with those of the essential ones.
 */
function lookupsPayOff(terms: readonly ScoredTerm[], cursor: RangeCursor, range: number, optional: number): boolean {
  const { positions, ends, byBound } = cursor;
  let optionalPostings = 0;
  let essentialPostings = 0;
  for (let i = 0; i < byBound.length; i++) {
    const t = byBound[i]!;
    ends[t] = endOfRange(terms[t]!, positions[t]!, range);
    if (i < optional) optionalPostings += ends[t]! - positions[t]!;
    else essentialPostings += ends[t]! - positions[t]!;
  }
  return optionalPostings > LOOKUP_COST * essentialPostings;
}

/** The highest document number in the terms' postings. */
function lastDocument(terms: readonly ScoredTerm[]): number {
  let last = 0;
  for (const { posting } of terms) if (posting.length > 0 && posting.docs[posting.length - 1]! > last) last = posting.docs[posting.length - 1]!;
  return last;
}

/** Term indexes by increasing `factor · overall` bound. */
function byOverallBound(terms: readonly ScoredTerm[]): Uint32Array {
  const order = Uint32Array.from(terms.keys());
  const bound = (t: number) => terms[t]!.factor * terms[t]!.bounds.overall;
  return order.sort((a, b) => bound(a) - bound(b));
}

/** Each term's bound in `range` (into `cursor.bounds`), and their sum: no document of the range scores more. */
function rangeBounds(terms: readonly ScoredTerm[], cursor: RangeCursor, range: number, scale: number): number {
  const rangeEnd = (range + 1) << RANGE_SHIFT;
  const { positions, bounds } = cursor;
  let total = 0;
  for (let t = 0; t < terms.length; t++) {
    const { posting, bounds: impact, factor } = terms[t]!;
    let bound = 0;
    if (impact.max.length > 0) bound = factor * impact.max[range]! * scale;
    else if (positions[t]! < posting.length && posting.docs[positions[t]!]! < rangeEnd) bound = factor * impact.overall * scale;
    bounds[t] = bound;
    total += bound;
  }
  return total;
}

/**
 * How many terms, first by `cursor.byBound`, cannot bring a document of the range in on their
 * own: their bounds add up to no more than the k-th best score.
 */
function optionalTerms({ bounds, byBound }: RangeCursor, worst: number): number {
  let sum = 0;
  let count = 0;
  while (count < byBound.length && sum + bounds[byBound[count]!]! <= worst) sum += bounds[byBound[count++]!]!;
  return count;
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
      if (scores[doc] === 0) touched[count++] = doc;
      scores[doc]! += termScore(factor, freqs[p]!, lengths[doc]!, averageLength);
    }
    positions[t] = end;
  }
  return count;
}

/**
 * Reads a range (up to `cursor.ends`, see `lookupsPayOff`) document by document, taking
 * documents only from the postings of the terms after the first `optional` ones (by bound), and
 * looking those up, largest bound first, only while the document could still beat the k-th best
 * score. Then moves every term past the range.
 */
function scoreEssential(query: TopKQuery, cursor: RangeCursor, optional: number, heap: TopKHeap): void {
  const { terms, ids, lengths, averageLength } = query;
  const { positions, ends, bounds, byBound, contributions, optionalBound } = cursor;
  for (let i = 0; i < optional; i++) optionalBound[i + 1] = optionalBound[i]! + bounds[byBound[i]!]!;
  for (;;) {
    let doc = -1;
    for (let i = optional; i < byBound.length; i++) {
      const t = byBound[i]!;
      if (positions[t]! < ends[t]!) {
        const next = terms[t]!.posting.docs[positions[t]!]!;
        if (doc < 0 || next < doc) doc = next;
      }
    }
    if (doc < 0) break;
    const live = ids[doc] !== undefined;
    let partial = 0;
    for (let i = optional; i < byBound.length; i++) {
      const t = byBound[i]!;
      const { docs, freqs } = terms[t]!.posting;
      if (positions[t]! >= ends[t]! || docs[positions[t]!] !== doc) continue;
      if (live) {
        contributions[t] = termScore(terms[t]!.factor, freqs[positions[t]!]!, lengths[doc]!, averageLength);
        partial += contributions[t]!;
      }
      positions[t]! += 1;
    }
    if (!live) continue;
    let candidate = true;
    for (let i = optional - 1; i >= 0; i--) {
      if ((partial + optionalBound[i + 1]!) * BOUND_MARGIN <= heap.worstScore()) {
        candidate = false;
        break;
      }
      const t = byBound[i]!;
      const { docs, freqs } = terms[t]!.posting;
      let p = positions[t]!;
      while (p < ends[t]! && docs[p]! < doc) p++;
      positions[t] = p;
      if (p < ends[t]! && docs[p] === doc) {
        contributions[t] = termScore(terms[t]!.factor, freqs[p]!, lengths[doc]!, averageLength);
        partial += contributions[t]!;
      }
    }
    let score = 0;
    for (let t = 0; t < terms.length; t++) {
      if (contributions[t]! > 0) score += contributions[t]!;
      contributions[t] = 0;
    }
    if (candidate) heap.offer(doc, score);
  }
  for (let t = 0; t < terms.length; t++) positions[t] = ends[t]!;
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

  /** Takes the documents `scoreRange` scored (and clears their scores) that beat the worst kept. */
  offerAll(query: TopKQuery, count: number): void {
    const { scores, touched } = query;
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!;
      const score = scores[doc]!;
      scores[doc] = 0;
      this.offer(doc, score);
    }
  }

  /** Keeps a document if it beats the worst kept. */
  offer(doc: number, score: number): void {
    if (this.size === this.limit && !worse(this.scores[0]!, this.docs[0]!, score, doc)) return;
    if (this.size < this.limit) this.siftUp(doc, score);
    else this.siftDown(doc, score);
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
