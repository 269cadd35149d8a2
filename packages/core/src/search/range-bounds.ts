import { termScore } from './bm25-scoring';

/** Documents are numbered in ranges of 2^RANGE_SHIFT consecutive numbers for pruning. */
export const RANGE_SHIFT = 5;

/**
 * A term's postings: document numbers in increasing order, then frequencies, in the first
 * `length` slots (grown by doubling).
 */
export interface Posting {
  docs: Uint32Array;
  freqs: Uint32Array;
  length: number;
  /** Live postings: documents and passages (see `Bm25Index.set`) containing the term. */
  df: number;
  /** Documents whose text or passages contain the term, each counted once: its document frequency for the idf. */
  holders: number;
  /** Upper bounds on its impact, computed when a search with a limit first needs them. */
  bounds: RangeBounds | undefined;
}

/**
 * Upper bounds on a term's impact (`termScore` with factor 1) over its first `covered` postings, at the
 * index's reference length: over all of them (`overall`) and, for a term with many postings, per
 * range of document numbers (`max[r]`, 0 where it has none), with `start[r]` the first posting of
 * range r (or later) so a search can skip a range without reading it (both empty for a term
 * with few postings).
 */
export interface RangeBounds {
  /** The reference length's generation they were computed for (see `ImpactReference`). */
  generation: number;
  covered: number;
  overall: number;
  max: Float64Array;
  start: Uint32Array;
}

/**
 * The document length the bounds are computed at. BM25 divides a document's length by the
 * average length, which moves with every change; a bound at a reference length `reference`
 * holds at any average `average` once multiplied by `max(1, average / reference)` (see
 * `impactScale`), so bounds are recomputed only when the average drifts far from it.
 */
export interface ImpactReference {
  length: number;
  generation: number;
}

/** The average may drift this far (as a ratio) from the reference before bounds are recomputed. */
const REFERENCE_DRIFT = 1.05;
/** Only terms with at least this many postings per range get per-range bounds (12 bytes a range, against 8 a posting). */
const POSTINGS_PER_RANGE = 2;

/** Moves the reference to `averageLength` (a new generation) when it drifted too far from it. */
export function updateReference(reference: ImpactReference, averageLength: number): void {
  const ratio = averageLength / reference.length;
  if (reference.length > 0 && ratio <= REFERENCE_DRIFT && ratio >= 1 / REFERENCE_DRIFT) return;
  reference.length = averageLength;
  reference.generation += 1;
}

/** What impact bounds at `reference` are multiplied by to hold at `averageLength` (see `ImpactReference`). */
export function impactScale(reference: ImpactReference, averageLength: number): number {
  return Math.max(1, averageLength / reference.length);
}

/** Whether a term has enough postings for bounds per range of document numbers. */
export function hasRangeBounds(posting: Posting, documentCount: number): boolean {
  return posting.length >= POSTINGS_PER_RANGE * ((documentCount >> RANGE_SHIFT) + 1);
}

/**
 * Brings a term's bounds up to date with its postings (only the postings added since they were
 * computed are read, unless the reference moved) and returns them. `documentCount` is the number
 * of document numbers in use, `lengths` each document's length.
 */
export function rangeBounds(posting: Posting, lengths: readonly number[], reference: ImpactReference, documentCount: number): RangeBounds {
  const ranges = (documentCount >> RANGE_SHIFT) + 1;
  const perRange = hasRangeBounds(posting, documentCount);
  let bounds = posting.bounds;
  if (bounds === undefined || bounds.generation !== reference.generation || (bounds.max.length === 0 && perRange)) {
    bounds = {
      generation: reference.generation,
      covered: 0,
      overall: 0,
      max: new Float64Array(perRange ? ranges : 0),
      start: new Uint32Array(perRange ? ranges + 1 : 0),
    };
    posting.bounds = bounds;
  }
  if (bounds.max.length > 0 && bounds.max.length < ranges) {
    // More document numbers in use: ranges past the covered postings hold none of them yet.
    const max = new Float64Array(Math.max(ranges, bounds.max.length * 2));
    const start = new Uint32Array(max.length + 1).fill(bounds.covered);
    max.set(bounds.max);
    start.set(bounds.start);
    bounds.max = max;
    bounds.start = start;
  }
  if (bounds.covered < posting.length) extendBounds(bounds, posting, lengths, reference.length);
  return bounds;
}

/** Takes the postings after `bounds.covered` into the bounds. */
function extendBounds(bounds: RangeBounds, { docs, freqs, length }: Posting, lengths: readonly number[], referenceLength: number): void {
  const { max, start } = bounds;
  const perRange = max.length > 0;
  let overall = bounds.overall;
  // The ranges after the last covered posting's begin at the first new posting or later.
  let nextRange = bounds.covered === 0 ? 0 : (docs[bounds.covered - 1]! >> RANGE_SHIFT) + 1;
  for (let p = bounds.covered; p < length; p++) {
    const doc = docs[p]!;
    const value = termScore(1, freqs[p]!, lengths[doc]!, referenceLength);
    if (value > overall) overall = value;
    if (!perRange) continue;
    const range = doc >> RANGE_SHIFT;
    while (nextRange <= range) start[nextRange++] = p;
    if (value > max[range]!) max[range] = value;
  }
  if (perRange) start.fill(length, nextRange);
  bounds.overall = overall;
  bounds.covered = length;
}
