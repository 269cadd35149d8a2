// Over 400 lines on purpose: the pruned top-k walk is one algorithm whose bounds, margins and cursor
// moves must be read together to see that it never drops a document the exhaustive path would keep.
import { termScore } from './bm25-scoring';
import { type Posting, RANGE_SHIFT, type RangeBounds } from './range-bounds';

/**
 * A bound is compared with the k-th best score only after this relative margin is added, so the
 * rounding of a sum in another order can never prune a document that would have entered.
 */
const BOUND_MARGIN = 1 + 1e-9;

/**
 * Reading a document of the essential terms' postings and looking it up in the others costs
 * several times as much as adding one posting to the accumulator: per document, every term is
 * visited three times. Worth it only when the optional terms hold this many times as many
 * postings in the range as the essential ones, so that most of them are skipped.
 */
const LOOKUP_COST = 4;

/**
 * The `limit` best documents of a query, best first (ties: lower number first), with exactly the
 * scores an exhaustive search gives (every score is the same sum, added in the order the terms
 * were added), reading only part of the postings:
 *
 * - documents are taken range by range of document numbers, and a range is skipped unread once
 *   the bounds of its terms' impacts cannot beat the k-th best score found so far: a document of
 *   a later range has a higher number, so it would need a strictly higher score to enter;
 * - in a range that is read, the terms whose bounds add up to no more than that score cannot
 *   bring a document in on their own (MaxScore): documents are taken from the other terms'
 *   postings only, and the first terms are looked up for a document only while its score so far
 *   plus their bounds could still beat the k-th.
 *
 * An index keeps one and reuses it for every search (`begin`, `addTerm`…, `top`): everything the
 * loops read is a field of this object, a typed array or a posting, so their shapes never change
 * and stay alive between searches. Objects made afresh for each search would let a garbage
 * collection between two searches discard their hidden classes, and with them the optimised code
 * of these loops, which the first searches of a process then run unoptimised again.
 */
export class PrunedTopK {
  /** The query terms, in the order their contributions are added to a document's score… */
  private readonly postings: Posting[] = [];
  /** …each one's impact bounds… */
  private readonly impacts: RangeBounds[] = [];
  /** …and its `weight · idf`. */
  private factors = new Float64Array(INITIAL_TERMS);
  private termCount = 0;

  /** `ids[doc]`, undefined for a deleted document. */
  private ids: ReadonlyArray<string | undefined> = NO_DOCUMENTS;
  private lengths: readonly number[] = NO_LENGTHS;
  /** Both doubles from the start (a field that holds a small integer first changes shape later). */
  private averageLength = Number.NaN;
  /** What the bounds are multiplied by: to hold at `averageLength` (see `impactScale`), and `BOUND_MARGIN`. */
  private boundScale = Number.NaN;
  /** Scratch space of at least `ids.length` slots: `scores` all 0, and left so. */
  private scores: Float64Array = new Float64Array(0);
  private touched: Uint32Array = new Uint32Array(0);

  /** Per term: the next posting. */
  private positions = new Uint32Array(INITIAL_TERMS);
  /** Per term: the first posting after the range being read (see `lookupsPayOff`). */
  private ends = new Uint32Array(INITIAL_TERMS);
  /** Per term: its bound in the range being read, scaled. */
  private rangeBound = new Float64Array(INITIAL_TERMS);
  /** Term indexes by increasing bound over all their postings. */
  private byBound = new Uint32Array(INITIAL_TERMS);
  /** A document's contribution from each term (0: none); all 0 between documents. */
  private contributions = new Float64Array(INITIAL_TERMS);
  /** `optionalBound[i]`: the sum of the bounds of the first `i` optional terms, added as a bound is. */
  private optionalBound = new Float64Array(INITIAL_TERMS + 1);

  /** The best documents seen so far: a min-heap (the worst at the root) by score, then document number. */
  private heapDocs = new Uint32Array(0);
  private heapScores = new Float64Array(0);
  private heapSize = 0;
  private limit = 0;

  /**
   * Starts a search over documents numbered 0…`ids.length - 1`, of these lengths. `boundScale`
   * is what impact bounds are multiplied by to hold at `averageLength` (see `impactScale`).
   */
  begin(
    ids: ReadonlyArray<string | undefined>,
    lengths: readonly number[],
    averageLength: number,
    boundScale: number,
    scores: Float64Array,
    touched: Uint32Array,
  ): void {
    this.ids = ids;
    this.lengths = lengths;
    this.averageLength = averageLength;
    this.boundScale = boundScale * BOUND_MARGIN;
    this.scores = scores;
    this.touched = touched;
    this.termCount = 0;
  }

  /** Adds a query term, after those added before it in the order of the sum. */
  addTerm(posting: Posting, factor: number, impact: RangeBounds): void {
    const t = this.termCount++;
    if (t === this.factors.length) this.growTerms();
    this.postings[t] = posting;
    this.impacts[t] = impact;
    this.factors[t] = factor;
  }

  /** The `limit` best documents for the terms added since `begin`, best first, with their scores. */
  top(limit: number): Array<{ doc: number; score: number }> {
    if (!(limit >= 1) || this.termCount === 0) return [];
    this.reset(limit);
    const ranges = (this.lastDocument() >> RANGE_SHIFT) + 1;
    // This loop visits only the ranges that are read, and calls small methods that are optimised
    // after a few calls each, so it costs little while it is still interpreted.
    for (let range = 0; range < ranges; range++) {
      if (this.heapSize === this.limit) {
        const worst = this.heapScores[0]!;
        range = this.skipRanges(range, ranges, worst);
        if (range === ranges) break;
        const optional = this.optionalTerms(worst);
        if (optional > 0 && this.lookupsPayOff(range, optional)) {
          this.scoreEssential(optional);
          continue;
        }
      }
      this.offerScored(this.scoreRange(range));
    }
    const hits = this.sorted();
    // Only the shapes are kept between searches, not the index's arrays.
    this.postings.length = 0;
    this.impacts.length = 0;
    this.ids = NO_DOCUMENTS;
    this.lengths = NO_LENGTHS;
    return hits;
  }

  /** Empties the heap for `limit` documents and puts every term at its first posting. */
  private reset(limit: number): void {
    if (this.heapDocs.length < limit) {
      this.heapDocs = new Uint32Array(limit);
      this.heapScores = new Float64Array(limit);
    }
    this.heapSize = 0;
    this.limit = limit;
    const count = this.termCount;
    this.positions.fill(0, 0, count);
    this.contributions.fill(0, 0, count);
    const order = this.byBound.subarray(0, count);
    for (let t = 0; t < count; t++) order[t] = t;
    const bound = (t: number) => this.factors[t]! * this.impacts[t]!.overall;
    order.sort((a, b) => bound(a) - bound(b));
  }

  /** Doubles the room for terms (while they are added: only the factors hold anything yet). */
  private growTerms(): void {
    const room = this.factors.length * 2;
    const factors = new Float64Array(room);
    factors.set(this.factors);
    this.factors = factors;
    this.rangeBound = new Float64Array(room);
    this.contributions = new Float64Array(room);
    this.optionalBound = new Float64Array(room + 1);
    this.positions = new Uint32Array(room);
    this.ends = new Uint32Array(room);
    this.byBound = new Uint32Array(room);
  }

  /** The highest document number in the terms' postings. */
  private lastDocument(): number {
    let last = 0;
    for (let t = 0; t < this.termCount; t++) {
      const { docs, length } = this.postings[t]!;
      if (length > 0 && docs[length - 1]! > last) last = docs[length - 1]!;
    }
    return last;
  }

  /**
   * Moves every term past the ranges from `range` on whose bounds cannot beat `worst`, and returns
   * the first range that can (with its bounds in `rangeBound`), or `ranges` when none is left.
   */
  private skipRanges(range: number, ranges: number, worst: number): number {
    for (; range < ranges; range++) {
      if (this.boundRange(range) > worst) return range;
      this.skipRange(range);
    }
    return ranges;
  }

  /** Each term's bound in `range` (into `rangeBound`), and their sum: no document of the range scores more. */
  private boundRange(range: number): number {
    const rangeEnd = (range + 1) << RANGE_SHIFT;
    const { positions, rangeBound, postings, impacts, factors, boundScale } = this;
    let total = 0;
    for (let t = 0; t < this.termCount; t++) {
      const impact = impacts[t]!;
      const posting = postings[t]!;
      let bound = 0;
      if (impact.max.length > 0) bound = factors[t]! * impact.max[range]! * boundScale;
      else if (positions[t]! < posting.length && posting.docs[positions[t]!]! < rangeEnd) bound = factors[t]! * impact.overall * boundScale;
      rangeBound[t] = bound;
      total += bound;
    }
    return total;
  }

  /** Moves every term past `range` without reading its postings there. */
  private skipRange(range: number): void {
    const { positions } = this;
    for (let t = 0; t < this.termCount; t++) positions[t] = this.endOfRange(t, positions[t]!, range);
  }

  /**
   * How many terms, first by `byBound`, cannot bring a document of the range in on their own:
   * their bounds add up to no more than the k-th best score.
   */
  private optionalTerms(worst: number): number {
    const { rangeBound, byBound } = this;
    let sum = 0;
    let count = 0;
    while (count < this.termCount && sum + rangeBound[byBound[count]!]! <= worst) sum += rangeBound[byBound[count++]!]!;
    return count;
  }

  /**
   * Whether `scoreEssential` reads less than `scoreRange` would in `range`: sets `ends` to each
   * term's first posting after the range, and compares the postings of the optional terms (first
   * `optional` by bound) with those of the essential ones.
   */
  private lookupsPayOff(range: number, optional: number): boolean {
    const { positions, ends, byBound } = this;
    let optionalPostings = 0;
    let essentialPostings = 0;
    for (let i = 0; i < this.termCount; i++) {
      const t = byBound[i]!;
      ends[t] = this.endOfRange(t, positions[t]!, range);
      if (i < optional) optionalPostings += ends[t]! - positions[t]!;
      else essentialPostings += ends[t]! - positions[t]!;
    }
    return optionalPostings > LOOKUP_COST * essentialPostings;
  }

  /**
   * Adds the contributions of every posting in `range` to `scores`, term by term in order, and
   * moves every term past it; returns how many documents it scored (listed in `touched`).
   */
  private scoreRange(range: number): number {
    const { positions } = this;
    let count = 0;
    for (let t = 0; t < this.termCount; t++) {
      const end = this.endOfRange(t, positions[t]!, range);
      count = this.addPostings(t, positions[t]!, end, count);
      positions[t] = end;
    }
    return count;
  }

  /** Adds the contributions of term `t`'s postings `from`…`end - 1`; returns how many documents `touched` lists now. */
  private addPostings(t: number, from: number, end: number, count: number): number {
    const { ids, lengths, averageLength, scores, touched } = this;
    const { docs, freqs } = this.postings[t]!;
    const factor = this.factors[t]!;
    for (let p = from; p < end; p++) {
      const doc = docs[p]!;
      if (ids[doc] === undefined) continue;
      if (scores[doc] === 0) touched[count++] = doc;
      scores[doc]! += termScore(factor, freqs[p]!, lengths[doc]!, averageLength);
    }
    return count;
  }

  /**
   * Offers the documents `scoreRange` scored (and clears their scores); one scoring below the
   * worst kept is passed over here, without a call.
   */
  private offerScored(count: number): void {
    const { scores, touched } = this;
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!;
      const score = scores[doc]!;
      scores[doc] = 0;
      if (this.heapSize < this.limit || score >= this.heapScores[0]!) this.offer(doc, score);
    }
  }

  /**
   * Reads the range up to `ends` (see `lookupsPayOff`) document by document, taking documents
   * only from the postings of the terms after the first `optional` ones (by bound), and looking
   * those up, largest bound first, only while the document could still beat the k-th best score.
   * Then moves every term past the range. One loop, without calls per document: until it is
   * optimised, a call per document and term would cost more than the reading.
   */
  private scoreEssential(optional: number): void {
    const {
      positions,
      ends,
      rangeBound,
      byBound,
      contributions,
      optionalBound,
      postings,
      factors,
      ids,
      lengths,
      averageLength,
      termCount,
    } = this;
    for (let i = 0; i < optional; i++) optionalBound[i + 1] = optionalBound[i]! + rangeBound[byBound[i]!]!;
    for (;;) {
      let doc = -1;
      for (let i = optional; i < termCount; i++) {
        const t = byBound[i]!;
        if (positions[t]! < ends[t]!) {
          const next = postings[t]!.docs[positions[t]!]!;
          if (doc < 0 || next < doc) doc = next;
        }
      }
      if (doc < 0) break;
      const live = ids[doc] !== undefined;
      let partial = 0;
      for (let i = optional; i < termCount; i++) {
        const t = byBound[i]!;
        const { docs, freqs } = postings[t]!;
        if (positions[t]! >= ends[t]! || docs[positions[t]!] !== doc) continue;
        if (live) {
          contributions[t] = termScore(factors[t]!, freqs[positions[t]!]!, lengths[doc]!, averageLength);
          partial += contributions[t]!;
        }
        positions[t]! += 1;
      }
      if (!live) continue;
      let candidate = true;
      for (let i = optional - 1; i >= 0; i--) {
        if ((partial + optionalBound[i + 1]!) * BOUND_MARGIN <= this.heapScores[0]!) {
          candidate = false;
          break;
        }
        const t = byBound[i]!;
        const { docs, freqs } = postings[t]!;
        let p = positions[t]!;
        while (p < ends[t]! && docs[p]! < doc) p++;
        positions[t] = p;
        if (p < ends[t]! && docs[p] === doc) {
          contributions[t] = termScore(factors[t]!, freqs[p]!, lengths[doc]!, averageLength);
          partial += contributions[t]!;
        }
      }
      let score = 0;
      for (let t = 0; t < termCount; t++) {
        if (contributions[t]! > 0) score += contributions[t]!;
        contributions[t] = 0;
      }
      if (candidate) this.offer(doc, score);
    }
    for (let t = 0; t < termCount; t++) positions[t] = ends[t]!;
  }

  /** The first posting of term `t` after `range` (its postings up to there start at `from`). */
  private endOfRange(t: number, from: number, range: number): number {
    const { start } = this.impacts[t]!;
    if (start.length > 0) return start[range + 1]!;
    const rangeEnd = (range + 1) << RANGE_SHIFT;
    const { docs, length } = this.postings[t]!;
    let p = from;
    while (p < length && docs[p]! < rangeEnd) p++;
    return p;
  }

  /** Keeps a document if it beats the worst kept. */
  private offer(doc: number, score: number): void {
    if (this.heapSize === this.limit && !worse(this.heapScores[0]!, this.heapDocs[0]!, score, doc)) return;
    if (this.heapSize < this.limit) this.siftUp(doc, score);
    else this.siftDown(doc, score);
  }

  /** The documents kept, best first. */
  private sorted(): Array<{ doc: number; score: number }> {
    const hits: Array<{ doc: number; score: number }> = [];
    for (let i = 0; i < this.heapSize; i++) hits.push({ doc: this.heapDocs[i]!, score: this.heapScores[i]! });
    return hits.sort((a, b) => b.score - a.score || a.doc - b.doc);
  }

  private siftUp(doc: number, score: number): void {
    const { heapDocs: docs, heapScores: scores } = this;
    let i = this.heapSize++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(score, doc, scores[parent]!, docs[parent]!)) break;
      docs[i] = docs[parent]!;
      scores[i] = scores[parent]!;
      i = parent;
    }
    docs[i] = doc;
    scores[i] = score;
  }

  /** Replaces the root with a better document. */
  private siftDown(doc: number, score: number): void {
    const { heapDocs: docs, heapScores: scores, heapSize: size } = this;
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

/** Room for this many query terms before the per-term arrays grow. */
const INITIAL_TERMS = 16;
/** What a search between `top` and the next `begin` refers to: no documents. */
const NO_DOCUMENTS: ReadonlyArray<string | undefined> = [];
const NO_LENGTHS: readonly number[] = [];

/** Whether (score a, doc a) ranks below (score b, doc b). */
function worse(scoreA: number, docA: number, scoreB: number, docB: number): boolean {
  return scoreA < scoreB || (scoreA === scoreB && docA > docB);
}
