import { cosineSimilarity } from '@reverie/core';
import { normaliseTerms } from '@reverie/core/internal';
import type { NeighbourLookup } from './neighbour-lookup';

export interface SourceSimilarityOptions {
  /** Hits looked at per source when checking its neighbours. */
  neighbours: number;
  /** A hit counts when it scores at least this share of the best hit of the same query. */
  minNeighbourScore: number;
  /** With embeddings: a pair at or above this cosine similarity counts as similar too (M4: 0.5). */
  minCosine: number;
  /**
   * The category of an item, when known: two items filed in the same specific category (two or
   * more segments, such as `user-preferences/diet`) were put together by the agent or an earlier
   * cycle, and count as similar — "user is vegetarian" and "user does not eat meat" share no word.
   */
  categoryOf?: (id: string) => string | undefined;
}

/**
 * Two texts share enough of what they say when at least this share of the shorter one's distinct
 * normalised terms (stems, numbers, dates, abbreviations expanded; see `normaliseTerms`) is in
 * the other: "user runs in the mornings" and "User goes running every morning" share all of it,
 * "sprint length: 14 days" and "Sprints are two weeks long" a quarter.
 */
export const MIN_SHARED_TERMS = 0.25;

/** The generic subject of most memories: sharing it says nothing about sharing a topic. */
const GENERIC_TERMS: ReadonlySet<string> = new Set(normaliseTerms('user'));

/** Whether two texts share at least `MIN_SHARED_TERMS` of the shorter one's terms. Pure. */
export function shareTerms(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return false;
  let shared = 0;
  for (const key of small) if (large.has(key)) shared += 1;
  return shared > 0 && shared >= MIN_SHARED_TERMS * small.size;
}

/**
 * SPEC B11: a merge may only join entries the host itself finds similar. Two items are similar
 * when either one, used as a BM25 query over every item, finds the other among its first
 * `neighbours` hits scoring at least `minNeighbourScore` of the best hit — the same relation the
 * candidate clusters are built from —, when their normalised terms overlap (`shareTerms`: BM25
 * sees "running" and "runs" as different words, a paraphrase often shares only stems), when
 * both are filed in the same specific category (`categoryOf`), or, when vectors are given, when
 * their cosine similarity is at least `minCosine`. The sources of a merge
 * must be connected under that relation. Queries and analyses are made lazily, once per item.
 */
export class SourceSimilarity {
  private readonly neighbourCache = new Map<string, Set<string>>();
  private readonly termCache = new Map<string, Set<string>>();

  constructor(
    private readonly lookup: NeighbourLookup,
    private readonly textOf: (id: string) => string | undefined,
    private readonly options: SourceSimilarityOptions,
    private readonly vectors: ReadonlyMap<string, readonly number[]> = new Map(),
  ) {}

  /**
   * True when `a` and `b` are similar (see the class). `byCategory: false` leaves the shared
   * category out: what they say must be related (a supersession, SPEC B9, has no fact check
   * to catch two unrelated entries filed together).
   */
  similar(a: string, b: string, options: { byCategory?: boolean } = {}): boolean {
    if (a === b) return true;
    if (this.neighboursOf(a).has(b) || this.neighboursOf(b).has(a)) return true;
    if (shareTerms(this.termsOf(a), this.termsOf(b))) return true;
    const category = options.byCategory === false ? undefined : this.options.categoryOf?.(a);
    if (category !== undefined && category.includes('/') && category === this.options.categoryOf?.(b)) return true;
    const va = this.vectors.get(a);
    const vb = this.vectors.get(b);
    return va !== undefined && vb !== undefined && cosineSimilarity(va, vb) >= this.options.minCosine;
  }

  /** The share of `a`'s distinct normalised terms (the generic subject left out) that `b` also has, 0..1. */
  coverage(a: string, b: string): number {
    const of = this.termsOf(a);
    if (of.size === 0) return 0;
    const other = this.termsOf(b);
    let shared = 0;
    for (const key of of) if (other.has(key)) shared += 1;
    return shared / of.size;
  }

  /** The sources that are not connected to the first one through similar pairs (empty: all are). */
  unconnected(ids: readonly string[]): string[] {
    const [first, ...rest] = [...new Set(ids)];
    if (first === undefined) return [];
    const reached = new Set([first]);
    const queue = [first];
    let pending = rest;
    while (queue.length > 0 && pending.length > 0) {
      const current = queue.shift()!;
      const next: string[] = [];
      for (const id of pending) {
        if (this.similar(current, id)) {
          reached.add(id);
          queue.push(id);
        } else next.push(id);
      }
      pending = next;
    }
    return pending;
  }

  private termsOf(id: string): Set<string> {
    let terms = this.termCache.get(id);
    if (!terms) {
      terms = new Set(normaliseTerms(this.textOf(id) ?? '').filter((key) => !GENERIC_TERMS.has(key)));
      this.termCache.set(id, terms);
    }
    return terms;
  }

  private neighboursOf(id: string): Set<string> {
    let found = this.neighbourCache.get(id);
    if (found) return found;
    found = new Set();
    for (const hit of this.lookup.ofItem(id, this.options.neighbours))
      if (hit.strength >= this.options.minNeighbourScore) found.add(hit.id);
    this.neighbourCache.set(id, found);
    return found;
  }
}
